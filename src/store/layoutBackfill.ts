/**
 * The compiled contracts stored before layouts were kept (their `storage_layout` is null), read
 * a compilation at a time for the backfill, and the layouts written to them.
 */
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export interface CompilationMissingLayouts {
  id: string;
  compilerVersion: string;
  language: string;
  /** The settings compiled, without outputSelection. */
  settings: Record<string, unknown>;
  /** Its compiled contracts with no layout: what the stored runtime code is keyed by, to check a new compile against. */
  contracts: { id: string; path: string; name: string; runtimeCodeHash: string | null }[];
}

/** Up to `limit` compilations, after `after` in id order, with a compiled contract that has no storage layout. */
export async function compilationsMissingLayouts(db: Kysely<Database>, after: string | null, limit: number): Promise<CompilationMissingLayouts[]> {
  let ids = db.selectFrom('compiledContracts').select('compilationId').distinct().where('storageLayout', 'is', null);
  if (after !== null) ids = ids.where('compilationId', '>', after);
  const page = await ids.orderBy('compilationId').limit(limit).execute();
  if (page.length === 0) return [];
  const wanted = page.map((r) => r.compilationId);
  const compilations = await db.selectFrom('compilations').select(['id', 'compilerVersion', 'language', 'settings']).where('id', 'in', wanted).execute();
  const contracts = await db
    .selectFrom('compiledContracts')
    .select(['id', 'compilationId', 'path', 'name', 'runtimeCodeHash'])
    .where('compilationId', 'in', wanted)
    .where('storageLayout', 'is', null)
    .execute();
  return compilations
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => ({
      id: c.id,
      compilerVersion: c.compilerVersion,
      language: c.language,
      settings: JSON.parse(c.settings) as Record<string, unknown>,
      contracts: contracts.filter((k) => k.compilationId === c.id).map(({ compilationId: _c, ...k }) => k),
    }));
}

/** Writes a compiled contract's layouts, where it still has none. */
export async function setCompiledContractLayouts(
  db: Kysely<Database>,
  id: string,
  storageLayout: string,
  transientStorageLayout: string | null,
): Promise<void> {
  await db.updateTable('compiledContracts').set({ storageLayout, transientStorageLayout }).where('id', '=', id).where('storageLayout', 'is', null).execute();
}
