import { PostgresAdapter, type Kysely } from 'kysely';

/** True when `db` talks to PostgreSQL (queries that need row locks differ there). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
