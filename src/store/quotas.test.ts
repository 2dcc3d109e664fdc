import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { createTestDatabase } from '../../test/helpers/testDatabase.js';
import { createApiKey } from './apiKeys.js';
import { migrateToLatest } from './openStore.js';
import { nextUtcMidnight, quotaUsageToday, quotaUsed, returnQuota, takeQuota } from './quotas.js';

const NOON = new Date('2026-11-22T12:00:00.000Z');

describe('nextUtcMidnight', () => {
  it('is the end of the UTC day, also across months and years', () => {
    expect(nextUtcMidnight(NOON).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-11-30T23:59:59.999Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-12-31T00:00:00.000Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describeOnDialects('daily quotas', (dialect) => {
  const stores = useTestStores(dialect);

  it('counts up to the limit, then refuses with the next UTC midnight; kinds and days are separate', async () => {
    const { id } = await createApiKey(stores.store.db);
    for (let i = 1; i <= 3; i++) {
      expect(await takeQuota(stores.store.db, { keyId: id, kind: 'verify', limit: 3, now: NOON })).toEqual({
        ok: true,
        used: i,
        resetsAt: new Date('2026-11-23T00:00:00Z'),
      });
    }
    expect(await takeQuota(stores.store.db, { keyId: id, kind: 'verify', limit: 3, now: NOON })).toEqual({
      ok: false,
      used: 3,
      resetsAt: new Date('2026-11-23T00:00:00Z'),
    });
    expect(await quotaUsed(stores.store.db, id, 'verify', NOON)).toBe(3);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'proxy', limit: 3, now: NOON })).ok).toBe(true);
    const tomorrow = new Date('2026-11-23T00:00:00.000Z');
    expect(await takeQuota(stores.store.db, { keyId: id, kind: 'verify', limit: 3, now: tomorrow })).toMatchObject({ ok: true, used: 1 });
    // Dry runs and diagnoses are counted apart from the verifications.
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'dry_run', limit: 2, now: NOON })).ok).toBe(true);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'dry_run', limit: 2, now: NOON })).ok).toBe(true);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'dry_run', limit: 2, now: NOON })).ok).toBe(false);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'diagnosis', limit: 1, now: NOON })).ok).toBe(true);
    expect((await quotaUsageToday(stores.store.db, NOON)).get(id)).toEqual({ verify: 3, proxy: 1, dry_run: 2, diagnosis: 1 });
  });

  it("keeps the day's counts of verifications and proxies through the migration that adds dry runs and diagnoses", async () => {
    const tdb = await createTestDatabase(dialect);
    try {
      const store = await tdb.open({ migrate: false });
      try {
        await migrateToLatest(store, { upTo: '0008_list_search' });
        const raw = store.db.withoutPlugins() as unknown as Kysely<any>;
        await raw
          .insertInto('daily_quotas')
          .values([
            { api_key_id: 'key_a', kind: 'verify', day: '2026-11-22', count: 7 },
            { api_key_id: 'key_a', kind: 'proxy', day: '2026-11-22', count: 2 },
          ])
          .execute();
        await migrateToLatest(store);
        expect((await quotaUsageToday(store.db, NOON)).get('key_a')).toEqual({ verify: 7, proxy: 2, dry_run: 0, diagnosis: 0 });
        expect(await takeQuota(store.db, { keyId: 'key_a', kind: 'verify', limit: 8, now: NOON })).toMatchObject({ ok: true, used: 8 });
        expect(await takeQuota(store.db, { keyId: 'key_a', kind: 'verify', limit: 8, now: NOON })).toMatchObject({ ok: false, used: 8 });
        await expect(raw.insertInto('daily_quotas').values({ api_key_id: 'key_a', kind: 'other', day: '2026-11-22', count: 1 }).execute()).rejects.toThrow();
      } finally {
        await store.close();
      }
    } finally {
      await tdb.dispose();
    }
  });

  it('a unit given back frees its place for today, never below zero and never another day', async () => {
    const { id } = await createApiKey(stores.store.db);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'diagnosis', limit: 1, now: NOON })).ok).toBe(true);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'diagnosis', limit: 1, now: NOON })).ok).toBe(false);
    await returnQuota(stores.store.db, { keyId: id, kind: 'diagnosis', now: NOON });
    expect(await quotaUsed(stores.store.db, id, 'diagnosis', NOON)).toBe(0);
    expect((await takeQuota(stores.store.db, { keyId: id, kind: 'diagnosis', limit: 1, now: NOON })).ok).toBe(true);
    await returnQuota(stores.store.db, { keyId: id, kind: 'diagnosis', now: NOON });
    await returnQuota(stores.store.db, { keyId: id, kind: 'diagnosis', now: NOON });
    expect(await quotaUsed(stores.store.db, id, 'diagnosis', NOON)).toBe(0);
    // Another day's count is not touched.
    await takeQuota(stores.store.db, { keyId: id, kind: 'verify', limit: 5, now: NOON });
    await returnQuota(stores.store.db, { keyId: id, kind: 'verify', now: new Date(NOON.getTime() + 86_400_000) });
    expect(await quotaUsed(stores.store.db, id, 'verify', NOON)).toBe(1);
  });

  it('a limit of 0 counts without refusing', async () => {
    const { id } = await createApiKey(stores.store.db);
    for (let i = 0; i < 5; i++) expect((await takeQuota(stores.store.db, { keyId: id, kind: 'proxy', limit: 0, now: NOON })).ok).toBe(true);
    expect(await quotaUsed(stores.store.db, id, 'proxy', NOON)).toBe(5);
  });

  it('150 concurrent takes from several connections grant exactly 100', async () => {
    const { id } = await createApiKey(stores.store.db);
    // Separate stores: separate connections (SQLite) or pools (PostgreSQL), as separate processes would have.
    const others = await Promise.all([stores.tdb.open(), stores.tdb.open()]);
    try {
      const all = [stores.store, ...others];
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) => takeQuota(all[i % all.length]!.db, { keyId: id, kind: 'verify', limit: 100, now: NOON })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(100);
      expect(results.filter((r) => !r.ok)).toHaveLength(50);
      expect(await quotaUsed(stores.store.db, id, 'verify', NOON)).toBe(100);
      // Every granted take saw a distinct count: no two requests were handed the same slot.
      expect(new Set(results.filter((r) => r.ok).map((r) => r.used)).size).toBe(100);
    } finally {
      await Promise.all(others.map((s) => s.close()));
    }
  });
});
