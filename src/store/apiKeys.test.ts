import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { createTestDatabase } from '../../test/helpers/testDatabase.js';
import { countKeysCreatedSince, createApiKey, createApiKeyWithin, findApiKey, listApiKeys, revokeApiKey, touchApiKey } from './apiKeys.js';
import { SQLITE_FILE_NAME } from './openStore.js';

describeOnDialects('api keys', (dialect) => {
  const stores = useTestStores(dialect);

  it('hands out an Etherscan-shaped key once and finds it again by the key', async () => {
    const { id, key } = await createApiKey(stores.store.db, { owner: 'alice', tier: 'pro', now: 1_700_000_000_000 });
    expect(key).toMatch(/^[A-Z0-9]{34}$/);
    expect(id).toMatch(/^key_[a-z0-9]{16}$/);
    expect(await findApiKey(stores.store.db, key)).toEqual({
      id,
      keyPrefix: key.slice(0, 6),
      owner: 'alice',
      tier: 'pro',
      createdAt: 1_700_000_000_000,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await findApiKey(stores.store.db, key.toLowerCase())).toBeNull();
    expect(await findApiKey(stores.store.db, key.slice(0, -1))).toBeNull();
    expect(await findApiKey(stores.store.db, '')).toBeNull();
    expect(await findApiKey(stores.store.db, 'x'.repeat(100_000))).toBeNull();
  });

  it('defaults to the free tier and two keys never collide', async () => {
    const a = await createApiKey(stores.store.db);
    const b = await createApiKey(stores.store.db);
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
    expect(await findApiKey(stores.store.db, a.key)).toMatchObject({ tier: 'free', owner: null });
  });

  it('stores only the sha256 of the key, nowhere the key itself', async () => {
    const { id, key } = await createApiKey(stores.store.db, { owner: 'bob' });
    const rows = await sql<Record<string, unknown>>`select * from api_keys`.execute(stores.store.db.withoutPlugins());
    for (const row of rows.rows) expect(JSON.stringify(row)).not.toContain(key);
    const mine = rows.rows.find((r) => r.id === id)!;
    expect(mine.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(mine.key_prefix).toBe(key.slice(0, 6));
  });

  it('records use, lists keys and refuses revoked ones', async () => {
    const { id, key } = await createApiKey(stores.store.db, { owner: 'carol' });
    await touchApiKey(stores.store.db, id, 1_800_000_000_000);
    expect((await findApiKey(stores.store.db, key))?.lastUsedAt).toBe(1_800_000_000_000);

    expect(await revokeApiKey(stores.store.db, id, 1_800_000_000_500)).toBe(true);
    expect(await findApiKey(stores.store.db, key)).toBeNull();
    expect(await revokeApiKey(stores.store.db, id)).toBe(false);
    expect(await revokeApiKey(stores.store.db, 'key_nosuchkey')).toBe(false);

    const listed = await listApiKeys(stores.store.db);
    expect(listed.find((k) => k.id === id)).toMatchObject({ owner: 'carol', revokedAt: 1_800_000_000_500 });
    expect(listed.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(listed)).not.toMatch(/keyHash/);
  });

  it('a limited creation counts and inserts in one step: creations at once through two stores never pass the limit', async () => {
    const since = 1_900_000_000_000;
    const owners = ['self-service 192.0.2.1', 'self-service 192.0.2.2', 'self-service 2001:db8:0:1::/64'];
    // An older key of the first owner is not counted.
    await createApiKey(stores.store.db, { owner: owners[0], now: since - 1 });
    const attempts = owners.flatMap((owner) =>
      Array.from({ length: 6 }, (_, i) => createApiKeyWithin((i % 2 ? stores.other : stores.store).db, { owner, since, limit: 2, now: since + i })),
    );
    const outcomes = await Promise.all(attempts);
    for (const [n, owner] of owners.entries()) {
      const mine = outcomes.slice(n * 6, n * 6 + 6);
      expect(
        mine.filter((o) => o.created !== null),
        owner,
      ).toHaveLength(2);
      expect(mine.filter((o) => o.created === null).map((o) => o.made)).toEqual([2, 2, 2, 2]);
      expect((await listApiKeys(stores.store.db)).filter((k) => k.owner === owner && k.createdAt >= since)).toHaveLength(2);
      expect(await countKeysCreatedSince(stores.other.db, owner, since)).toBe(2);
    }
    const made = outcomes.find((o) => o.created !== null)!.created!;
    expect(await findApiKey(stores.other.db, made.key)).toMatchObject({ id: made.id, tier: 'free' });
  });
});

describe('api keys in the SQLite file', () => {
  it('leave no plaintext key in the database or its WAL', async () => {
    const tdb = await createTestDatabase('sqlite');
    try {
      const store = await tdb.open();
      const keys: string[] = [];
      for (let i = 0; i < 5; i++) keys.push((await createApiKey(store.db, { owner: 'dave' })).key);
      await store.close();
      const files = ['', '-wal', '-shm'].map((suffix) => path.join(tdb.dataDir, SQLITE_FILE_NAME + suffix)).filter((f) => existsSync(f));
      const bytes = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
      expect(bytes).toContain(createHash('sha256').update(keys[0]!).digest('hex'));
      for (const key of keys) expect(bytes).not.toContain(key);
    } finally {
      await tdb.dispose();
    }
  });
});
