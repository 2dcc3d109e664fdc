import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import { isPostgres } from './dialect.js';
import { ChangeVersions } from './storeChanges.js';

/**
 * BEGIN IMMEDIATE, waiting for the write lock without blocking the event loop:
 * better-sqlite3's busy handler sleeps synchronously, which would also stall whoever
 * holds the lock when that is another connection in this process.
 */
// biome-ignore lint/suspicious/noExplicitAny: the raw database without the typed schema, as Kysely's own docs do
export async function beginImmediate(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
  const busyTimeoutMs = Number(rows[0]?.timeout ?? 0);
  await sql`pragma busy_timeout = 0`.execute(db);
  try {
    const deadline = Date.now() + Math.max(busyTimeoutMs, 1000);
    for (;;) {
      try {
        await sql`begin immediate`.execute(db);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${busyTimeoutMs}`).execute(db);
  }
}

/**
 * Runs `fn` in a transaction that holds the write lock from its first statement: on
 * PostgreSQL an ordinary transaction (rows are locked as they are read FOR UPDATE); on SQLite
 * `BEGIN IMMEDIATE` on the one connection, reserved for `fn` so no other query of this
 * process joins the transaction. Commits when `fn` resolves, rolls back when it throws.
 */
export async function writeTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  // Answers kept in memory while the transaction ran were read before its commit: the versions
  // of what it changed move once more now that it is committed (storeChanges.ts).
  const versions = db.getExecutor().plugins.find((p): p is ChangeVersions => p instanceof ChangeVersions);
  const before = versions?.snapshot();
  try {
    return await runWriteTransaction(db, fn);
  } finally {
    if (versions && before) versions.afterCommit(before);
  }
}

async function runWriteTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    // biome-ignore lint/suspicious/noExplicitAny: the raw database without the typed schema, as Kysely's own docs do
    await beginImmediate(conn as unknown as Kysely<any>);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}
