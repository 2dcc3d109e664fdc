import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * 0013: on PostgreSQL, a job put in the queue is announced on `solproof_changes` (payload
 * `<schema>.jobs`, with 0012's function), so workers in other processes claim it at once
 * instead of at their next poll.
 */
export const m0013_job_notifications: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create trigger verification_jobs_notify_queued after insert on verification_jobs for each statement execute function solproof_notify_change('jobs')`.execute(
      db,
    );
  },

  async down(db: Kysely<any>): Promise<void> {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop trigger if exists verification_jobs_notify_queued on verification_jobs`.execute(db);
  },
};
