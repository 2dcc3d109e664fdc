import type { Kysely, Migration } from 'kysely';

/** The content hash a code's tail auxdata pins, as 0009 reads it (solc's four map shapes that carry one). */
function metadataHash0009(code: string): string | null {
  const hex = code.replace(/^0x/, '').toLowerCase();
  if (hex.length < 6) return null;
  const length = parseInt(hex.slice(-4), 16) + 2;
  if (!Number.isFinite(length) || length * 2 > hex.length) return null;
  const tail = hex.slice(hex.length - length * 2);
  for (const [start, bytes] of [
    ['a264697066735822', 34],
    ['a165627a7a72305820', 32],
    ['a265627a7a72305820', 32],
    ['a265627a7a72315820', 32],
  ] as const) {
    if (tail.startsWith(start)) return tail.slice(start.length, start.length + bytes * 2);
  }
  return null;
}

/**
 * 0009: compiled contracts are found by the metadata hash of their runtime code (an index), so
 * a deployed code's own compilation is tried first, however many compilations share its
 * fingerprint. Existing contracts are filled in from their stored code.
 */
export const m0009_metadata_hash_lookup: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('compiled_contracts').addColumn('runtime_metadata_hash', 'text').execute();
    let after = '';
    for (;;) {
      const rows = (await db
        .selectFrom('compiled_contracts as cc')
        .innerJoin('code as c', 'c.code_hash', 'cc.runtime_code_hash')
        .select(['cc.id as id', 'c.code as code'])
        .where('cc.id', '>', after)
        .orderBy('cc.id')
        .limit(500)
        .execute()) as { id: string; code: string }[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      for (const row of rows) {
        const hash = metadataHash0009(row.code);
        if (hash !== null) await db.updateTable('compiled_contracts').set({ runtime_metadata_hash: hash }).where('id', '=', row.id).execute();
      }
    }
    await db.schema.createIndex('compiled_contracts_metadata_hash_idx').on('compiled_contracts').column('runtime_metadata_hash').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('compiled_contracts_metadata_hash_idx').execute();
    await db.schema.alterTable('compiled_contracts').dropColumn('runtime_metadata_hash').execute();
  },
};
