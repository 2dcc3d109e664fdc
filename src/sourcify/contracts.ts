/**
 * `GET /v2/contracts/{chainId}`: the verified contracts, newest first (`sort=desc`, the
 * default) or oldest first (`sort=asc`), `limit` (at most 200) a page, after `afterMatchId`
 * (the `matchId` of the last contract of the previous page).
 */
import { listVerifiedMatches, parseListCursor } from '../store/verifiedContracts.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Answer, errorAnswer, matched } from './answers.js';
import type { SourcifyContext } from './context.js';

export async function listContracts(ctx: SourcifyContext, params: { chainId?: string }, query: Record<string, unknown>): Promise<Answer> {
  const chainId = params.chainId ?? '';
  if (chainId !== String(ctx.chainId)) return errorAnswer(404, 'unsupported_chain', SOURCIFY_TEXT.unsupportedChain(chainId, ctx.chainId));
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
  const rows = await listVerifiedMatches(ctx.store.db, { limit: Number(limitText), after, order: sort });
  return { status: 200, body: { results: rows.map((row) => matched(ctx.chainId, row)) } };
}
