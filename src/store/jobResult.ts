/**
 * What a finished job kept, as it is stored: the result's document alone, with one decoder. The
 * document is what every release since the first wrote (and what `/receipt/<guid>.json` shows),
 * so the decoder tells the documents apart by the job's kind and their fields; a document no
 * later release writes reads as `older`, and its job answers the text it kept beside it.
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
import type { JobKind } from './database.js';

/** The stored text of a result. */
export function encodeJobResult(result: JobResult): string {
  return JSON.stringify(result.document);
}

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
  return optional(doc['reasonCode'], isString) && optional(skipped, (s) => isRecord(s) && s['code'] === 'diagnosis_quota_reached' && isRecord(s['details']));
}

function isSourcePass(doc: unknown): doc is SourcePassResult {
  if (!isRecord(doc) || !isString(doc['matchKind']) || !isStringOrNull(doc['creationMatch']) || !isStringOrNull(doc['runtimeMatch'])) return false;
  return (
    ['dryRun', 'replaced', 'reusedCompilation'].every((flag) => optional(doc[flag], (v) => v === true)) &&
    optional(doc['flatteningRepairs'], (v) => isListOf(v, (r) => typeof r['line'] === 'number' && isString(r['text']) && isString(r['why']))) &&
    optional(doc['metadataSettingsFromCode'], (v) => isListOf(v, (c) => isString(c['setting']) && isString(c['from']) && isString(c['to']))) &&
    optional(doc['licenseOverruled'], (v) => isRecord(v) && typeof v['chosen'] === 'number' && typeof v['published'] === 'number')
  );
}

function isBuildPass(doc: unknown): doc is BuildPassResult {
  return (
    isRecord(doc) &&
    isListOf(doc['contracts'], (c) => isString(c['path']) && isString(c['name'])) &&
    isListOf(doc['verified'], (v) => isString(v['address']) && isString(v['contractName']) && isString(v['sourcePath']) && isString(v['matchKind']))
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

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
const optional = (v: unknown, check: (v: unknown) => boolean): boolean => v === undefined || check(v);

function isListOf(v: unknown, check: (item: Record<string, unknown>) => boolean): boolean {
  return Array.isArray(v) && v.every((item) => isRecord(item) && check(item));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
