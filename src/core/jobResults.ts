/**
 * What a finished job keeps as its result: codes and facts, never a client text. The edge
 * (src/texts/jobs.ts) words them when a receipt is read, so every client gets the form it
 * reads, and a better wording reaches old receipts too.
 */
import type { SettingChange, StoredDiagnosis } from './diagnosis.js';
import { type ErrorDetails, type ErrorFacts, type FlatteningRepairFact, isSolproofError } from './errors.js';
import type { MatchKind } from './types.js';

/** A verification that passed: how it matched. */
export interface SourcePassResult {
  matchKind: MatchKind;
  creationMatch: MatchKind | null;
  /** Null in the results of early releases, which passed a creation-only match. */
  runtimeMatch: MatchKind | null;
  /** A dry run: nothing was published. */
  dryRun?: true;
  /** It replaced a weaker record. */
  replaced?: true;
  /** The compilation came from the bytecode database: nothing was compiled. */
  reusedCompilation?: true;
  /** Sent as a single file (its file name and imports are not the build's: a partial match is the most it usually gets). */
  singleFile?: true;
  flatteningRepairs?: FlatteningRepairFact[];
  /** Metadata settings read from the deployed code (it has no metadata hash) that were compiled instead of the submission's. */
  metadataSettingsFromCode?: MetadataSettingFromCode[];
  /** A licence code the submission chose that the source's SPDX line overruled (the published one). */
  licenseOverruled?: { chosen: number; published: number };
  /** Why a Vyper match is only partial: `integrity_differs`, `no_source_hash`, `creation_not_found` (verify's VyperPartialReason). */
  partialBecause?: string;
}

/** A metadata setting read from deployed code without a metadata hash, compiled instead of the submitted one. */
export type MetadataSettingFromCode = SettingChange;

/** A whole build that compiled: its contracts, and the addresses verified as one of them when it ran. */
export interface BuildPassResult {
  contracts: { path: string; name: string }[];
  verified: { address: string; contractName: string; sourcePath: string; matchKind: MatchKind }[];
}

/** A verification or build that failed with a verdict: the error's code and facts, and the diagnosis of a source failure. */
export type FailureResult = ErrorFacts & {
  /** A stable code per failure family (see texts/diagnosis.ts). */
  reasonCode?: string;
  /** The diagnosis of the failure: what was found and the fix, if any. */
  diagnosis?: StoredDiagnosis;
  /** Why the failure has no diagnosis although it could have had one. */
  diagnosisSkipped?: { code: 'diagnosis_quota_reached'; details: ErrorDetails['diagnosis_quota_reached'] };
};

/**
 * A job that ended without a verdict of its own: its attempts ran out (the node stayed down,
 * a worker kept dying) or its handler failed unexpectedly. `message` is the last error as
 * `storedError` keeps it.
 */
export interface UnfinishedResult {
  error: { code: string; message: string };
}

/** A proxy job's implementation, found at one pinned block. */
export interface ProxyFoundResult {
  implementation: string;
  pattern: string;
  blockNumber: number;
}

/** Why a proxy job found no implementation (or not the expected one). */
export interface ProxyNotFoundResult {
  reason: string;
  expectedImplementation?: string;
  candidates?: { implementation: string }[];
}

/** A proxy job's result: the implementation found, or why none was. */
export type ProxyResult = ProxyFoundResult | ProxyNotFoundResult;

/**
 * What a finished job kept, as read back: its document, tagged with what it is. The store keeps
 * the document alone (it is what `/receipt/<guid>.json` shows as `result`, and what earlier
 * releases wrote), and store/jobResult.ts is the one place that tells the documents apart.
 * A source job ends in `source_pass`, `failure` or `unfinished`; a build in `build_pass`,
 * `failure` or `unfinished`; a proxy job in `proxy_found`, `proxy_not_found` or `unfinished`.
 * `older` is a document of an earlier release that no later one writes (a build's compiler
 * errors, an unreadable request's text): such a job answers the text it kept beside it.
 */
export type JobResult =
  | { outcome: 'source_pass'; document: SourcePassResult }
  | { outcome: 'build_pass'; document: BuildPassResult }
  | { outcome: 'proxy_found'; document: ProxyFoundResult }
  | { outcome: 'proxy_not_found'; document: ProxyNotFoundResult }
  | { outcome: 'failure'; document: FailureResult }
  | { outcome: 'unfinished'; document: UnfinishedResult }
  | { outcome: 'older'; document: unknown };

/** A job's last error as the job keeps it (`lastError`, an unfinished job's message): the facts as JSON, or the text of an error that has none. */
export function storedError(e: unknown): string {
  if (isSolproofError(e)) return JSON.stringify({ code: e.code, details: e.details });
  return (e instanceof Error ? e.message : String(e)).slice(0, 2000);
}

/** The facts `storedError` kept, or null for a plain text (or a job that kept none). */
export function storedErrorFacts(stored: string | null | undefined): ErrorFacts | null {
  if (!stored?.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(stored) as { code?: unknown; details?: unknown };
    return typeof parsed.code === 'string' && typeof parsed.details === 'object' && parsed.details !== null ? (parsed as ErrorFacts) : null;
  } catch {
    return null;
  }
}
