import { type Kysely, type Migration, sql } from 'kysely';

/**
 * 0010: dry runs and diagnoses get daily quotas of their own, counted in daily_quotas beside
 * verifications and proxy verifications. The kind's check is part of the table on SQLite, so
 * the table is built again with the two new kinds and its rows copied.
 */
export const m0010_dry_run_and_diagnosis_quotas: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('daily_quotas_0010')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('verify', 'proxy', 'dry_run', 'diagnosis')`))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('daily_quotas_0010_pk', ['api_key_id', 'kind', 'day'])
      .execute();
    await sql`insert into daily_quotas_0010 (api_key_id, kind, day, count) select api_key_id, kind, day, count from daily_quotas`.execute(db);
    await db.schema.dropTable('daily_quotas').execute();
    await db.schema.alterTable('daily_quotas_0010').renameTo('daily_quotas').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.deleteFrom('daily_quotas').where('kind', 'in', ['dry_run', 'diagnosis']).execute();
  },
};
