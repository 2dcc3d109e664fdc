/**
 * `GET /v2/contracts/{chainId}`: the verified contracts, newest first (`sort=desc`, the
 * default) or oldest first (`sort=asc`), `limit` (at most 200) a page, after `afterMatchId`
 * (the `matchId` of the last contract of the previous page).
 */
import { SOURCIFY_TEXT } from '../texts/index.js';
import { listMatches, parseListCursor, type Services } from '../useCases/index.js';
import { type Answer, errorAnswer, matched } from './answers.js';

export async function listContracts(s: Services, params: { chainId?: string | undefined }, query: Record<string, unknown>): Promise<Answer> {
  const chainId = params.chainId ?? '';
  if (chainId !== String(s.chainId)) return errorAnswer(404, 'unsupported_chain', SOURCIFY_TEXT.unsupportedChain(chainId, s.chainId));
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  const sort = text('sort') || 'desc';
  if (sort !== 'asc' && sort !== 'desc') return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidField('sort', 'expected asc or desc'));
  const limitText = text('limit') || '200';
  if (!/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 200) {
    return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidField('limit', 'expected a whole number from 1 to 200'));
  }
  const afterText = text('afterMatchId');
  const after = afterText ? parseListCursor(afterText) : null;
  if (afterText && !after) return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidField('afterMatchId', 'not a matchId this service gave'));
  const rows = await listMatches(s, { limit: Number(limitText), after, order: sort });
  return { status: 200, body: { results: rows.map((row) => matched(s.chainId, row)) } };
}
