import type { Kysely, Migration } from 'kysely';

/** Proxy links found by verifyproxycontract, for verified and unverified proxies alike. */
export const m0002_proxies: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('proxy_records')
      .addColumn('address', 'text', (c) => c.primaryKey())
      .addColumn('implementation', 'text', (c) => c.notNull())
      .addColumn('final_implementation', 'text', (c) => c.notNull())
      .addColumn('pattern', 'text', (c) => c.notNull())
      .addColumn('detection', 'text', (c) => c.notNull())
      .addColumn('block_number', 'bigint', (c) => c.notNull())
      .addColumn('checked_at', 'bigint', (c) => c.notNull())
      .addColumn('receipt', 'text')
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('proxy_records').execute();
  },
};
