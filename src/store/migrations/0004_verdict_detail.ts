import type { Kysely, Migration } from 'kysely';

/**
 * Verdict details that were missing: whether the creation code was compared at all (null for
 * records written before this was known), whether the constructor arguments were proven by
 * a creation match (records without one had only the submitter's word), the history of
 * records replaced by a better match, and an index to count a key's unfinished jobs.
 */
export const m0004_verdict_detail: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('verified_contracts').addColumn('creation_compared', 'integer').execute();
    await db.schema
      .alterTable('verified_contracts')
      .addColumn('constructor_arguments_known', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.updateTable('verified_contracts').set({ constructor_arguments_known: 0 }).where('creation_match', 'is', null).execute();
    await db.schema
      .createTable('verification_history')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('replaced_at', 'bigint', (c) => c.notNull())
      .addColumn('replaced_by', 'text')
      .addColumn('record', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('verification_history_address_idx').on('verification_history').columns(['address', 'replaced_at']).execute();
    // Fair shares: a key's queued and running jobs are counted on every submission and claim.
    await db.schema.createIndex('verification_jobs_key_state_idx').on('verification_jobs').columns(['api_key_id', 'state']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('verification_jobs_key_state_idx').execute();
    await db.schema.dropTable('verification_history').execute();
    await db.schema.alterTable('verified_contracts').dropColumn('constructor_arguments_known').execute();
    await db.schema.alterTable('verified_contracts').dropColumn('creation_compared').execute();
  },
};
