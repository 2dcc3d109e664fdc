/**
 * `POST /v2/verify/similarity/{chainId}/{address}`: the deployed code matched against the
 * stored compilations, with nothing submitted (the bytecode database's similar match: no
 * compile, every byte outside the masked regions compared). It needs no compiler, so it is
 * answered at once rather than as a job: 200 with the contract when it is verified, 404
 * `no_similar_match_found` when no stored compilation matches.
 */
import type { Address } from '../core/types.js';
import { unfinishedSourceJob } from '../store/verificationJobs.js';
import { getStoredVerdict, getVerifiedContract } from '../store/verifiedContracts.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Answer, checksummed, errorAnswer, JOB_WAIT_SECONDS, matched } from './answers.js';
import { checkTarget, isAnswer } from './checkTarget.js';
import type { SourcifyContext } from './context.js';

export async function verifySimilar(ctx: SourcifyContext, params: { chainId?: string; address?: string }, body: unknown): Promise<Answer> {
  const target = checkTarget(ctx, params);
  if (isAnswer(target)) return target;
  const { address } = target;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidJson);
  }
  await ctx.records.check(address);
  const existing = await getStoredVerdict(ctx.store.db, address);
  if (existing?.creationMatch === 'full' && existing.runtimeMatch === 'full') {
    return errorAnswer(409, 'already_verified', SOURCIFY_TEXT.alreadyVerified(checksummed(address), ctx.chainId));
  }
  if (await unfinishedSourceJob(ctx.store.db, address)) {
    return {
      ...errorAnswer(429, 'duplicate_verification_request', SOURCIFY_TEXT.beingVerified(checksummed(address), ctx.chainId)),
      retryAfterSeconds: JOB_WAIT_SECONDS,
    };
  }
  if (!existing) await ctx.copies.tryVerify(address as Address);
  const contract = await getVerifiedContract(ctx.store.db, address);
  if (!contract) return errorAnswer(404, 'no_similar_match_found', SOURCIFY_TEXT.noSimilarMatch);
  return { status: 200, body: matched(ctx.chainId, contract) };
}
