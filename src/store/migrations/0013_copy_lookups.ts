import type { Kysely, Migration } from 'kysely';

/**
 * 0013: a record taken off repoints the copies matched through it. They are found by the
 * address they name (similar_to), and the contract they name instead is the oldest submitted
 * record of the same compiled contract: both by index, however many copies share that code.
 */
export const m0013_copy_lookups: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.createIndex('verified_contracts_similar_to_idx').on('verified_contracts').column('similar_to').execute();
    await db.schema
      .createIndex('verified_contracts_compiled_method_idx')
      .on('verified_contracts')
      .columns(['compiled_contract_id', 'method', 'verified_at'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('verified_contracts_compiled_method_idx').execute();
    await db.schema.dropIndex('verified_contracts_similar_to_idx').execute();
  },
};
