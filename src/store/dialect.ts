import { type Kysely, PostgresAdapter } from 'kysely';

/** True when `db` talks to PostgreSQL (queries that need row locks differ there). */
// biome-ignore lint/suspicious/noExplicitAny: the raw database without the typed schema, as Kysely's own docs do
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
