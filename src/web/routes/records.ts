import type { Address } from '../../core/types.js';
import { getVerifiedContract, type VerifiedContract } from '../../store/verifiedContracts.js';
import type { WebContext } from '../context.js';

/** A list page's rows, each checked to still hold the code it describes (read again when one was taken off). */
export async function checkedRows<T extends { address: Address }>(ctx: WebContext, read: () => Promise<T[]>): Promise<T[]> {
  const rows = await read();
  return (await ctx.records.checkListed(rows.map((r) => r.address))) ? read() : rows;
}

/** The verified contract at `address`, once checked to still hold the code it describes; or null. */
export async function checkedRecord(ctx: WebContext, address: Address): Promise<VerifiedContract | null> {
  await ctx.records.check(address);
  return getVerifiedContract(ctx.store.db, address);
}
