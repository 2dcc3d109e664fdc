/**
 * Table types as Kysely sees them. Columns are snake_case in the database and camelCase
 * here (the store runs with Kysely's CamelCasePlugin). Timestamps are epoch milliseconds
 * in `bigint` columns, which behave the same on SQLite and PostgreSQL; JSON travels as text.
 */
import type { Generated } from 'kysely';

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

export type JobKind = 'source' | 'proxy';
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
}

export interface VerifiedContractsTable {
  address: string;
  contractName: string;
  sourcePath: string;
  compilerVersion: string;
  codeFormat: string;
  sourceCode: string;
  /** JSON text. */
  compilerInput: string;
  /** JSON text. */
  abi: string;
  metadata: string;
  /** 0 or 1. */
  optimizationUsed: number;
  runs: number;
  evmVersion: string;
  /** 0 or 1. */
  viaIr: number;
  constructorArguments: string;
  /** JSON text. */
  libraries: string;
  licenseType: number;
  matchKind: string;
  creationMatch: string | null;
  runtimeMatch: string | null;
  /** JSON text. */
  transformations: string;
  swarmSource: string;
  receipt: string | null;
  verifiedAt: number;
  /** 1 compared, 0 no creation found, null not recorded (written before this was kept). */
  creationCompared: number | null;
  /** 0 when nothing proved the constructor arguments. */
  constructorArgumentsKnown: Generated<number>;
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

export type QuotaKind = 'verify' | 'proxy';

/** Submissions per key, kind and UTC day (`YYYY-MM-DD`). */
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
}
