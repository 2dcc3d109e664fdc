/**
 * The hashes of the blocks the chain follower handled lately (a bounded window): when the
 * block at its position changes, the highest block whose hash is still the one recorded is
 * where the chain was rolled back to.
 */
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/** A handled block: its number and hash. */
export interface FollowedBlock {
  number: number;
  hash: string;
}

/** Records the hash of a handled block (again: the later hash wins). */
export async function recordFollowedBlock(db: Kysely<Database>, block: FollowedBlock): Promise<void> {
  await db
    .insertInto('followedBlocks')
    .values(block)
    .onConflict((oc) => oc.column('number').doUpdateSet({ hash: block.hash }))
    .execute();
}

/** The recorded blocks at or below `atMost`, lowest first (at most `limit`, the highest ones). */
export async function followedBlocksUpTo(db: Kysely<Database>, atMost: number, limit: number): Promise<FollowedBlock[]> {
  const rows = await db.selectFrom('followedBlocks').select(['number', 'hash']).where('number', '<=', atMost).orderBy('number', 'desc').limit(limit).execute();
  return rows.map((r) => ({ number: Number(r.number), hash: r.hash })).reverse();
}

/** Forgets the blocks above `above` (rolled back), or below `below` (out of the window), or all. */
export async function forgetFollowedBlocks(db: Kysely<Database>, range: { above?: number; below?: number } = {}): Promise<void> {
  await db
    .deleteFrom('followedBlocks')
    .$if(range.above !== undefined, (qb) => qb.where('number', '>', range.above!))
    .$if(range.below !== undefined, (qb) => qb.where('number', '<', range.below!))
    .execute();
}
