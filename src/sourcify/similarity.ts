/**
 * `POST /v2/verify/similarity/{chainId}/{address}`: the deployed code matched against the
 * stored compilations, with nothing submitted. Answered at once rather than as a job: 200 with
 * the contract when it is verified, 404 `no_similar_match_found` when no stored compilation matches.
 */
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Services, verifySimilar as verifySimilarMatch } from '../useCases/index.js';
import { type Answer, checksummed, errorAnswer, matched } from './answers.js';
import { checkTarget, isAnswer } from './checkTarget.js';

export async function verifySimilar(s: Services, params: { chainId?: string | undefined; address?: string | undefined }, body: unknown): Promise<Answer> {
  const target = checkTarget(s.chainId, params);
  if (isAnswer(target)) return target;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidJson);
  }
  const similar = await verifySimilarMatch(s, target.address);
  if (similar.ok) return { status: 200, body: matched(s.chainId, similar.contract) };
  if (similar.refusal.code === 'no_similar_match') return errorAnswer(404, 'no_similar_match_found', SOURCIFY_TEXT.noSimilarMatch);
  return errorAnswer(409, 'already_verified', SOURCIFY_TEXT.alreadyVerified(checksummed(target.address), s.chainId));
}
