/**
 * What a store holds and what it costs on disk: verified contracts, the distinct compilations,
 * contracts and sources they share, and the bytes the database takes (SQLite: its files, the
 * write-ahead log included; PostgreSQL: the database and each table with its indexes).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './openStore.js';
import { SQLITE_FILE_NAME } from './openStore.js';
import { countVerifiedContracts } from './verifiedContracts.js';

export interface StoreStats {
  dialect: StoreDialect;
  verifiedContracts: number;
  compilations: number;
  compiledContracts: number;
  sources: number;
  inputDocuments: number;
  deployments: number;
  /** SQLite: the database file, its WAL and shared-memory file; PostgreSQL: pg_database_size. */
  bytes: number;
  /** Per file (SQLite) or per table with its indexes and TOAST (PostgreSQL), largest first. */
  parts: { name: string; bytes: number }[];
}

async function countRows(db: Kysely<Database>, table: 'compilations' | 'compiledContracts' | 'sources' | 'inputDocuments' | 'deployments'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The figures of a store; `dataDir` locates the SQLite files. */
export async function storeStats(db: Kysely<Database>, dialect: StoreDialect, dataDir: string): Promise<StoreStats> {
  const [verifiedContracts, compilations, compiledContracts, sources, inputDocuments, deployments] = await Promise.all([
    countVerifiedContracts(db),
    countRows(db, 'compilations'),
    countRows(db, 'compiledContracts'),
    countRows(db, 'sources'),
    countRows(db, 'inputDocuments'),
    countRows(db, 'deployments'),
  ]);
  let parts: { name: string; bytes: number }[];
  let bytes: number;
  if (dialect === 'sqlite') {
    const base = path.join(dataDir, SQLITE_FILE_NAME);
    parts = [base, `${base}-wal`, `${base}-shm`].map((f) => ({ name: path.basename(f), bytes: fileSize(f) })).filter((p) => p.bytes > 0);
    bytes = parts.reduce((sum, p) => sum + p.bytes, 0);
  } else {
    const total = await sql<{ bytes: string | number }>`select pg_database_size(current_database()) as bytes`.execute(db);
    bytes = Number(total.rows[0]?.bytes ?? 0);
    const tables = await sql<{ name: string; bytes: string | number }>`
      select c.relname as name, pg_total_relation_size(c.oid) as bytes
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname = current_schema()`.execute(db);
    parts = tables.rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) }));
  }
  parts.sort((a, b) => b.bytes - a.bytes);
  return { dialect, verifiedContracts, compilations, compiledContracts, sources, inputDocuments, deployments, bytes, parts };
}
