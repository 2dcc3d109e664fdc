import type { Kysely, Selectable } from 'kysely';
import type { Address, CodeFormat, LibraryLink, MatchKind } from '../core/types.js';
import type { Database, VerifiedContractsTable } from './database.js';
import { isPostgres } from './dialect.js';
import { randomString } from '../core/random.js';
import { writeTransaction } from './transactions.js';

/**
 * A verified contract as stored. JSON documents that are served as text (ABI, compiler
 * input, metadata) stay text so they go out byte for byte; the ones the service reads
 * (libraries, transformations, proxy details) come back parsed.
 */
export interface VerifiedContract {
  address: Address;
  contractName: string;
  /** The source unit holding the contract ('' for a single file). */
  sourcePath: string;
  /** Long form with the leading v: `v0.8.26+commit.8a97fa7a`. */
  compilerVersion: string;
  codeFormat: CodeFormat;
  /** The source text exactly as submitted (Solidity, or the standard JSON text). */
  sourceCode: string;
  /** The standard JSON input that was compiled (JSON text). */
  compilerInput: string;
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
  transformations: unknown;
  swarmSource: string;
  /** The receipt of the job that verified it. */
  receipt: string | null;
  verifiedAt: number;
}

export type NewVerifiedContract = Omit<VerifiedContract, 'verifiedAt'> & { verifiedAt?: number };

/** The verified contract at `address` (any letter case), or null. */
export async function getVerifiedContract(db: Kysely<Database>, address: string): Promise<VerifiedContract | null> {
  const row = await db
    .selectFrom('verifiedContracts')
    .selectAll()
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  return row ? toContract(row) : null;
}

/** What the save of a verdict did: a new record, a better one replacing the old, or nothing. */
export type SaveOutcome = 'inserted' | 'replaced' | 'not_better';

/** The verdict fields a better-match rule compares. */
export type StoredVerdict = Pick<VerifiedContract, 'matchKind' | 'runtimeMatch' | 'creationMatch' | 'creationCompared'>;

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
  const row = toRow(contract);
  return writeTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('verifiedContracts')
      .values(row)
      .onConflict((oc) => oc.column('address').doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return 'inserted';
    const existing = await trx
      .selectFrom('verifiedContracts')
      .selectAll()
      .where('address', '=', row.address)
      .$if(isPostgres(db), (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!existing) return 'not_better';
    if (!isBetter(toContract(existing))) return 'not_better';
    await keepInHistory(trx, existing, contract.receipt);
    await trx.updateTable('verifiedContracts').set(row).where('address', '=', row.address).execute();
    return 'replaced';
  });
}

async function keepInHistory(trx: Kysely<Database>, existing: Selectable<VerifiedContractsTable>, replacedBy: string | null): Promise<void> {
  await trx
    .insertInto('verificationHistory')
    .values({
      id: randomString('abcdefghijklmnopqrstuvwxyz0123456789', 24),
      address: existing.address,
      replacedAt: Date.now(),
      replacedBy,
      record: JSON.stringify(existing),
    })
    .execute();
}

/** A replaced record, newest first: when and by which receipt, and how it had matched. */
export interface ReplacedVerification {
  replacedAt: number;
  replacedBy: string | null;
  receipt: string | null;
  matchKind: MatchKind;
  verifiedAt: number;
}

/** The records a better match replaced at `address`, newest first (at most `limit`). */
export async function listReplacedVerifications(db: Kysely<Database>, address: string, limit = 20): Promise<ReplacedVerification[]> {
  const rows = await db
    .selectFrom('verificationHistory')
    .select(['replacedAt', 'replacedBy', 'record'])
    .where('address', '=', address.toLowerCase())
    .orderBy('replacedAt', 'desc')
    .limit(Math.max(1, Math.min(limit, 100)))
    .execute();
  return rows.map((r) => {
    const old = JSON.parse(r.record) as { receipt?: string | null; matchKind?: string; verifiedAt?: number };
    return {
      replacedAt: Number(r.replacedAt),
      replacedBy: r.replacedBy,
      receipt: typeof old.receipt === 'string' ? old.receipt : null,
      matchKind: old.matchKind === 'full' ? 'full' : 'partial',
      verifiedAt: Number(old.verifiedAt ?? 0),
    };
  });
}

function toRow(contract: NewVerifiedContract) {
  return {
    address: contract.address.toLowerCase(),
    contractName: contract.contractName,
    sourcePath: contract.sourcePath,
    compilerVersion: contract.compilerVersion,
    codeFormat: contract.codeFormat,
    sourceCode: contract.sourceCode,
    compilerInput: contract.compilerInput,
    abi: contract.abi,
    metadata: contract.metadata,
    optimizationUsed: contract.optimizationUsed ? 1 : 0,
    runs: contract.runs,
    evmVersion: contract.evmVersion,
    viaIr: contract.viaIR ? 1 : 0,
    constructorArguments: contract.constructorArguments ?? '',
    constructorArgumentsKnown: contract.constructorArguments === null ? 0 : 1,
    libraries: JSON.stringify(contract.libraries),
    licenseType: contract.licenseType,
    matchKind: contract.matchKind,
    creationMatch: contract.creationMatch,
    creationCompared: contract.creationCompared === null ? null : contract.creationCompared ? 1 : 0,
    runtimeMatch: contract.runtimeMatch,
    transformations: JSON.stringify(contract.transformations ?? null),
    swarmSource: contract.swarmSource,
    receipt: contract.receipt,
    verifiedAt: contract.verifiedAt ?? Date.now(),
  };
}

/**
 * Stores a verified contract unless the address already has one. Safe under concurrency:
 * of two racing inserts for one address exactly one gets 'inserted'.
 */
export async function insertVerifiedContract(
  db: Kysely<Database>,
  contract: NewVerifiedContract,
): Promise<'inserted' | 'exists'> {
  const outcome = await saveVerifiedContract(db, contract, () => false);
  return outcome === 'inserted' ? 'inserted' : 'exists';
}

/** The verdict stored for `address`, without its documents; null when none. */
export async function getStoredVerdict(db: Kysely<Database>, address: string): Promise<StoredVerdict | null> {
  const row = await db
    .selectFrom('verifiedContracts')
    .select(['matchKind', 'runtimeMatch', 'creationMatch', 'creationCompared'])
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  return {
    matchKind: row.matchKind as MatchKind,
    runtimeMatch: row.runtimeMatch as MatchKind | null,
    creationMatch: row.creationMatch as MatchKind | null,
    creationCompared: row.creationCompared === null ? null : Number(row.creationCompared) === 1,
  };
}

/** What a list of verified contracts shows: no sources, ABI or metadata. */
export type VerifiedContractSummary = Pick<
  VerifiedContract,
  'address' | 'contractName' | 'compilerVersion' | 'licenseType' | 'matchKind' | 'verifiedAt'
>;

/** Verified contracts, newest first, a page at a time (at most 1000), without their documents. */
export async function listVerifiedContracts(
  db: Kysely<Database>,
  page: { limit: number; offset: number },
): Promise<VerifiedContractSummary[]> {
  const rows = await db
    .selectFrom('verifiedContracts')
    .select(['address', 'contractName', 'compilerVersion', 'licenseType', 'matchKind', 'verifiedAt'])
    .orderBy('verifiedAt', 'desc')
    .orderBy('address')
    .limit(Math.max(0, Math.min(Math.floor(page.limit), 1000)))
    .offset(Math.max(0, Math.floor(page.offset)))
    .execute();
  return rows.map((row) => ({
    address: row.address as Address,
    contractName: row.contractName,
    compilerVersion: row.compilerVersion,
    licenseType: Number(row.licenseType),
    matchKind: row.matchKind as MatchKind,
    verifiedAt: Number(row.verifiedAt),
  }));
}

/** How many contracts are verified. */
export async function countVerifiedContracts(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('verifiedContracts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

function toContract(row: Selectable<VerifiedContractsTable>): VerifiedContract {
  return {
    address: row.address as Address,
    contractName: row.contractName,
    sourcePath: row.sourcePath,
    compilerVersion: row.compilerVersion,
    codeFormat: row.codeFormat as CodeFormat,
    sourceCode: row.sourceCode,
    compilerInput: row.compilerInput,
    abi: row.abi,
    metadata: row.metadata,
    optimizationUsed: Number(row.optimizationUsed) === 1,
    runs: Number(row.runs),
    evmVersion: row.evmVersion,
    viaIR: Number(row.viaIr) === 1,
    constructorArguments: Number(row.constructorArgumentsKnown) === 1 ? row.constructorArguments : null,
    libraries: JSON.parse(row.libraries) as LibraryLink[],
    licenseType: Number(row.licenseType),
    matchKind: row.matchKind as MatchKind,
    creationMatch: row.creationMatch as MatchKind | null,
    creationCompared: row.creationCompared === null ? null : Number(row.creationCompared) === 1,
    runtimeMatch: row.runtimeMatch as MatchKind | null,
    transformations: JSON.parse(row.transformations),
    swarmSource: row.swarmSource,
    receipt: row.receipt,
    verifiedAt: Number(row.verifiedAt),
  };
}
