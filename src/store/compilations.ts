/**
 * Compilations in the bytecode database: source files stored once by content hash, each
 * compilation once by compiler version and input, each of its contracts once with what
 * matching needs (code by hash, link and immutable references, auxdata and where it sits,
 * the runtime fingerprint that finds copies).
 */

import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { canonicalJson } from '../core/canonicalJson.js';
import { withoutV } from '../core/compilerVersion.js';
import { keccakOfText } from '../core/keccak.js';
import { parseStorageLayout, type StorageLayouts } from '../core/storageLayout.js';
import type { VyperInput } from '../core/types.js';
import { type CompiledAuxdata, type CompiledContract, codeFingerprint, metadataHashOf, type SolcInput } from '../verify/index.js';
import type { Database } from './database.js';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** keccak256 of a source file's content, as solc's metadata names it. */
export function sourceHash(content: string): string {
  return keccakOfText(content);
}

/** keccak256 of a code's hex text (compiled code may hold link placeholders, so the text is hashed as it is). */
export function codeKey(code: string): string {
  return keccakOfText(code);
}

/** What identifies a compilation: the compiler and the input without its outputSelection. */
export interface CompilationIdentity {
  id: string;
  /** Long version without `v`. */
  compilerVersion: string;
  language: string;
  /** Source path to content hash. */
  sourceHashes: Record<string, string>;
  /** The settings compiled, without outputSelection. */
  settings: Record<string, unknown>;
}

/** A compiler input of either family: solc's standard JSON or Vyper's. */
export type CompilerInput = SolcInput | VyperInput;

/**
 * The id of compiling `input` with `compilerVersion`: sha256 of the version and the canonical
 * JSON of language, sources by hash and settings less outputSelection (which cannot change
 * the code). Migration 0006 computes the same id for the records it moves. A Vyper input's
 * interfaces and storage layout overrides change its code too: they are part of its id (a
 * text by its hash, an ABI as it is).
 */
export function compilationIdentity(compilerVersion: string, input: CompilerInput): CompilationIdentity {
  const version = withoutV(compilerVersion.trim());
  const { outputSelection: _outputSelection, ...settings } = (input.settings ?? {}) as Record<string, unknown>;
  const sourceHashes: Record<string, string> = {};
  for (const [path, source] of Object.entries(input.sources)) sourceHashes[path] = sourceHash(source.content ?? '');
  const language = input.language ?? 'Solidity';
  const extra: Record<string, unknown> = {};
  if (language === 'Vyper') {
    const vyper = input as VyperInput;
    if (vyper.interfaces && Object.keys(vyper.interfaces).length > 0) {
      extra['interfaces'] = Object.fromEntries(
        Object.entries(vyper.interfaces).map(([path, item]) => [path, textOf(item) !== null ? sourceHash(textOf(item)!) : item]),
      );
    }
    if (vyper.storage_layout_overrides !== undefined) extra['storage_layout_overrides'] = vyper.storage_layout_overrides;
  }
  const id = sha256Hex(`${version}\n${canonicalJson({ language, sources: sourceHashes, settings, ...extra })}`);
  return { id, compilerVersion: version, language, sourceHashes, settings };
}

/** A Vyper interface given as text: its text; null for an ABI or a manifest. */
function textOf(item: unknown): string | null {
  const content = (item as { content?: unknown } | null)?.content;
  return !Array.isArray(item) && typeof content === 'string' ? content : null;
}

/** The source files of an input: its sources, and a Vyper input's interface files given as text. */
function inputFiles(input: CompilerInput): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, source] of Object.entries(input.sources)) files[path] = source.content ?? '';
  if (input.language === 'Vyper') {
    for (const [path, item] of Object.entries((input as VyperInput).interfaces ?? {})) {
      const text = textOf(item);
      if (!Object.hasOwn(files, path) && text !== null) files[path] = text;
    }
  }
  return files;
}

/** The id of one contract of a compilation. */
export function compiledContractId(compilationId: string, path: string, name: string): string {
  return sha256Hex(`${compilationId}\n${path}\n${name}`);
}

/** Stores source contents once each (by hash). */
export async function saveSources(db: Kysely<Database>, contents: Iterable<string>): Promise<void> {
  const rows = new Map<string, string>();
  for (const content of contents) rows.set(sourceHash(content), content);
  // In key order: two transactions writing shared sources take their row locks in one order (PostgreSQL), so neither waits on the other in turn.
  const values = [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([hash, content]) => ({ sourceHash: hash, content }));
  for (let i = 0; i < values.length; i += ROWS_PER_STATEMENT) {
    await db
      .insertInto('sources')
      .values(values.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((oc) => oc.column('sourceHash').doNothing())
      .execute();
  }
}

/** Rows a multi-row insert: three parameters each, far below either database's limit. */
const ROWS_PER_STATEMENT = 200;

async function saveCode(db: Kysely<Database>, code: string): Promise<string | null> {
  if (code === '') return null;
  const hash = codeKey(code);
  await db
    .insertInto('code')
    .values({ codeHash: hash, code })
    .onConflict((oc) => oc.column('codeHash').doNothing())
    .execute();
  return hash;
}

export interface CompiledUnit {
  path: string;
  name: string;
  compiled: CompiledContract;
}

/**
 * Stores a compilation and the given contracts of it (idempotent: what is stored stays, a
 * contract moved from before the bytecode database gains its code, and auxdata positions
 * found later are added). Returns the compilation's id and each contract's id, in order.
 */
export async function saveCompilation(
  db: Kysely<Database>,
  compilerVersion: string,
  input: CompilerInput,
  units: readonly CompiledUnit[],
): Promise<{ compilationId: string; contractIds: string[] }> {
  const identity = compilationIdentity(compilerVersion, input);
  const files = inputFiles(input);
  await saveSources(db, Object.values(files));
  await db
    .insertInto('compilations')
    .values({
      id: identity.id,
      compilerVersion: identity.compilerVersion,
      language: identity.language,
      settings: JSON.stringify(identity.settings),
      createdAt: Date.now(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  // Many rows a statement: an input of thousands of files holds the store's one connection for
  // a few statements, not thousands (reads wait for it on SQLite).
  const links = Object.entries(files)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, content]) => ({ compilationId: identity.id, path, sourceHash: sourceHash(content) }));
  for (let i = 0; i < links.length; i += ROWS_PER_STATEMENT) {
    await db
      .insertInto('compilationSources')
      .values(links.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((oc) => oc.columns(['compilationId', 'path']).doNothing())
      .execute();
  }
  const contractIds: string[] = [];
  for (const unit of units) contractIds.push(await saveCompiledContract(db, identity.id, unit));
  return { compilationId: identity.id, contractIds };
}

async function saveCompiledContract(db: Kysely<Database>, compilationId: string, unit: CompiledUnit): Promise<string> {
  const { compiled } = unit;
  const id = compiledContractId(compilationId, unit.path, unit.name);
  const row = {
    id,
    compilationId,
    path: unit.path,
    name: unit.name,
    abi: JSON.stringify(compiled.abi),
    metadata: compiled.metadata,
    creationCodeHash: await saveCode(db, compiled.creation.code),
    runtimeCodeHash: await saveCode(db, compiled.runtime.code),
    creationLinkReferences: JSON.stringify(compiled.creation.linkReferences),
    runtimeLinkReferences: JSON.stringify(compiled.runtime.linkReferences),
    immutableReferences: JSON.stringify(compiled.runtime.immutableReferences),
    creationAuxdata: JSON.stringify(compiled.creation.auxdata),
    runtimeAuxdata: JSON.stringify(compiled.runtime.auxdata),
    runtimeFingerprint: compiled.runtime.code === '' ? null : codeFingerprint(compiled.runtime.code),
    runtimeMetadataHash: metadataHashOf(compiled.runtime.code),
    storageLayout: layoutText(compiled.storageLayout),
    transientStorageLayout: layoutText(compiled.transientStorageLayout),
  };
  const existing = await db
    .selectFrom('compiledContracts')
    .select(['runtimeCodeHash', 'creationAuxdata', 'runtimeAuxdata', 'storageLayout'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!existing) {
    await db
      .insertInto('compiledContracts')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  } else {
    // A record moved from before the bytecode database has no code yet; positions found later
    // are kept, and so are layouts a compile gave a contract stored before they were kept. A
    // compiled contract read from the store (its layouts not read) never takes stored ones away.
    const { id: _id, compilationId: _c, path: _p, name: _n, abi: _a, metadata: _m, storageLayout, transientStorageLayout, ...rest } = row;
    const gainsCode =
      existing.runtimeCodeHash === null ||
      gainsPositions(existing.creationAuxdata, compiled.creation.auxdata) ||
      gainsPositions(existing.runtimeAuxdata, compiled.runtime.auxdata);
    const gainsLayouts = existing.storageLayout === null && storageLayout !== null;
    if (gainsCode || gainsLayouts) {
      await db
        .updateTable('compiledContracts')
        .set({ ...(gainsCode ? rest : {}), ...(gainsLayouts ? { storageLayout, transientStorageLayout } : {}) })
        .where('id', '=', id)
        .execute();
    }
  }
  return id;
}

/** A layout as stored: solc's JSON text, null when there is none (or it was not read). */
function layoutText(layout: CompiledContract['storageLayout']): string | null {
  return layout ? JSON.stringify(layout) : null;
}

/**
 * The storage layouts kept with a compiled contract, each null when there is none; null when
 * there is no such compiled contract. Read apart from the contract: only the readers that
 * serve them pay for their size.
 */
export async function compiledContractLayouts(db: Kysely<Database>, id: string): Promise<StorageLayouts | null> {
  const row = await db.selectFrom('compiledContracts').select(['storageLayout', 'transientStorageLayout']).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return { storageLayout: parseStorageLayout(row.storageLayout), transientStorageLayout: parseStorageLayout(row.transientStorageLayout) };
}

function gainsPositions(stored: string | null, fresh: CompiledAuxdata): boolean {
  if (!fresh.positions) return false;
  if (stored === null) return true;
  return !(JSON.parse(stored) as CompiledAuxdata).positions;
}

/** The stored sources of these hashes (by key, 500 at a time); a hash not stored is absent. */
export async function sourceContents(db: Kysely<Database>, hashes: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('sources')
      .select(['sourceHash', 'content'])
      .where('sourceHash', 'in', unique.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.sourceHash, r.content);
  }
  return out;
}

/** A stored contract of a compilation, ready for the matcher. */
export interface StoredCompiledContract {
  id: string;
  compilationId: string;
  /** Long version without `v`. */
  compilerVersion: string;
  /** `Solidity`, `Yul` or `Vyper`: how the compiled contract is matched. */
  language: string;
  path: string;
  name: string;
  compiled: CompiledContract;
}

/** The contract `path:name` of a compilation, with its code; null when not stored (or stored without code). */
export async function findCompiledContract(db: Kysely<Database>, compilationId: string, path: string, name: string): Promise<StoredCompiledContract | null> {
  return loadCompiledContract(db, compiledContractId(compilationId, path, name));
}

/** A stored compiled contract with its code; null when there is none or its code was not kept. */
export async function loadCompiledContract(db: Kysely<Database>, id: string): Promise<StoredCompiledContract | null> {
  const row = await db
    .selectFrom('compiledContracts as cc')
    .innerJoin('compilations as c', 'c.id', 'cc.compilationId')
    .innerJoin('code as rc', 'rc.codeHash', 'cc.runtimeCodeHash')
    .leftJoin('code as cr', 'cr.codeHash', 'cc.creationCodeHash')
    .select([
      'cc.id',
      'cc.compilationId',
      'c.compilerVersion',
      'c.language',
      'cc.path',
      'cc.name',
      'cc.abi',
      'cc.metadata',
      'cc.creationLinkReferences',
      'cc.runtimeLinkReferences',
      'cc.immutableReferences',
      'cc.creationAuxdata',
      'cc.runtimeAuxdata',
      'rc.code as runtimeCode',
      'cr.code as creationCode',
    ])
    .where('cc.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const auxdata = (text: string | null): CompiledAuxdata => (text === null ? { values: null } : (JSON.parse(text) as CompiledAuxdata));
  return {
    id: row.id,
    compilationId: row.compilationId,
    compilerVersion: row.compilerVersion,
    language: row.language,
    path: row.path,
    name: row.name,
    compiled: {
      abi: JSON.parse(row.abi) as unknown[],
      metadata: row.metadata,
      creation: { code: row.creationCode ?? '', linkReferences: JSON.parse(row.creationLinkReferences), auxdata: auxdata(row.creationAuxdata) },
      runtime: {
        code: row.runtimeCode,
        linkReferences: JSON.parse(row.runtimeLinkReferences),
        immutableReferences: JSON.parse(row.immutableReferences),
        auxdata: auxdata(row.runtimeAuxdata),
      },
    },
  };
}

/**
 * Compiled contracts whose runtime code pins the metadata `hash`, a page at a time (by id, after
 * `after`): a deployed code's own compilations, found however many others share its fingerprint.
 */
export async function compiledContractsWithMetadataHash(
  db: Kysely<Database>,
  hash: string,
  page: { after?: string | undefined; limit: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('compiledContracts')
    .select('id')
    .where('runtimeMetadataHash', '=', hash)
    .$if(page.after !== undefined, (qb) => qb.where('id', '>', page.after!))
    .orderBy('id')
    .limit(page.limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Compiled contracts whose runtime fingerprint is `fingerprint` (at most `limit`, oldest compilation first). */
export async function compiledContractsWithFingerprint(db: Kysely<Database>, fingerprint: string, limit = 20): Promise<string[]> {
  const rows = await db
    .selectFrom('compiledContracts as cc')
    .innerJoin('compilations as c', 'c.id', 'cc.compilationId')
    .select('cc.id')
    .where('cc.runtimeFingerprint', '=', fingerprint)
    .orderBy('c.createdAt')
    .orderBy('cc.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The sources of a compilation, by path (sorted), with their contents. */
export async function compilationSources(db: Kysely<Database>, compilationId: string): Promise<{ path: string; content: string }[]> {
  // Two key lookups rather than a join: right after a bulk load PostgreSQL's statistics are
  // stale and it joined by scanning every source (getsourcecode fell from 346 to 45 answers a
  // second between 10,000 and 200,000 contracts); this plan cannot change with the store's size.
  const files = await db.selectFrom('compilationSources').select(['path', 'sourceHash']).where('compilationId', '=', compilationId).orderBy('path').execute();
  if (files.length === 0) return [];
  const contents = await sourceContents(
    db,
    files.map((f) => f.sourceHash),
  );
  return files.flatMap((f) => (contents.has(f.sourceHash) ? [{ path: f.path, content: contents.get(f.sourceHash)! }] : []));
}
