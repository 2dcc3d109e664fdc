import { type Kysely, type Migration, sql } from 'kysely';

/** Daily quotas: how many submissions of each kind a key made on each UTC day. */
export const m0003_quotas: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    // One row per key, kind and UTC day; the submit path bumps `count` with one conditional upsert.
    await db.schema
      .createTable('daily_quotas')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('verify', 'proxy')`))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('daily_quotas_pk', ['api_key_id', 'kind', 'day'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('daily_quotas').execute();
  },
};
