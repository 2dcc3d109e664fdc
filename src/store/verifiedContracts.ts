import type { Kysely, Selectable } from 'kysely';
import type { Address, CodeFormat, LibraryLink, MatchKind } from '../core/types.js';
import type { Database, VerifiedContractsTable } from './database.js';

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
  /** Hex without 0x, '' when none. */
  constructorArguments: string;
  libraries: LibraryLink[];
  licenseType: number;
  matchKind: MatchKind;
  creationMatch: MatchKind | null;
  runtimeMatch: MatchKind | null;
  /** The fix-ups applied to the compiled code and their values. */
  transformations: unknown;
  swarmSource: string;
  /** The receipt of the job that verified it. */
  receipt: string | null;
  verifiedAt: number;
  proxyImplementation: Address | null;
  proxyInfo: unknown;
  proxyCheckedAt: number | null;
  proxyBlock: number | null;
}

export type NewVerifiedContract = Omit<
  VerifiedContract,
  'verifiedAt' | 'proxyImplementation' | 'proxyInfo' | 'proxyCheckedAt' | 'proxyBlock'
> & { verifiedAt?: number };

/** Whether `address` (any letter case) is verified, without reading its documents. */
export async function isVerified(db: Kysely<Database>, address: string): Promise<boolean> {
  const row = await db.selectFrom('verifiedContracts').select('address').where('address', '=', address.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** The verified contract at `address` (any letter case), or null. */
export async function getVerifiedContract(db: Kysely<Database>, address: string): Promise<VerifiedContract | null> {
  const row = await db
    .selectFrom('verifiedContracts')
    .selectAll()
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  return row ? toContract(row) : null;
}

/**
 * Stores a verified contract unless the address already has one. Safe under concurrency:
 * of two racing inserts for one address exactly one gets 'inserted'.
 */
export async function insertVerifiedContract(
  db: Kysely<Database>,
  contract: NewVerifiedContract,
): Promise<'inserted' | 'exists'> {
  const res = await db
    .insertInto('verifiedContracts')
    .values({
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
      constructorArguments: contract.constructorArguments,
      libraries: JSON.stringify(contract.libraries),
      licenseType: contract.licenseType,
      matchKind: contract.matchKind,
      creationMatch: contract.creationMatch,
      runtimeMatch: contract.runtimeMatch,
      transformations: JSON.stringify(contract.transformations ?? null),
      swarmSource: contract.swarmSource,
      receipt: contract.receipt,
      verifiedAt: contract.verifiedAt ?? Date.now(),
      proxyImplementation: null,
      proxyInfo: null,
      proxyCheckedAt: null,
      proxyBlock: null,
    })
    .onConflict((oc) => oc.column('address').doNothing())
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n ? 'inserted' : 'exists';
}

/**
 * Records what verifyproxycontract found for an address (implementation null: not a proxy
 * or not detected). Returns false when the address has no verified contract.
 */
export async function updateProxyInfo(
  db: Kysely<Database>,
  address: string,
  proxy: { implementation: Address | null; info: unknown; block: number | bigint | null; checkedAt?: number },
): Promise<boolean> {
  const res = await db
    .updateTable('verifiedContracts')
    .set({
      proxyImplementation: proxy.implementation === null ? null : proxy.implementation.toLowerCase(),
      proxyInfo: JSON.stringify(proxy.info ?? null),
      proxyCheckedAt: proxy.checkedAt ?? Date.now(),
      proxyBlock: proxy.block === null ? null : Number(proxy.block),
    })
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Verified contracts, most recently verified first. `limit` is capped at 1000. */
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
    constructorArguments: row.constructorArguments,
    libraries: JSON.parse(row.libraries) as LibraryLink[],
    licenseType: Number(row.licenseType),
    matchKind: row.matchKind as MatchKind,
    creationMatch: row.creationMatch as MatchKind | null,
    runtimeMatch: row.runtimeMatch as MatchKind | null,
    transformations: JSON.parse(row.transformations),
    swarmSource: row.swarmSource,
    receipt: row.receipt,
    verifiedAt: Number(row.verifiedAt),
    proxyImplementation: row.proxyImplementation as Address | null,
    proxyInfo: row.proxyInfo === null ? null : JSON.parse(row.proxyInfo),
    proxyCheckedAt: row.proxyCheckedAt === null ? null : Number(row.proxyCheckedAt),
    proxyBlock: row.proxyBlock === null ? null : Number(row.proxyBlock),
  };
}
