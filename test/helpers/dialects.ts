import { describe } from 'vitest';
import type { StoreDialect } from '../../src/store/openStore.js';
import { available } from './requirements.js';
import { PG_TEST_URL, probePostgres } from './testDatabase.js';

/** Why PostgreSQL cannot be tested here, or null when it answers. */
const probed = await probePostgres();
export const POSTGRES_PROBLEM = available('postgres', probed && `PostgreSQL at ${PG_TEST_URL} is not reachable (${probed})`) ? null : probed;

/** `describe(`${title} on <dialect>`)` for SQLite and for PostgreSQL, which is skipped (with the warning above) when unreachable. */
export function describeOnDialects(title: string, body: (dialect: StoreDialect) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe.skipIf(dialect === 'postgres' && POSTGRES_PROBLEM !== null)(`${title} on ${dialect}`, () => body(dialect));
  }
}
