import type { Kysely, Migration } from 'kysely';

/**
 * 0011: a rollback is followed from its common ancestor, not from genesis. The follower keeps
 * the hash of each block it handled lately, and the deployments of the blocks a rollback
 * removed are found by block within their generation.
 */
export const m0011_rollbacks: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('followed_blocks')
      .addColumn('number', 'bigint', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deployments_generation_block_idx').on('deployments').columns(['generation', 'block_number']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('deployments_generation_block_idx').execute();
    await db.schema.dropTable('followed_blocks').execute();
  },
};
