import type { Kysely, Migration } from 'kysely';

/**
 * Creation facts served by getcontractcreation: the creation block's time. `creator` means the
 * account that sent the creation transaction; records of factory-made contracts written by a
 * verification held the factory there, so those are cleared (found again when first asked).
 */
export const m0007_deployment_creation_facts: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('deployments').addColumn('block_timestamp', 'bigint').execute();
    await db.updateTable('deployments').set({ creator: null }).where('factory', 'is not', null).whereRef('creator', '=', 'factory').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('deployments').dropColumn('block_timestamp').execute();
  },
};
