import { type Kysely, type Migration, sql } from 'kysely';

/**
 * 0008: the verified list searched by contract name (whatever its case) and filtered by
 * compiler or licence, newest first by keyset: each has an index that ends in the list's order,
 * so a page reads its rows and no more, however many contracts the store holds.
 */
export const m0008_list_search: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`create index verified_contracts_lower_name_idx on verified_contracts (lower(contract_name), verified_at, address)`.execute(db);
    await db.schema.createIndex('verified_contracts_compiler_idx').on('verified_contracts').columns(['compiler_version', 'verified_at', 'address']).execute();
    await db.schema.createIndex('verified_contracts_license_idx').on('verified_contracts').columns(['license_type', 'verified_at', 'address']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const name of ['verified_contracts_lower_name_idx', 'verified_contracts_compiler_idx', 'verified_contracts_license_idx']) {
      await db.schema.dropIndex(name).execute();
    }
  },
};
