/**
 * The upgrade events the chain follower read (`Upgraded`, `BeaconUpgraded`): which implementation
 * or beacon a proxy (or a beacon) named, and where. Keyed by block and log index, so a block read
 * again writes nothing twice.
 */
import type { Kysely } from 'kysely';
import type { Address, Hex } from '../core/types.js';
import type { Database, ProxyHistoryKind } from './database.js';

/** One upgrade event. */
export interface ProxyHistoryRow {
  /** The contract that emitted it: a proxy, or a beacon. */
  proxy: Address;
  /** The implementation (kind `implementation`) or beacon (kind `beacon`) it names. */
  target: Address;
  kind: ProxyHistoryKind;
  blockNumber: number;
  transactionHash: Hex;
  logIndex: number;
}

/** Records upgrade events; those already recorded (same block and log index) are left as they are. */
export async function recordProxyHistory(db: Kysely<Database>, rows: readonly ProxyHistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('proxyHistory')
    .values(
      rows.map((r) => ({
        proxy: r.proxy.toLowerCase(),
        target: r.target.toLowerCase(),
        kind: r.kind,
        blockNumber: r.blockNumber,
        transactionHash: r.transactionHash.toLowerCase(),
        logIndex: r.logIndex,
      })),
    )
    .onConflict((oc) => oc.columns(['blockNumber', 'logIndex']).doNothing())
    .execute();
}

/** Forgets the events of the blocks above `above` (rolled back), or all of them (the chain restarted from genesis). */
export async function forgetProxyHistory(db: Kysely<Database>, range: { above?: number } = {}): Promise<number> {
  const result = await db
    .deleteFrom('proxyHistory')
    .$if(range.above !== undefined, (qb) => qb.where('blockNumber', '>', range.above!))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The events emitted by `emitters`, oldest first. */
export async function proxyHistoryOf(db: Kysely<Database>, emitters: readonly Address[]): Promise<ProxyHistoryRow[]> {
  if (emitters.length === 0) return [];
  const rows = await db
    .selectFrom('proxyHistory')
    .selectAll()
    .where(
      'proxy',
      'in',
      emitters.map((a) => a.toLowerCase()),
    )
    .orderBy('blockNumber')
    .orderBy('logIndex')
    .execute();
  return rows.map((r) => ({
    proxy: r.proxy as Address,
    target: r.target as Address,
    kind: r.kind,
    blockNumber: Number(r.blockNumber),
    transactionHash: r.transactionHash as Hex,
    logIndex: Number(r.logIndex),
  }));
}
