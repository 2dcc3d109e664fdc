/**
 * Table types as Kysely sees them. Columns are snake_case in the database and camelCase
 * here (the store runs with Kysely's CamelCasePlugin). Timestamps are epoch milliseconds
 * in `bigint` columns, which behave the same on SQLite and PostgreSQL; JSON travels as text.
 */
import type { Generated } from 'kysely';
import type { VerificationMethod } from '../core/types.js';

export type { VerificationMethod };

export type ApiKeyTier = 'free' | 'pro';

export interface ApiKeysTable {
  id: string;
  /** sha256 hex of the key; the key itself is never stored. */
  keyHash: string;
  keyPrefix: string;
  owner: string | null;
  tier: ApiKeyTier;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export type JobKind = 'source' | 'proxy' | 'build';
export type JobState = 'queued' | 'running' | 'pass' | 'fail' | 'already_verified';

export interface VerificationJobsTable {
  receipt: string;
  kind: JobKind;
  address: string;
  state: JobState;
  /** JSON text. */
  request: string;
  resultText: string | null;
  /** JSON text. */
  result: string | null;
  lastError: string | null;
  apiKeyId: string | null;
  attempts: Generated<number>;
  notBefore: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** When the request's sources were dropped (the verdict and a reference to what was verified stay). */
  payloadPrunedAt: number | null;
}

/**
 * Bytecode stored once however many compilations or deployments have it. Compiled code is keyed
 * by the keccak256 of its hex text (it may hold link placeholders); init code read from the chain
 * by the keccak256 of its bytes, the hash its deployment names.
 */
export interface CodeTable {
  codeHash: string;
  /** 0x hex; compiled code keeps its link placeholders. */
  code: string;
}

/** A source file by the keccak256 of its content (as solc's metadata names it). */
export interface SourcesTable {
  sourceHash: string;
  content: string;
}

/** One standard JSON input compiled by one compiler, stored once. */
export interface CompilationsTable {
  /** sha256 of the compiler version and the input (sources by hash, settings without outputSelection). */
  id: string;
  /** Long version without `v`. */
  compilerVersion: string;
  language: string;
  /** JSON text: the settings that were compiled, without outputSelection. */
  settings: string;
  createdAt: number;
}

export interface CompilationSourcesTable {
  compilationId: string;
  path: string;
  sourceHash: string;
}

/** One contract of a compilation, with what matching needs. */
export interface CompiledContractsTable {
  id: string;
  compilationId: string;
  path: string;
  name: string;
  /** JSON text, served as it is. */
  abi: string;
  metadata: string;
  /** Null for records moved from before the bytecode database (their code was not kept). */
  creationCodeHash: string | null;
  runtimeCodeHash: string | null;
  /** JSON texts. */
  creationLinkReferences: string;
  runtimeLinkReferences: string;
  immutableReferences: string;
  /** JSON text: `{ values, positions? }` of the auxdata solc reported; null when unknown. */
  creationAuxdata: string | null;
  runtimeAuxdata: string | null;
  runtimeFingerprint: string | null;
  /** The content hash the runtime code's metadata auxdata pins (hex), null when it pins none. */
  runtimeMetadataHash: string | null;
  /** JSON text: solc's storage layouts as it gave them; null when it gave none, or stored before they were kept (0014). */
  storageLayout: string | null;
  transientStorageLayout: string | null;
}

/** What a verified contract's SourceCode is made from. */
export type InputDocumentKind = 'single-file' | 'standard-json' | 'raw';

export interface InputDocumentsTable {
  id: string;
  kind: InputDocumentKind;
  /** single-file: the source path; standard-json: the submitted input with contents as `{"$source": hash}`; raw: the text itself. */
  document: string;
}

/** A contract found on the chain. */
export interface DeploymentsTable {
  id: string;
  address: string;
  /** The chain's genesis block hash when it was found (a devnet restarted from genesis is another chain). */
  generation: string;
  transactionHash: string | null;
  blockNumber: number | null;
  /** The account that sent the creation transaction (Etherscan's contractCreator), when known. */
  creator: string | null;
  /** The factory that created it, when it was created inside a call. */
  factory: string | null;
  /** keccak256 of the init code that ran; the `code` table holds the code under this hash once the creation was looked up. */
  creationCodeHash: string | null;
  runtimeCodeHash: string;
  runtimeFingerprint: string;
  foundAt: number;
  /** The creation block's time in seconds since the Unix epoch, when known. */
  blockTimestamp: number | null;
}

export interface VerifiedContractsTable {
  address: string;
  compiledContractId: string;
  inputDocumentId: string;
  deploymentId: string | null;
  contractName: string;
  sourcePath: string;
  /** Long form with `v`. */
  compilerVersion: string;
  codeFormat: string;
  constructorArguments: string;
  /** 0 when nothing proved the constructor arguments. */
  constructorArgumentsKnown: number;
  /** JSON text. */
  libraries: string;
  licenseType: number;
  matchKind: string;
  creationMatch: string | null;
  runtimeMatch: string | null;
  /** 1 compared, 0 no creation found, null not recorded (written before this was kept). */
  creationCompared: number | null;
  /** JSON text. */
  transformations: string;
  swarmSource: string;
  method: VerificationMethod;
  /** For a similar match: the verified contract it was matched through. */
  similarTo: string | null;
  receipt: string | null;
  verifiedAt: number;
}

/** A whole build submitted without an address (verifybuild). */
export interface BuildsTable {
  receipt: string;
  compilationId: string;
  inputDocumentId: string;
  /** Long form with `v`. */
  compilerVersion: string;
  format: string;
  createdAt: number;
}

/** Named values the service keeps between runs (the chain follower's position, the chain's genesis). */
export interface ChainStateTable {
  name: string;
  value: string;
}

/** Counts kept as rows are written, so pages never count a table. */
export interface CountersTable {
  name: string;
  value: number;
}

/** A verified contract's earlier record, kept when a better match replaced it. */
export interface VerificationHistoryTable {
  id: string;
  address: string;
  replacedAt: number;
  /** The receipt of the verification that replaced it. */
  replacedBy: string | null;
  /** JSON text: the replaced row. */
  record: string;
  /** Why it was taken off (HistoryReason). */
  reason: Generated<HistoryReason>;
  compiledContractId: string | null;
}

/**
 * Why a record left the verified list: `replaced` by a better match; the address no longer
 * holds the code it describes because the chain restarted from genesis (`chain_reset`), was
 * rolled back past its deployment (`rolled_back`), or the code there changed otherwise
 * (`code_changed`: anvil_setCode, a self-destruct and another deployment).
 */
export type HistoryReason = 'replaced' | 'chain_reset' | 'rolled_back' | 'code_changed';

/** The hash of each block the chain follower handled lately: where a rollback's common ancestor is found. */
export interface FollowedBlocksTable {
  number: number;
  hash: string;
}

/** Which upgrade event a proxy history row was read from. */
export type ProxyHistoryKind = 'implementation' | 'beacon';

/**
 * An `Upgraded(address)` (kind `implementation`) or `BeaconUpgraded(address)` (kind `beacon`) log
 * the chain follower read: `proxy` emitted it (a proxy, or a beacon for its own implementations).
 */
export interface ProxyHistoryTable {
  blockNumber: number;
  logIndex: number;
  /** The emitting contract, lower case. */
  proxy: string;
  /** The implementation or beacon the log names, lower case. */
  target: string;
  kind: ProxyHistoryKind;
  transactionHash: string;
}

export interface ProxyRecordsTable {
  /** The proxy, lower case. */
  address: string;
  /** The first hop's logic contract. */
  implementation: string;
  /** The last hop's logic contract (whose ABI "Read/Write as Proxy" uses). */
  finalImplementation: string;
  pattern: string;
  /** JSON text: the whole detection (chain of hops, conflicts, beacon, admin, facets). */
  detection: string;
  blockNumber: number;
  checkedAt: number;
  receipt: string | null;
}

/** What a key's daily quotas count: verifications, proxy verifications, dry runs, and diagnoses of failures. */
export type QuotaKind = 'verify' | 'proxy' | 'dry_run' | 'diagnosis';

/** Submissions (or diagnoses) per key, kind and UTC day (`YYYY-MM-DD`). */
export interface DailyQuotasTable {
  apiKeyId: string;
  kind: QuotaKind;
  day: string;
  count: number;
}

export interface Database {
  apiKeys: ApiKeysTable;
  verificationJobs: VerificationJobsTable;
  verifiedContracts: VerifiedContractsTable;
  proxyRecords: ProxyRecordsTable;
  dailyQuotas: DailyQuotasTable;
  verificationHistory: VerificationHistoryTable;
  code: CodeTable;
  sources: SourcesTable;
  compilations: CompilationsTable;
  compilationSources: CompilationSourcesTable;
  compiledContracts: CompiledContractsTable;
  inputDocuments: InputDocumentsTable;
  deployments: DeploymentsTable;
  builds: BuildsTable;
  chainState: ChainStateTable;
  followedBlocks: FollowedBlocksTable;
  proxyHistory: ProxyHistoryTable;
  counters: CountersTable;
}
