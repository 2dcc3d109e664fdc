import type { Kysely, Migration } from 'kysely';

/**
 * 0015: the implementations proxies had. The chain follower records each `Upgraded(address)` and
 * `BeaconUpgraded(address)` log of the blocks it reads: the contract that emitted it (a proxy, or
 * a beacon), the implementation or beacon it names, and where (block, transaction, log index).
 * A block read again writes nothing twice (its block and log index are the key); the rows of
 * blocks a rollback removed are taken off by block.
 */
export const m0015_proxy_history: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('proxy_history')
      .addColumn('block_number', 'bigint', (c) => c.notNull())
      .addColumn('log_index', 'integer', (c) => c.notNull())
      .addColumn('proxy', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('transaction_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('proxy_history_pk', ['block_number', 'log_index'])
      .execute();
    await db.schema.createIndex('proxy_history_proxy_idx').on('proxy_history').columns(['proxy', 'block_number', 'log_index']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('proxy_history_proxy_idx').execute();
    await db.schema.dropTable('proxy_history').execute();
  },
};
