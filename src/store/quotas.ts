import type { Kysely } from 'kysely';
import type { Database, QuotaKind } from './database.js';

export type { QuotaKind } from './database.js';

export interface TakeQuotaOptions {
  keyId: string;
  kind: QuotaKind;
  /** Submissions allowed per UTC day; 0 or less means no daily limit. */
  limit: number;
  /** Defaults to the current time; decides which UTC day is counted. */
  now?: Date;
}

export type QuotaDecision = { ok: true; used: number; resetsAt: Date } | { ok: false; used: number; resetsAt: Date };

/** `YYYY-MM-DD` of the UTC day containing `now`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The UTC midnight that ends the day containing `now`: when a daily quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/**
 * Counts one submission of `kind` by a key against its daily limit, durably. The check and
 * the increment are one conditional upsert, so concurrent requests (and several service
 * processes sharing a PostgreSQL database) can never take more than `limit` between them.
 * `used` is the day's count after this call (unchanged when refused).
 */
export async function takeQuota(db: Kysely<Database>, options: TakeQuotaOptions): Promise<QuotaDecision> {
  const now = options.now ?? new Date();
  const day = utcDay(now);
  const resetsAt = nextUtcMidnight(now);
  const limited = options.limit > 0;
  const row = await db
    .insertInto('dailyQuotas')
    .values({ apiKeyId: options.keyId, kind: options.kind, day, count: 1 })
    .onConflict((oc) => {
      const update = oc.columns(['apiKeyId', 'kind', 'day']).doUpdateSet((eb) => ({ count: eb('dailyQuotas.count', '+', 1) }));
      return limited ? update.where('dailyQuotas.count', '<', options.limit) : update;
    })
    .returning('count')
    .executeTakeFirst();
  if (row) return { ok: true, used: Number(row.count), resetsAt };
  // No row back: the conditional update did not apply, so the day's limit was already reached.
  return { ok: false, used: await quotaUsed(db, options.keyId, options.kind, now), resetsAt };
}

/** The submissions of `kind` a key made on the UTC day containing `now`. */
export async function quotaUsed(db: Kysely<Database>, keyId: string, kind: QuotaKind, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom('dailyQuotas')
    .select('count')
    .where('apiKeyId', '=', keyId)
    .where('kind', '=', kind)
    .where('day', '=', utcDay(now))
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/** Today's counts for every key that submitted anything today, by key id. */
export async function quotaUsageToday(db: Kysely<Database>, now: Date = new Date()): Promise<Map<string, Record<QuotaKind, number>>> {
  const rows = await db.selectFrom('dailyQuotas').selectAll().where('day', '=', utcDay(now)).execute();
  const usage = new Map<string, Record<QuotaKind, number>>();
  for (const row of rows) {
    const entry = usage.get(row.apiKeyId) ?? { verify: 0, proxy: 0, dry_run: 0, diagnosis: 0 };
    entry[row.kind] = Number(row.count);
    usage.set(row.apiKeyId, entry);
  }
  return usage;
}

/** Gives back one unit of `kind` the key took today (a diagnosis that turned out cheap); never below zero. */
export async function returnQuota(db: Kysely<Database>, options: { keyId: string; kind: QuotaKind; now?: Date }): Promise<void> {
  await db
    .updateTable('dailyQuotas')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('apiKeyId', '=', options.keyId)
    .where('kind', '=', options.kind)
    .where('day', '=', utcDay(options.now ?? new Date()))
    .where('count', '>', 0)
    .execute();
}
