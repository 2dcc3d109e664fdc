/**
 * Lists of verified contracts, the same at every door: every row of a page is checked to still
 * hold the code it describes (within the record check's budget of node reads; a row past it is
 * checked when it is read), and a page that lost a row is read again.
 */
import type { Address } from '../core/types.js';
import { proxyAddressesAmong } from '../store/proxyRecords.js';
import {
  countVerifiedContracts,
  type ListCursor,
  type ListFilter,
  listVerifiedContracts,
  listVerifiedMatches,
  type VerifiedContractSummary,
  type VerifiedMatchSummary,
} from '../store/verifiedContracts.js';
import type { Services } from './services.js';

type ListServices = Pick<Services, 'store' | 'records'>;

async function checkedRows<T extends { address: Address }>(s: ListServices, read: () => Promise<T[]>): Promise<T[]> {
  const rows = await read();
  return (await s.records.checkListed(rows.map((r) => r.address))) ? read() : rows;
}

/** Verified contracts newest first, a page at a time: after a position (keyset), or from an offset for the first pages. */
export function listVerified(
  s: ListServices,
  page: { limit: number; after?: ListCursor | null; offset?: number; filter?: ListFilter },
): Promise<VerifiedContractSummary[]> {
  return checkedRows(s, () => listVerifiedContracts(s.store.db, page));
}

/** How many contracts are verified: a counter kept as records are written. */
export function verifiedCount(s: Pick<Services, 'store'>): Promise<number> {
  return countVerifiedContracts(s.store.db);
}

/** Which of `addresses` have a proxy link. */
export function proxiesAmong(s: Pick<Services, 'store'>, addresses: readonly string[]): Promise<Set<string>> {
  return proxyAddressesAmong(s.store.db, addresses);
}

/** Verified contracts with their matches, newest or oldest first, a page after a position. */
export function listMatches(s: ListServices, page: { limit: number; after: ListCursor | null; order: 'asc' | 'desc' }): Promise<VerifiedMatchSummary[]> {
  return checkedRows(s, () => listVerifiedMatches(s.store.db, page));
}

/**
 * Every verified contract newest first, `batch` rows at a time by keyset (bounded memory, the
 * event loop free between batches). Each batch's rows are checked as a list page's are, within
 * the same budget, but not waited for: an export of the whole store must not wait on the node,
 * and a row a check takes off is gone from the next read.
 */
export async function* everyVerified(s: ListServices, batch: number): AsyncGenerator<VerifiedContractSummary[]> {
  let after: ListCursor | null = null;
  for (;;) {
    const rows = await listVerifiedContracts(s.store.db, { limit: batch, after });
    void s.records.checkListed(
      rows.map((r) => r.address),
      { wait: false },
    );
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { verifiedAt: last.verifiedAt, address: last.address };
    await new Promise((resolve) => setImmediate(resolve));
  }
}
