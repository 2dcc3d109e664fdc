import type { Address } from '../../core/types.js';
import { getVerifiedAbi } from '../../store/verifiedContracts.js';
import { TEXT } from '../../texts/index.js';
import type { SerializedEnvelope } from '../answerCache.js';
import type { ApiContext } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import { isAddress, type Params } from '../params.js';

/** `getabi`: the ABI of a verified contract as a JSON string. */
export async function getAbi(ctx: ApiContext, params: Params, okMessage: string): Promise<Envelope | SerializedEnvelope> {
  const address = params.text('address');
  if (!address) return fail(TEXT.missingParameter('address'));
  if (!isAddress(address)) return fail(TEXT.invalidAddress);
  await ctx.records.check(address as Address);
  const cacheKey = `getabi ${address.toLowerCase()} ${okMessage}`;
  const kept = ctx.answers.get(cacheKey);
  if (kept) return kept;
  const version = ctx.answers.version();
  let abi = await getVerifiedAbi(ctx.store.db, address);
  // Not verified: it may be a copy of a contract that is.
  if (abi === null && (await ctx.copies.tryVerify(address as Address))) abi = await getVerifiedAbi(ctx.store.db, address);
  if (abi === null) return fail(TEXT.notVerified);
  return ctx.answers.keep(cacheKey, version, ok(abi, okMessage));
}
