/** Named values kept between runs: the chain follower's position, the chain's genesis, leases. */
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export async function getChainState(db: Kysely<Database>, name: string): Promise<string | null> {
  const row = await db.selectFrom('chainState').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value ?? null;
}

export async function setChainState(db: Kysely<Database>, name: string, value: string): Promise<void> {
  await db
    .insertInto('chainState')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}

/**
 * Takes or renews a lease named `name` for `holder` until `now + ms`; true when `holder` holds
 * it (it was free, expired, or already theirs). One follower per store, however many workers.
 */
export async function takeLease(db: Kysely<Database>, name: string, holder: string, ms: number, now = Date.now()): Promise<boolean> {
  const value = JSON.stringify({ holder, until: now + ms });
  await db
    .insertInto('chainState')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('chainState').select('value').where('name', '=', name).executeTakeFirst();
  if (!row) return false;
  let current: { holder?: string; until?: number } = {};
  try {
    current = JSON.parse(row.value);
  } catch {
    // an unreadable lease is free
  }
  if (current.holder !== holder && typeof current.until === 'number' && current.until > now) return false;
  // Compare-and-set on the text read: of two takers, one updates the row.
  const res = await db.updateTable('chainState').set({ value }).where('name', '=', name).where('value', '=', row.value).executeTakeFirst();
  return res.numUpdatedRows > 0n || row.value === value;
}

/** Gives up a lease `holder` holds (nothing happens when another holds it now). True when it was released. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<boolean> {
  const row = await db.selectFrom('chainState').select('value').where('name', '=', name).executeTakeFirst();
  if (!row) return false;
  let current: { holder?: string } = {};
  try {
    current = JSON.parse(row.value);
  } catch {
    return false;
  }
  if (current.holder !== holder) return false;
  const res = await db.deleteFrom('chainState').where('name', '=', name).where('value', '=', row.value).executeTakeFirst();
  return res.numDeletedRows > 0n;
}
