import { createHash, timingSafeEqual } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import { randomString } from '../core/random.js';
import type { ApiKeysTable, ApiKeyTier, Database } from './database.js';
import { isPostgres } from './dialect.js';
import { writeTransaction } from './transactions.js';

/** An API key as the service knows it: never the key itself (nor its hash), only how to show it. */
export type ApiKeyRecord = Omit<Selectable<ApiKeysTable>, 'keyHash'>;

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Etherscan's keys are 34 upper-case letters and digits; clients expect that shape. */
const KEY_LENGTH = 34;
const KEY_PREFIX_LENGTH = 6;
/** Longer inputs cannot be keys; refusing them keeps the hashing bounded. */
const MAX_KEY_INPUT = 256;

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Creates a key and returns it once: only its sha256 is stored, so it cannot be shown again.
 */
export async function createApiKey(
  db: Kysely<Database>,
  options: { owner?: string | undefined; tier?: ApiKeyTier; now?: number } = {},
): Promise<{ id: string; key: string }> {
  const key = randomString(KEY_ALPHABET, KEY_LENGTH);
  const id = `key_${randomString('abcdefghijklmnopqrstuvwxyz0123456789', 16)}`;
  await db
    .insertInto('apiKeys')
    .values({
      id,
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, KEY_PREFIX_LENGTH),
      owner: options.owner ?? null,
      tier: options.tier ?? 'free',
      createdAt: options.now ?? Date.now(),
      lastUsedAt: null,
      revokedAt: null,
    })
    .execute();
  return { id, key };
}

/** The active key matching `key`, or null when unknown or revoked. */
export async function findApiKey(db: Kysely<Database>, key: string): Promise<ApiKeyRecord | null> {
  if (key.length === 0 || key.length > MAX_KEY_INPUT) return null;
  const hash = hashKey(key);
  const row = await db.selectFrom('apiKeys').selectAll().where('keyHash', '=', hash).executeTakeFirst();
  if (!row) return null;
  // The index lookup already matched; comparing again in constant time keeps the final
  // decision free of early-exit string comparison.
  if (!timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  if (row.revokedAt !== null) return null;
  return toRecord(row);
}

/** Records that a key was used at `now` (never moving its last use back: several processes may write it). */
export async function touchApiKey(db: Kysely<Database>, id: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('apiKeys')
    .set({ lastUsedAt: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', now)]))
    .execute();
}

/** touchApiKey for many keys (id to time of use), in one transaction: one commit for all. */
export async function touchApiKeys(db: Kysely<Database>, uses: ReadonlyMap<string, number>): Promise<void> {
  if (uses.size === 0) return;
  await writeTransaction(db, async (trx) => {
    for (const [id, at] of uses) await touchApiKey(trx, id, at);
  });
}

/** Every key, revoked ones included, oldest first. */
export async function listApiKeys(db: Kysely<Database>): Promise<ApiKeyRecord[]> {
  const rows = await db.selectFrom('apiKeys').selectAll().orderBy('createdAt').orderBy('id').execute();
  return rows.map(toRecord);
}

/** Revokes a key; false when there is no such active key. */
export async function revokeApiKey(db: Kysely<Database>, id: string, now = Date.now()): Promise<boolean> {
  const res = await db.updateTable('apiKeys').set({ revokedAt: now }).where('id', '=', id).where('revokedAt', 'is', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

function toRecord(row: ApiKeyRecord): ApiKeyRecord {
  return {
    id: row.id,
    keyPrefix: row.keyPrefix,
    owner: row.owner,
    tier: row.tier,
    createdAt: Number(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : Number(row.lastUsedAt),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
  };
}

/** How many keys with this owner were created at or after `since` (epoch ms), revoked ones included. */
export async function countKeysCreatedSince(db: Kysely<Database>, owner: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('apiKeys')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('owner', '=', owner)
    .where('createdAt', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Creates a key for `owner` unless `limit` keys of that owner were created at or after `since`
 * (epoch ms): `created` is null when the limit is reached; `made` counts this owner's keys
 * since then, this one included. The count and the insert are one step, so requests at once,
 * in one process or in several sharing the store, never create more than `limit`: SQLite's
 * write lock is taken before the count, and on PostgreSQL a transaction-scoped advisory lock on
 * the owner makes creations for that owner wait for each other.
 */
export async function createApiKeyWithin(
  db: Kysely<Database>,
  options: { owner: string; since: number; limit: number; tier?: ApiKeyTier; now?: number },
): Promise<{ created: { id: string; key: string } | null; made: number }> {
  return writeTransaction(db, async (trx) => {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`api-key-owner:${options.owner}`}, 0))`.execute(trx);
    const made = await countKeysCreatedSince(trx, options.owner, options.since);
    if (made >= options.limit) return { created: null, made };
    const created = await createApiKey(trx, { owner: options.owner, tier: options.tier ?? 'free', now: options.now ?? Date.now() });
    return { created, made: made + 1 };
  });
}
