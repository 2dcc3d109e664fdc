import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { describeOnDialects } from '../../test/helpers/dialects.js';
import { sourceJob } from '../../test/helpers/jobs.js';
import { createTestDatabase, sampleVerifiedContract, saveSampleDocuments, type TestDatabase } from '../../test/helpers/testDatabase.js';
import { isSolproofError } from '../core/errors.js';
import { createApiKey, findApiKey } from './apiKeys.js';
import { migrations } from './migrations/index.js';
import { migrateToLatest, openStore, SQLITE_FILE_NAME, type Store } from './openStore.js';
import { getJob, insertJob } from './verificationJobs.js';
import { getVerifiedContract, insertVerifiedContract } from './verifiedContracts.js';

/** Every table the migrations create (a new migration adds its table here). */
const EXPECTED_TABLES = [
  'api_keys',
  'verification_jobs',
  'verified_contracts',
  'proxy_records',
  'daily_quotas',
  'verification_history',
  'code',
  'sources',
  'compilations',
  'compilation_sources',
  'compiled_contracts',
  'input_documents',
  'deployments',
  'builds',
  'chain_state',
  'followed_blocks',
  'proxy_history',
  'counters',
];

describeOnDialects('openStore', (dialect) => {
  const opened: Store[] = [];
  const databases: TestDatabase[] = [];
  async function fresh(): Promise<TestDatabase> {
    const tdb = await createTestDatabase(dialect);
    databases.push(tdb);
    return tdb;
  }
  async function open(tdb: TestDatabase): Promise<Store> {
    const store = await tdb.open();
    opened.push(store);
    return store;
  }
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    for (const d of databases.splice(0)) await d.dispose();
  });

  it('creates the tables and migrating again changes nothing', async () => {
    const tdb = await fresh();
    const store = await open(tdb);
    expect(store.dialect).toBe(dialect);
    const tables = (await store.db.introspection.getTables())
      .filter((t) => dialect === 'sqlite' || t.schema === tdb.schema)
      .map((t) => t.name)
      .sort();
    expect(tables).toEqual([...EXPECTED_TABLES].sort());

    expect(await migrateToLatest(store)).toEqual([]);
    const again = await open(tdb);
    expect(await migrateToLatest(again)).toEqual([]);
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
  });

  it('lets two stores open and migrate a new database at the same time', async () => {
    const tdb = await fresh();
    const [a, b] = await Promise.all([open(tdb), open(tdb)]);
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(a.db);
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
    await insertJob(b.db, { request: sourceJob('0x00000000000000000000000000000000000000aa') });
  });

  it('keeps what was written after the store is closed and opened again', async () => {
    const tdb = await fresh();
    const first = await tdb.open();
    const request = sourceJob('0x00000000000000000000000000000000000000bb', { contractName: 'Box', runs: 200 });
    const job = await insertJob(first.db, { request });
    const { key } = await createApiKey(first.db, { owner: 'alice' });
    await saveSampleDocuments(first.db);
    expect(await insertVerifiedContract(first.db, sampleVerifiedContract('0x00000000000000000000000000000000000000cc'))).toBe('inserted');
    await first.close();

    const second = await open(tdb);
    expect(await getJob(second.db, job.receipt)).toMatchObject({
      state: 'queued',
      address: '0x00000000000000000000000000000000000000bb',
      request,
    });
    expect(await findApiKey(second.db, key)).toMatchObject({ owner: 'alice' });
    expect(await getVerifiedContract(second.db, '0x00000000000000000000000000000000000000CC')).toMatchObject({
      contractName: 'Box',
    });
  });
});

describe('openStore settings', () => {
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const d of databases.splice(0)) await d.dispose();
  });

  it('puts SQLite in <dataDir>/solproof.sqlite in WAL mode', async () => {
    const tdb = await createTestDatabase('sqlite');
    databases.push(tdb);
    const store = await tdb.open();
    try {
      expect(existsSync(path.join(tdb.dataDir, SQLITE_FILE_NAME))).toBe(true);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db.withoutPlugins());
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      // Migrating waits for the lock without the busy handler; the setting must come back.
      const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(store.db.withoutPlugins());
      expect(busy.rows[0]?.timeout).toBe(5000);
    } finally {
      await store.close();
    }
  });

  it('refuses a database URL that is neither SQLite nor PostgreSQL, without echoing it', async () => {
    const err = await openStore({ dataDir: '/nonexistent', databaseUrl: 'mysql://root:secret@localhost/db' }).catch((e: unknown) => e);
    expect(isSolproofError(err, 'store_error')).toBe(true);
    expect((err as Error).message).not.toContain('secret');
  });

  it('reports an unreachable PostgreSQL as store_error', async () => {
    const err = await openStore({ dataDir: '/nonexistent', databaseUrl: 'postgres://postgres@127.0.0.1:1/test' }).catch((e: unknown) => e);
    expect(isSolproofError(err, 'store_error')).toBe(true);
  });
});
