/**
 * What a finished job kept, as it is stored: a versioned document tagged with its outcome, as
 * job requests are (`{version: 2, outcome, document}`), with one decoder. Rows of earlier
 * releases kept the document alone: the decoder tells those apart by the job's kind and their
 * fields. A document no release writes any more reads as `older`, and its job answers the text
 * it kept beside it.
 */
import type {
  BuildPassResult,
  FailureResult,
  JobResult,
  ProxyFoundResult,
  ProxyNotFoundResult,
  SourcePassResult,
  UnfinishedResult,
} from '../core/jobResults.js';
import { isListOf, isRecord, isString, optional } from '../core/json.js';
import type { MatchKind } from '../core/types.js';
import type { JobKind } from './database.js';

/** The version of the stored results that carry their outcome. */
export const JOB_RESULT_VERSION = 2;

/** The stored text of a result. */
export function encodeJobResult(result: JobResult): string {
  return JSON.stringify({ version: JOB_RESULT_VERSION, outcome: result.outcome, document: result.document });
}

/** The outcomes a job of each kind may end in (besides `older`). */
const OUTCOMES: Record<JobKind, readonly JobResult['outcome'][]> = {
  source: ['source_pass', 'failure', 'unfinished'],
  build: ['build_pass', 'failure', 'unfinished'],
  proxy: ['proxy_found', 'proxy_not_found', 'unfinished'],
};

/** Whether `document` is what `outcome` keeps. */
const SHAPES: Record<Exclude<JobResult['outcome'], 'older'>, (document: unknown) => boolean> = {
  source_pass: (d) => isSourcePass(d),
  build_pass: (d) => isBuildPass(d),
  proxy_found: (d) => isProxyFound(d),
  proxy_not_found: (d) => isProxyNotFound(d),
  failure: (d) => isFailure(d),
  unfinished: (d) => isUnfinished(d),
};

/**
 * Reads the stored result of a job of `kind`, written by any release; null when it kept none.
 * Never throws: a document it cannot tell (or text that is not JSON) reads as `older`.
 */
export function decodeJobResult(kind: JobKind, text: string | null): JobResult | null {
  if (text === null) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { outcome: 'older', document: text };
  }
  if (doc === null) return null;
  if (isRecord(doc) && doc['version'] === JOB_RESULT_VERSION && isString(doc['outcome'])) {
    const outcome = doc['outcome'] as JobResult['outcome'];
    const document = doc['document'];
    if (outcome !== 'older' && OUTCOMES[kind].includes(outcome) && SHAPES[outcome](document)) return { outcome, document } as JobResult;
    return { outcome: 'older', document };
  }
  // Earlier releases: the document alone.
  if (isFailure(doc)) return { outcome: 'failure', document: doc };
  if (isUnfinished(doc)) return { outcome: 'unfinished', document: doc };
  if (kind === 'source' && isSourcePass(doc)) return { outcome: 'source_pass', document: doc };
  if (kind === 'build' && isBuildPass(doc)) return { outcome: 'build_pass', document: doc };
  if (kind === 'proxy' && isProxyFound(doc)) return { outcome: 'proxy_found', document: doc };
  if (kind === 'proxy' && isProxyNotFound(doc)) return { outcome: 'proxy_not_found', document: doc };
  return { outcome: 'older', document: doc };
}

function isUnfinished(doc: unknown): doc is UnfinishedResult {
  return isRecord(doc) && isRecord(doc['error']) && typeof doc['error']['code'] === 'string' && typeof doc['error']['message'] === 'string';
}

function isFailure(doc: unknown): doc is FailureResult {
  if (!isRecord(doc) || typeof doc['code'] !== 'string' || !isRecord(doc['details'])) return false;
  const skipped = doc['diagnosisSkipped'];
  return (
    optional(doc['reasonCode'], isString) &&
    optional(doc['diagnosis'], (d) => isRecord(d) && isString(d['code']) && isRecord(d['facts'])) &&
    optional(skipped, (s) => isRecord(s) && s['code'] === 'diagnosis_quota_reached' && isRecord(s['details']))
  );
}

function isSourcePass(doc: unknown): doc is SourcePassResult {
  if (!isRecord(doc) || !isMatchKind(doc['matchKind']) || !isMatchKindOrNull(doc['creationMatch']) || !isMatchKindOrNull(doc['runtimeMatch'])) return false;
  return (
    ['dryRun', 'replaced', 'reusedCompilation', 'singleFile'].every((flag) => optional(doc[flag], (v) => v === true)) &&
    optional(doc['flatteningRepairs'], (v) => isListOf(v, (r) => typeof r['line'] === 'number' && isString(r['text']) && isString(r['why']))) &&
    optional(doc['metadataSettingsFromCode'], (v) => isListOf(v, (c) => isString(c['setting']) && isString(c['from']) && isString(c['to']))) &&
    optional(doc['licenseOverruled'], (v) => isRecord(v) && typeof v['chosen'] === 'number' && typeof v['published'] === 'number')
  );
}

function isBuildPass(doc: unknown): doc is BuildPassResult {
  return (
    isRecord(doc) &&
    isListOf(doc['contracts'], (c) => isString(c['path']) && isString(c['name'])) &&
    isListOf(doc['verified'], (v) => isString(v['address']) && isString(v['contractName']) && isString(v['sourcePath']) && isMatchKind(v['matchKind']))
  );
}

function isProxyFound(doc: unknown): doc is ProxyFoundResult {
  return isRecord(doc) && isString(doc['implementation']) && isString(doc['pattern']) && typeof doc['blockNumber'] === 'number';
}

function isProxyNotFound(doc: unknown): doc is ProxyNotFoundResult {
  return (
    isRecord(doc) &&
    isString(doc['reason']) &&
    optional(doc['expectedImplementation'], isString) &&
    optional(doc['candidates'], (v) => isListOf(v, (c) => isString(c['implementation'])))
  );
}

const isMatchKind = (v: unknown): v is MatchKind => v === 'full' || v === 'partial';
const isMatchKindOrNull = (v: unknown): boolean => v === null || isMatchKind(v);
