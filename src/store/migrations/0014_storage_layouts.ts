import type { Kysely, Migration } from 'kysely';

/**
 * 0014: a compiled contract keeps solc's storage layouts (`storageLayout`, and from 0.8.27
 * `transientStorageLayout`) as JSON text. Contracts stored before have none (null): their
 * compilations are reused, never compiled again, and a layout is only served as solc gave it.
 */
export const m0014_storage_layouts: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('compiled_contracts').addColumn('storage_layout', 'text').execute();
    await db.schema.alterTable('compiled_contracts').addColumn('transient_storage_layout', 'text').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('compiled_contracts').dropColumn('transient_storage_layout').execute();
    await db.schema.alterTable('compiled_contracts').dropColumn('storage_layout').execute();
  },
};
