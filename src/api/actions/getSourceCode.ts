import type { Address } from '../../core/types.js';
import { getProxyRecord } from '../../store/proxyRecords.js';
import { getVerifiedContract } from '../../store/verifiedContracts.js';
import { TEXT } from '../../texts/index.js';
import type { SerializedEnvelope } from '../answerCache.js';
import type { ApiContext } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import { isAddress, type Params } from '../params.js';
import { unverifiedRecord, verifiedRecord } from '../sourceRecord.js';

/** `getsourcecode`: always a one-element array, verified or not. */
export async function getSourceCode(ctx: ApiContext, params: Params, okMessage: string): Promise<Envelope | SerializedEnvelope> {
  const address = params.text('address');
  if (!address) return fail(TEXT.missingParameter('address'));
  if (!isAddress(address)) return fail(TEXT.invalidAddress);
  await ctx.records.check(address as Address);
  const cacheKey = `getsourcecode ${address.toLowerCase()} ${okMessage}`;
  const kept = ctx.answers.get(cacheKey);
  if (kept) return kept;
  const version = ctx.answers.version();
  let contract = await getVerifiedContract(ctx.store.db, address);
  // Not verified: it may be a copy of a contract that is.
  if (!contract && (await ctx.copies.tryVerify(address as Address))) contract = await getVerifiedContract(ctx.store.db, address);
  if (!contract) return ok([unverifiedRecord()], okMessage);
  const proxy = await getProxyRecord(ctx.store.db, address);
  return ctx.answers.keep(cacheKey, version, ok([verifiedRecord(contract, proxy)], okMessage));
}
