import type { Kysely, Migration } from 'kysely';

/**
 * The proxy columns of verified_contracts were never read: proxy links live in proxy_records
 * (a proxy need not be verified to be linked).
 */
export const m0005_drop_unused_proxy_columns: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    for (const column of ['proxy_implementation', 'proxy_info', 'proxy_checked_at', 'proxy_block']) {
      await db.schema.alterTable('verified_contracts').dropColumn(column).execute();
    }
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('verified_contracts').addColumn('proxy_implementation', 'text').execute();
    await db.schema.alterTable('verified_contracts').addColumn('proxy_info', 'text').execute();
    await db.schema.alterTable('verified_contracts').addColumn('proxy_checked_at', 'bigint').execute();
    await db.schema.alterTable('verified_contracts').addColumn('proxy_block', 'bigint').execute();
  },
};
