import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CamelCasePlugin, Kysely, type MigrationResult, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';
import { ChangeVersions, postgresChanges, type StoreChanges, sqliteChanges } from './storeChanges.js';
import { beginImmediate } from './transactions.js';

export type StoreDialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: StoreDialect;
  /** Versions that move on every committed change readers watch (answers and keys kept in memory). */
  changes: StoreChanges;
  /** Closes the connection (SQLite) or the pool (PostgreSQL). */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Where the SQLite file lives (`<dataDir>/solproof.sqlite`); created when missing. */
  dataDir: string;
  /**
   * A `postgres://` or `postgresql://` URL selects PostgreSQL. libpq-style query options
   * pass through, e.g. `?options=-c%20search_path%3Dmyschema`.
   */
  databaseUrl?: string | undefined;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** Migrate to the latest schema while opening (default true). */
  migrate?: boolean;
  /** SQLite: how long a writer waits for another process's lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /** Receives PostgreSQL pool errors (an idle connection dropped by the server). */
  logger?: Logger | undefined;
}

export const SQLITE_FILE_NAME = 'solproof.sqlite';

/**
 * Opens the service's database and, unless told otherwise, migrates it to the latest
 * schema. Safe when several processes open the same database at once: PostgreSQL
 * migrations run under Kysely's advisory lock, SQLite ones inside `BEGIN IMMEDIATE`.
 * Throws SolproofError `store_error` when the database cannot be opened or migrated.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const url = options.databaseUrl?.trim();
  const store = url ? openPostgres(url, options) : openSqlite(options);
  if (options.migrate ?? true) {
    try {
      await migrateToLatest(store);
    } catch (error) {
      await store.close().catch(() => {});
      throw error;
    }
  }
  return store;
}

function openSqlite(options: OpenStoreOptions): Store {
  let handle: SqliteDatabase.Database;
  try {
    mkdirSync(options.dataDir, { recursive: true });
    handle = new SqliteDatabase(path.join(options.dataDir, SQLITE_FILE_NAME));
    handle.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    handle.pragma('journal_mode = WAL');
    // FULL: a job is durable once insertJob returns, even across a power cut.
    handle.pragma('synchronous = FULL');
  } catch (cause) {
    throw new SolproofError('store_error', { problem: 'cannot_open_sqlite', dataDir: options.dataDir }, { cause });
  }
  const versions = new ChangeVersions();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: handle }),
    plugins: [new CamelCasePlugin(), versions],
  });
  return { db, dialect: 'sqlite', changes: sqliteChanges(versions, handle), close: () => db.destroy() };
}

// int8 (counts, epoch ms, block numbers) as JS numbers, the same as better-sqlite3 gives;
// every value the service keeps there is far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

function openPostgres(url: string, options: OpenStoreOptions): Store {
  const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
  if (scheme !== 'postgres:' && scheme !== 'postgresql:') {
    // The URL may carry a password: name only its scheme.
    throw new SolproofError('store_error', { problem: 'unsupported_url_scheme', scheme });
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
  });
  // An idle client losing its server emits on the pool; unhandled, that would end the process.
  pool.on('error', (err) => options.logger?.warn({ err }, 'PostgreSQL idle connection error'));
  // A client checked out between two queries (a transaction's, a claim's) has no listener of
  // the pool's: its connection dropping (the server restarted, a network cut) would end the
  // process. The query in flight, if any, fails on its own; the pool then replaces the client.
  pool.on('connect', (client) => client.on('error', (err) => options.logger?.warn({ err: err.message }, 'PostgreSQL connection lost')));
  const versions = new ChangeVersions();
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin(), versions],
  });
  const changes = postgresChanges(versions, url, pool, options.logger);
  return {
    db,
    dialect: 'postgres',
    changes,
    close: async () => {
      await changes.close();
      await db.destroy();
    },
  };
}

/**
 * Applies every pending migration (or those up to `options.upTo`, a migration's name) and
 * returns the names applied. Used by openStore and by the `migrate` command. Throws
 * SolproofError `store_error` on failure.
 */
export async function migrateToLatest(store: Pick<Store, 'db' | 'dialect'>, options: { upTo?: string } = {}): Promise<string[]> {
  const run = (migrator: Migrator) => (options.upTo === undefined ? migrator.migrateToLatest() : migrator.migrateTo(options.upTo));
  // Migrations use literal snake_case names; the camelCase plugin must not touch them.
  // biome-ignore lint/suspicious/noExplicitAny: the raw database without the typed schema, as Kysely's own docs do
  const db = store.db.withoutPlugins() as unknown as Kysely<any>;
  try {
    if (store.dialect === 'postgres') {
      // Kysely looks for its bookkeeping tables in every schema; pin them to ours so two
      // schemas in one database never see each other's migration history.
      const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
      const schema = rows[0]?.schema;
      if (!schema) throw new Error('No current schema: check search_path');
      const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schema });
      // Kysely's check for its table reads every schema's tables: a schema another client drops
      // meanwhile fails that read ("schema does not exist", 3F000). Nothing was applied: try again.
      for (let attempt = 1; ; attempt++) {
        const outcome = await run(migrator);
        const code = (outcome.error as { code?: unknown } | undefined)?.code;
        if (code === '3F000' && attempt < 5 && !outcome.results?.some((r) => r.status === 'Success')) {
          await new Promise((r) => setTimeout(r, 100 * attempt));
          continue;
        }
        return appliedNames(outcome);
      }
    }
    // Kysely runs SQLite migrations outside a transaction and without a lock; one
    // IMMEDIATE transaction makes them atomic and serialises processes on the write lock.
    // The SQLite dialect has a single connection, so every statement below joins it.
    await beginImmediate(db);
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const applied = appliedNames(await run(migrator));
      await sql`commit`.execute(db);
      return applied;
    } catch (error) {
      await sql`rollback`.execute(db).catch(() => {});
      throw error;
    }
  } catch (cause) {
    if (cause instanceof SolproofError) throw cause;
    throw new SolproofError('store_error', { problem: 'migration_failed' }, { cause });
  }
}

function appliedNames(outcome: { error?: unknown; results?: MigrationResult[] }): string[] {
  if (outcome.error !== undefined) {
    const failed = outcome.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new SolproofError('store_error', { problem: 'migration_failed', ...(failed ? { migration: failed } : {}) }, { cause: outcome.error });
  }
  return (outcome.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
