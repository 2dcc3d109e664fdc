/**
 * Verified contracts: each links an address (and the deployment found there) to a compiled
 * contract of the bytecode database, with the verdict, what the matcher read from the chain
 * (constructor arguments, libraries, transformation values) and how it was verified. The
 * documents served (sources, ABI, metadata) are stored once in the compilation and the
 * input document, whatever number of copies share them.
 */

import { type Kysely, type Selectable, sql } from 'kysely';
import { knownAddress, knownAddressOrNull } from '../core/hex.js';
import { randomString } from '../core/random.js';
import type { Address, LibraryLink, MatchKind, StoredCodeFormat, VerificationMethod } from '../core/types.js';
import { metadataSourcePaths, settingsSummaryOf } from '../verify/index.js';
import { compilationSources } from './compilations.js';
import type { Database, HistoryReason, VerifiedContractsTable } from './database.js';
import { isPostgres } from './dialect.js';
import { readInputDocument } from './inputDocuments.js';
import { decodeLibraries, decodeTransformations, type StoredTransformations } from './matchFacts.js';
import { writeTransaction } from './transactions.js';

/** A verified contract as served: its record and the documents it is made from. */
export interface VerifiedContract {
  address: Address;
  contractName: string;
  /** The source unit holding the contract ('' for a single file). */
  sourcePath: string;
  /** Long form with the leading v: `v0.8.26+commit.8a97fa7a`; a Vyper compiler's as Etherscan names it, with its commit: `vyper:0.4.3+commit.bff19ea2`. */
  compilerVersion: string;
  codeFormat: StoredCodeFormat;
  /** The compilation's language: `Solidity` or `Vyper`. */
  language: string;
  /** The sources that were compiled and that the metadata proves, by path. */
  sources: { path: string; content: string }[];
  /** How many other files the submitted input carried: compiled, but not part of the contract (not published). */
  unpublishedSources: number;
  /** The settings that were compiled (without outputSelection). */
  settings: Record<string, unknown>;
  /** JSON text. */
  abi: string;
  /** The compiler's metadata JSON text ('' when none). */
  metadata: string;
  optimizationUsed: boolean;
  runs: number;
  evmVersion: string;
  viaIR: boolean;
  /** Hex without 0x, '' when none; null when nothing proved them (no creation code matched). */
  constructorArguments: string | null;
  libraries: LibraryLink[];
  licenseType: number;
  matchKind: MatchKind;
  creationMatch: MatchKind | null;
  /** True when the creation code was found and compared; null for records that did not say. */
  creationCompared: boolean | null;
  /** Null only for records written before the runtime code had to match. */
  runtimeMatch: MatchKind | null;
  /** The fix-ups applied to the compiled code and their values. */
  transformations: StoredTransformations;
  swarmSource: string;
  method: VerificationMethod;
  /** For a similar match: the verified contract it was matched through. */
  similarTo: Address | null;
  /** The receipt of the job that verified it (for a similar match: none; for a build: the build's). */
  receipt: string | null;
  verifiedAt: number;
  compiledContractId: string;
  /** Where it was created, when the service has seen it. */
  deployment: { transactionHash: string | null; blockNumber: number | null; creator: string | null; factory: string | null } | null;
}

/** What a new record is made of: references into the bytecode database and the verdict. */
export interface NewVerifiedContract {
  address: Address;
  compiledContractId: string;
  inputDocumentId: string;
  deploymentId: string | null;
  contractName: string;
  sourcePath: string;
  /** Long form with `v`. */
  compilerVersion: string;
  codeFormat: StoredCodeFormat;
  constructorArguments: string | null;
  libraries: LibraryLink[];
  licenseType: number;
  matchKind: MatchKind;
  creationMatch: MatchKind | null;
  creationCompared: boolean | null;
  runtimeMatch: MatchKind | null;
  transformations: StoredTransformations;
  swarmSource: string;
  method: VerificationMethod;
  similarTo: Address | null;
  receipt: string | null;
  verifiedAt?: number;
}

const VERIFIED_COUNTER = 'verified_contracts';

/** What the save of a verdict did: a new record, a better one replacing the old, or nothing. */
export type SaveOutcome = 'inserted' | 'replaced' | 'not_better';

/** The verdict fields a better-match rule compares. */
export type StoredVerdict = Pick<VerifiedContract, 'matchKind' | 'runtimeMatch' | 'creationMatch' | 'creationCompared' | 'method' | 'compiledContractId'>;

/**
 * Stores a verified contract. When the address already has one, the new record replaces it
 * only if `isBetter(existing)` says so, and the old record is kept in the history; otherwise
 * nothing changes. Safe under concurrency: the row is locked (PostgreSQL) or the write lock
 * held (SQLite) between the comparison and the write, so of two racing saves of equal
 * verdicts exactly one wins.
 */
export async function saveVerifiedContract(
  db: Kysely<Database>,
  contract: NewVerifiedContract,
  isBetter: (existing: StoredVerdict) => boolean,
): Promise<SaveOutcome> {
  return writeTransaction(db, (trx) => writeVerifiedContract(trx, contract, isBetter));
}

/** saveVerifiedContract within a transaction of writeTransaction that the caller holds (`trx`). */
export async function writeVerifiedContract(
  trx: Kysely<Database>,
  contract: NewVerifiedContract,
  isBetter: (existing: StoredVerdict) => boolean,
): Promise<SaveOutcome> {
  const row = toRow(contract);
  const inserted = await trx
    .insertInto('verifiedContracts')
    .values(row)
    .onConflict((oc) => oc.column('address').doNothing())
    .executeTakeFirst();
  if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) {
    await bumpCounter(trx, 1);
    return 'inserted';
  }
  const existing = await trx
    .selectFrom('verifiedContracts')
    .selectAll()
    .where('address', '=', row.address)
    .$if(isPostgres(trx), (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!existing) return 'not_better';
  let reason: HistoryReason = 'replaced';
  if (!isBetter(toVerdict(existing))) {
    // The new verdict was reached on the code the address holds now: a record of other code is stale, whatever its strength.
    if (!(await describeOtherCode(trx, existing.deploymentId, row.deploymentId))) return 'not_better';
    reason = 'code_changed';
  }
  await keepInHistory(trx, existing, contract.receipt, reason);
  await trx.updateTable('verifiedContracts').set(row).where('address', '=', row.address).execute();
  if (reason === 'code_changed') await repointCopies(trx, [existing]);
  return 'replaced';
}

/** True when both deployments are known and their runtime codes differ. */
async function describeOtherCode(trx: Kysely<Database>, stored: string | null, fresh: string | null): Promise<boolean> {
  if (stored === null || fresh === null || stored === fresh) return false;
  const rows = await trx.selectFrom('deployments').select(['id', 'runtimeCodeHash']).where('id', 'in', [stored, fresh]).execute();
  const hashOf = (id: string) => rows.find((r) => r.id === id)?.runtimeCodeHash;
  return hashOf(stored) !== undefined && hashOf(fresh) !== undefined && hashOf(stored) !== hashOf(fresh);
}

/**
 * Stores many records that are new (the addresses have none), in one transaction: for
 * filling a store in bulk. Returns how many were inserted (an address that has a record keeps it).
 */
export async function insertVerifiedContracts(db: Kysely<Database>, contracts: readonly NewVerifiedContract[]): Promise<number> {
  if (contracts.length === 0) return 0;
  return writeTransaction(db, async (trx) => {
    let inserted = 0;
    for (let i = 0; i < contracts.length; i += 200) {
      const res = await trx
        .insertInto('verifiedContracts')
        .values(contracts.slice(i, i + 200).map(toRow))
        .onConflict((oc) => oc.column('address').doNothing())
        .executeTakeFirst();
      inserted += Number(res.numInsertedOrUpdatedRows ?? 0n);
    }
    // PostgreSQL counts a multi-row insert; SQLite reports the changes of the statement too.
    await bumpCounter(trx, inserted);
    return inserted;
  });
}

async function bumpCounter(trx: Kysely<Database>, by: number): Promise<void> {
  if (by === 0) return;
  await trx
    .insertInto('counters')
    .values({ name: VERIFIED_COUNTER, value: by })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb('counters.value', '+', by) })))
    .execute();
}

async function keepInHistory(
  trx: Kysely<Database>,
  existing: Selectable<VerifiedContractsTable>,
  replacedBy: string | null,
  reason: HistoryReason,
): Promise<void> {
  await trx
    .insertInto('verificationHistory')
    .values({
      id: randomString('abcdefghijklmnopqrstuvwxyz0123456789', 24),
      address: existing.address,
      replacedAt: Date.now(),
      replacedBy,
      record: JSON.stringify(existing),
      reason,
      compiledContractId: existing.compiledContractId,
    })
    .execute();
}

/**
 * Takes records off the verified list (their addresses no longer hold the code they were
 * verified for), keeping each in the history with `reason`. Returns how many were removed.
 * Copies that were matched through a removed address name another verified contract of the
 * same compiled code (or none) instead.
 */
export async function removeVerifiedContracts(db: Kysely<Database>, addresses: readonly string[], reason: HistoryReason): Promise<number> {
  if (addresses.length === 0) return 0;
  return writeTransaction(db, async (trx) => {
    // Deleted first and kept from what the delete returned: of two processes removing one record, one keeps it in the history.
    const rows = await trx
      .deleteFrom('verifiedContracts')
      .where(
        'address',
        'in',
        addresses.map((a) => a.toLowerCase()),
      )
      .returningAll()
      .execute();
    return settleRemoved(trx, rows, reason);
  });
}

/**
 * Takes the record at `address` off, as removeVerifiedContracts does, only while it still links
 * `deploymentId` (the deployment a check found gone): a record written since stays. True when
 * it was taken off.
 */
export async function takeOffRecord(db: Kysely<Database>, address: string, deploymentId: string | null, reason: HistoryReason): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const rows = await trx
      .deleteFrom('verifiedContracts')
      .where('address', '=', address.toLowerCase())
      .where('deploymentId', deploymentId === null ? 'is' : '=', deploymentId)
      .returningAll()
      .execute();
    return (await settleRemoved(trx, rows, reason)) > 0;
  });
}

async function settleRemoved(trx: Kysely<Database>, rows: Selectable<VerifiedContractsTable>[], reason: HistoryReason): Promise<number> {
  if (rows.length === 0) return 0;
  for (const row of rows) await keepInHistory(trx, row, null, reason);
  await bumpCounter(trx, -rows.length);
  await repointCopies(trx, rows);
  return rows.length;
}

/**
 * Similar matches name the address they were matched through: once that address no longer
 * holds the code, they name the oldest contract verified by submission from the same compiled
 * code instead, or none (the page then says "another contract"). Copies share their
 * original's compiled contract, so its index finds them.
 */
async function repointCopies(trx: Kysely<Database>, removed: readonly Selectable<VerifiedContractsTable>[]): Promise<void> {
  const byCompiled = new Map<string, string[]>();
  for (const row of removed) byCompiled.set(row.compiledContractId, [...(byCompiled.get(row.compiledContractId) ?? []), row.address]);
  for (const [compiledContractId, gone] of byCompiled) {
    // Most records have no copy naming them: nothing to repoint, no original to look for.
    const named = await trx.selectFrom('verifiedContracts').select('address').where('similarTo', 'in', gone).limit(1).executeTakeFirst();
    if (!named) continue;
    const original = await trx
      .selectFrom('verifiedContracts')
      .select('address')
      .where('compiledContractId', '=', compiledContractId)
      .where('method', '=', 'submitted')
      .orderBy('verifiedAt')
      .limit(1)
      .executeTakeFirst();
    // Copies name an address of their own compiled contract: found by the address they name.
    await trx
      .updateTable('verifiedContracts')
      .set({ similarTo: original?.address ?? null })
      .where('similarTo', 'in', gone)
      .execute();
  }
}

/** A replaced record, newest first: when and by which receipt, and how it had matched. */
export interface ReplacedVerification {
  replacedAt: number;
  replacedBy: string | null;
  reason: HistoryReason;
  receipt: string | null;
  matchKind: MatchKind;
  method: VerificationMethod;
  verifiedAt: number;
}

/** The records a better match (or a change of the code at the address) took off `address`, newest first (at most `limit`). */
export async function listReplacedVerifications(db: Kysely<Database>, address: string, limit = 20): Promise<ReplacedVerification[]> {
  const rows = await db
    .selectFrom('verificationHistory')
    .select(['replacedAt', 'replacedBy', 'record', 'reason'])
    .where('address', '=', address.toLowerCase())
    .orderBy('replacedAt', 'desc')
    .limit(Math.max(1, Math.min(limit, 100)))
    .execute();
  return rows.map((r) => {
    const old = JSON.parse(r.record) as { receipt?: string | null; matchKind?: string; verifiedAt?: number; method?: string };
    return {
      replacedAt: Number(r.replacedAt),
      replacedBy: r.replacedBy,
      reason: HISTORY_REASONS.includes(r.reason) ? r.reason : 'replaced',
      receipt: typeof old.receipt === 'string' ? old.receipt : null,
      matchKind: old.matchKind === 'full' ? 'full' : 'partial',
      method: old.method === 'similar' || old.method === 'build' ? old.method : 'submitted',
      verifiedAt: Number(old.verifiedAt ?? 0),
    };
  });
}

const HISTORY_REASONS: readonly HistoryReason[] = ['replaced', 'chain_reset', 'rolled_back', 'code_changed'];

function toRow(contract: NewVerifiedContract) {
  return {
    address: contract.address.toLowerCase(),
    compiledContractId: contract.compiledContractId,
    inputDocumentId: contract.inputDocumentId,
    deploymentId: contract.deploymentId,
    contractName: contract.contractName,
    sourcePath: contract.sourcePath,
    compilerVersion: contract.compilerVersion,
    codeFormat: contract.codeFormat,
    constructorArguments: contract.constructorArguments ?? '',
    constructorArgumentsKnown: contract.constructorArguments === null ? 0 : 1,
    libraries: JSON.stringify(contract.libraries),
    licenseType: contract.licenseType,
    matchKind: contract.matchKind,
    creationMatch: contract.creationMatch,
    creationCompared: contract.creationCompared === null ? null : contract.creationCompared ? 1 : 0,
    runtimeMatch: contract.runtimeMatch,
    transformations: JSON.stringify(contract.transformations),
    swarmSource: contract.swarmSource,
    method: contract.method,
    similarTo: contract.similarTo?.toLowerCase() ?? null,
    receipt: contract.receipt,
    verifiedAt: contract.verifiedAt ?? Date.now(),
  };
}

/**
 * Stores a verified contract unless the address already has one. Safe under concurrency:
 * of two racing inserts for one address exactly one gets 'inserted'.
 */
export async function insertVerifiedContract(db: Kysely<Database>, contract: NewVerifiedContract): Promise<'inserted' | 'exists'> {
  const outcome = await saveVerifiedContract(db, contract, () => false);
  return outcome === 'inserted' ? 'inserted' : 'exists';
}

/** The verified contract at `address` (any letter case), with its documents; or null. */
export async function getVerifiedContract(db: Kysely<Database>, address: string): Promise<VerifiedContract | null> {
  const row = await db
    .selectFrom('verifiedContracts as v')
    .innerJoin('compiledContracts as cc', 'cc.id', 'v.compiledContractId')
    .innerJoin('compilations as c', 'c.id', 'cc.compilationId')
    .leftJoin('deployments as d', 'd.id', 'v.deploymentId')
    .selectAll('v')
    .select(['cc.abi', 'cc.metadata', 'cc.compilationId', 'c.settings', 'c.language', 'd.transactionHash', 'd.blockNumber', 'd.creator', 'd.factory'])
    .where('v.address', '=', address.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  // Only the files the metadata lists are published: the others were never proven to be part of the contract.
  const proven = metadataSourcePaths(row.metadata);
  const compiled = await compilationSources(db, row.compilationId);
  let sources = proven ? compiled.filter((s) => proven.has(s.path)) : compiled;
  // A record moved from before the compilations kept their sources has its submitted file alone.
  if (sources.length === 0 && row.codeFormat === 'solidity-single-file') {
    sources = [{ path: row.sourcePath || `${row.contractName}.sol`, content: (await readInputDocument(db, row.inputDocumentId)) ?? '' }];
  }
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  return {
    ...toVerdict(row),
    address: knownAddress(row.address),
    contractName: row.contractName,
    sourcePath: row.sourcePath,
    compilerVersion: row.compilerVersion,
    codeFormat: row.codeFormat as StoredCodeFormat,
    language: row.language,
    sources,
    unpublishedSources: compiled.length - sources.length,
    settings,
    abi: row.abi,
    metadata: row.metadata,
    ...settingsSummaryOf(row.language, settings),
    constructorArguments: Number(row.constructorArgumentsKnown) === 1 ? row.constructorArguments : null,
    libraries: decodeLibraries(row.libraries),
    licenseType: Number(row.licenseType),
    transformations: decodeTransformations(row.transformations),
    swarmSource: row.swarmSource,
    similarTo: knownAddressOrNull(row.similarTo),
    receipt: row.receipt,
    verifiedAt: Number(row.verifiedAt),
    compiledContractId: row.compiledContractId,
    deployment:
      row.deploymentId === null
        ? null
        : {
            transactionHash: row.transactionHash,
            blockNumber: row.blockNumber === null ? null : Number(row.blockNumber),
            creator: row.creator,
            factory: row.factory,
          },
  };
}

/** The ABI (JSON text) of the verified contract at `address`, or null: one indexed lookup. */
export async function getVerifiedAbi(db: Kysely<Database>, address: string): Promise<string | null> {
  const row = await db
    .selectFrom('verifiedContracts as v')
    .innerJoin('compiledContracts as cc', 'cc.id', 'v.compiledContractId')
    .select('cc.abi')
    .where('v.address', '=', address.toLowerCase())
    .executeTakeFirst();
  return row?.abi ?? null;
}

/** The name of the contract verified at `address`, or null when none is. */
export async function getVerifiedName(db: Kysely<Database>, address: string): Promise<string | null> {
  const row = await db.selectFrom('verifiedContracts').select('contractName').where('address', '=', address.toLowerCase()).executeTakeFirst();
  return row?.contractName ?? null;
}

/** The code a record describes: its deployment (null for records older than the bytecode database) and that deployment's code hash. */
export interface RecordedCode {
  deploymentId: string | null;
  /** keccak256 of the runtime code the record was verified on; null when no deployment is linked. */
  runtimeCodeHash: string | null;
}

/** What the record at `address` was verified on; null when the address has no record. One indexed lookup. */
export async function getRecordedCode(db: Kysely<Database>, address: string): Promise<RecordedCode | null> {
  const row = await db
    .selectFrom('verifiedContracts as v')
    .leftJoin('deployments as d', 'd.id', 'v.deploymentId')
    .select(['v.deploymentId', 'd.runtimeCodeHash'])
    .where('v.address', '=', address.toLowerCase())
    .executeTakeFirst();
  return row ? { deploymentId: row.deploymentId, runtimeCodeHash: row.runtimeCodeHash ?? null } : null;
}

/** The verdict stored for `address`, without its documents; null when none. */
export async function getStoredVerdict(db: Kysely<Database>, address: string): Promise<StoredVerdict | null> {
  const row = await db
    .selectFrom('verifiedContracts')
    .select(['matchKind', 'runtimeMatch', 'creationMatch', 'creationCompared', 'method', 'compiledContractId'])
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  return row ? toVerdict(row) : null;
}

function toVerdict(
  row: Pick<Selectable<VerifiedContractsTable>, 'matchKind' | 'runtimeMatch' | 'creationMatch' | 'creationCompared' | 'method' | 'compiledContractId'>,
): StoredVerdict {
  return {
    matchKind: row.matchKind as MatchKind,
    runtimeMatch: row.runtimeMatch as MatchKind | null,
    creationMatch: row.creationMatch as MatchKind | null,
    creationCompared: row.creationCompared === null ? null : Number(row.creationCompared) === 1,
    method: row.method,
    compiledContractId: row.compiledContractId,
  };
}

/** What a list of verified contracts shows: no sources, ABI or metadata. */
export type VerifiedContractSummary = Pick<
  VerifiedContract,
  'address' | 'contractName' | 'compilerVersion' | 'licenseType' | 'matchKind' | 'verifiedAt' | 'method'
>;

/** A position in the newest-first list: the last row of a page. */
export interface ListCursor {
  verifiedAt: number;
  address: string;
}

/** `<verifiedAt>-<address>`: a stable link to the rows after a position. */
export function formatListCursor(c: ListCursor): string {
  return `${c.verifiedAt}-${c.address.toLowerCase()}`;
}

/** A cursor from its text, or null when it is not one. */
export function parseListCursor(text: string): ListCursor | null {
  const m = /^(\d{1,16})-(0x[0-9a-f]{40})$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  return { verifiedAt: Number(m[1]), address: m[2]! };
}

/**
 * Verified contracts, newest first (ties by address), a page at a time (at most 1000), without
 * their documents: keyset pagination on (verified_at, address), so a page deep in the list
 * costs what the first does. `after` is the last row of the previous page; `offset` skips
 * rows (for a few pages from the start only).
 */
export async function listVerifiedContracts(
  db: Kysely<Database>,
  page: { limit: number; after?: ListCursor | null; offset?: number; filter?: ListFilter },
): Promise<VerifiedContractSummary[]> {
  const after = page.after ?? null;
  const f = page.filter ?? {};
  const rows = await db
    .selectFrom('verifiedContracts')
    .select(['address', 'contractName', 'compilerVersion', 'licenseType', 'matchKind', 'verifiedAt', 'method'])
    .$if(f.name !== undefined, (qb) => qb.where(sql`lower(contract_name)`, '=', f.name!.toLowerCase()))
    .$if(f.compiler !== undefined, (qb) => qb.where('compilerVersion', '=', f.compiler!))
    .$if(f.license !== undefined, (qb) => qb.where('licenseType', '=', f.license!))
    .$if(f.matchKind !== undefined, (qb) => qb.where('matchKind', '=', f.matchKind!))
    .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('verifiedAt', 'address'), '<', eb.tuple(after!.verifiedAt, after!.address.toLowerCase()))))
    .orderBy('verifiedAt', 'desc')
    .orderBy('address', 'desc')
    .limit(Math.max(0, Math.min(Math.floor(page.limit), 1000)))
    .$if((page.offset ?? 0) > 0, (qb) => qb.offset(Math.floor(page.offset!)))
    .execute();
  return rows.map((row) => ({
    address: knownAddress(row.address),
    contractName: row.contractName,
    compilerVersion: row.compilerVersion,
    licenseType: Number(row.licenseType),
    matchKind: row.matchKind as MatchKind,
    verifiedAt: Number(row.verifiedAt),
    method: row.method,
  }));
}

/** What the verified list can be narrowed to (each has an index ending in the list's order). */
export interface ListFilter {
  /** A contract name, whatever its case. */
  name?: string;
  /** A long compiler version with `v`. */
  compiler?: string;
  license?: number;
  matchKind?: MatchKind;
}

/**
 * Verified contracts newest first, from the first page to the last, `batch` rows at a time by
 * keyset: bounded memory, time linear in the rows, and the event loop free between batches.
 */
export async function* allVerifiedContracts(db: Kysely<Database>, batch = 1000): AsyncGenerator<VerifiedContractSummary> {
  let after: ListCursor | null = null;
  for (;;) {
    const rows = await listVerifiedContracts(db, { limit: batch, after });
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { verifiedAt: last.verifiedAt, address: last.address };
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** How many contracts are verified: a counter kept as records are written, not a count of the table. */
export async function countVerifiedContracts(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('counters').select('value').where('name', '=', VERIFIED_COUNTER).executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** The addresses verified with a deployment of another generation (or none recorded), a page at a time. */
export async function verifiedOutsideGeneration(db: Kysely<Database>, generation: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('verifiedContracts as v')
    .leftJoin('deployments as d', 'd.id', 'v.deploymentId')
    .select('v.address')
    .where((eb) => eb.or([eb('d.generation', 'is', null), eb('d.generation', '!=', generation)]))
    .limit(limit)
    .execute();
  return rows.map((r) => r.address);
}

/** The addresses verified with a deployment of `generation` created after block `block`, a page at a time. */
export async function verifiedDeployedAfter(db: Kysely<Database>, generation: string, block: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('verifiedContracts as v')
    .innerJoin('deployments as d', 'd.id', 'v.deploymentId')
    .select('v.address')
    .where('d.generation', '=', generation)
    .where('d.blockNumber', '>', block)
    .limit(limit)
    .execute();
  return rows.map((r) => r.address);
}

/** A verified contract's matches, as a list of them shows them. */
export type VerifiedMatchSummary = Pick<VerifiedContract, 'address' | 'matchKind' | 'creationMatch' | 'runtimeMatch' | 'verifiedAt'>;

/**
 * Verified contracts with their matches, newest (`desc`) or oldest (`asc`) first, a page of at
 * most 1000 after the position `after` (keyset on verified_at and address, as listVerifiedContracts).
 */
export async function listVerifiedMatches(
  db: Kysely<Database>,
  page: { limit: number; after: ListCursor | null; order: 'asc' | 'desc' },
): Promise<VerifiedMatchSummary[]> {
  const after = page.after;
  const rows = await db
    .selectFrom('verifiedContracts')
    .select(['address', 'matchKind', 'creationMatch', 'runtimeMatch', 'verifiedAt'])
    .$if(after !== null, (qb) =>
      qb.where((eb) => eb(eb.refTuple('verifiedAt', 'address'), page.order === 'desc' ? '<' : '>', eb.tuple(after!.verifiedAt, after!.address.toLowerCase()))),
    )
    .orderBy('verifiedAt', page.order)
    .orderBy('address', page.order)
    .limit(Math.max(0, Math.min(Math.floor(page.limit), 1000)))
    .execute();
  return rows.map((row) => ({
    address: knownAddress(row.address),
    matchKind: row.matchKind as MatchKind,
    creationMatch: row.creationMatch as MatchKind | null,
    runtimeMatch: row.runtimeMatch as MatchKind | null,
    verifiedAt: Number(row.verifiedAt),
  }));
}
