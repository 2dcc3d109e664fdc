import { afterAll, beforeAll, describe } from 'vitest';
import type { Store, StoreDialect } from '../../src/store/openStore.js';
import { available } from './requirements.js';
import { createTestDatabase, PG_TEST_URL, probePostgres, type TestDatabase } from './testDatabase.js';

/** Why PostgreSQL cannot be tested here, or null when it answers. */
const probed = await probePostgres();
export const POSTGRES_PROBLEM = available('postgres', probed && `PostgreSQL at ${PG_TEST_URL} is not reachable (${probed})`) ? null : probed;

/** `describe(`${title} on <dialect>`)` for SQLite and for PostgreSQL, which is skipped (with the warning above) when unreachable. */
export function describeOnDialects(title: string, body: (dialect: StoreDialect) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe.skipIf(dialect === 'postgres' && POSTGRES_PROBLEM !== null)(`${title} on ${dialect}`, () => body(dialect));
  }
}

/** A fresh database for the tests of one describe, with two stores on it (as two processes would have). */
export interface TestStores {
  readonly tdb: TestDatabase;
  readonly store: Store;
  /** A second store on the same database: another process's connections. */
  readonly other: Store;
}

/**
 * Creates a fresh database of `dialect` before the enclosing describe's tests and drops it
 * after them; the returned object's fields are set once the tests run.
 */
export function useTestStores(dialect: StoreDialect): TestStores {
  const stores = {} as { tdb: TestDatabase; store: Store; other: Store };
  beforeAll(async () => {
    stores.tdb = await createTestDatabase(dialect);
    stores.store = await stores.tdb.open();
    stores.other = await stores.tdb.open();
  });
  afterAll(async () => {
    await stores.other?.close();
    await stores.store?.close();
    await stores.tdb?.dispose();
  });
  return stores;
}
