/**
 * What a job was asked to do, as it is stored: a versioned JSON document with one decoder.
 * Version 2 keeps a standard JSON submission's input parsed; the first version kept the
 * submitted text, which the decoder reads once when such a job is claimed. A Vyper submission
 * is a version 2 source request whose code format is `vyper-json` or `vyper-single-file`.
 */

import { withV } from '../core/compilerVersion.js';
import { SolproofError } from '../core/errors.js';
import { parseAddress } from '../core/hex.js';
import { isRecord } from '../core/json.js';
import type { AnySourceSubmission, CodeFormat, LibraryLink, ProxyRequest, SourceSubmission, VyperSubmission } from '../core/types.js';
import { type BuildFormat, unwrapStandardJson } from '../verify/index.js';
import type { JobKind } from './database.js';

/** A whole build to verify: every contract it compiles to, at every address that holds one. */
export interface BuildRequest {
  /** Long form without `v`. */
  compilerVersion: string;
  /** The standard JSON input, parsed. */
  input: Record<string, unknown>;
  /** What was submitted: a standard JSON input, or a Hardhat or Foundry build-info file. */
  format: BuildFormat;
}

/** A job's request: a source verification, a proxy detection, or a whole build. */
export type JobRequest =
  /** `dryRun`: verify and diagnose, publish nothing (no record, no stored compilation). */
  { kind: 'source'; submission: AnySourceSubmission; dryRun?: boolean } | { kind: 'proxy'; proxy: ProxyRequest } | { kind: 'build'; build: BuildRequest };

export const JOB_REQUEST_VERSION = 2;

/** The stored text of a request. */
export function encodeJobRequest(request: JobRequest): string {
  return JSON.stringify({ version: JOB_REQUEST_VERSION, ...request });
}

/** The address a request is about ('' for a build: it is about every address its contracts are at). */
export function jobRequestAddress(request: JobRequest): string {
  if (request.kind === 'source') return request.submission.address;
  if (request.kind === 'proxy') return request.proxy.address;
  return '';
}

const unreadable = (why: string) => new SolproofError('invalid_input', { problem: 'stored_request_unreadable', why });

/**
 * Reads a stored request of a job of `kind`, any version. Throws SolproofError
 * `invalid_input` when the document is not a request of that kind.
 */
export function decodeJobRequest(kind: JobKind, text: string): JobRequest {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw unreadable('not JSON');
  }
  if (!isRecord(doc)) throw unreadable('not an object');
  if (doc['version'] === JOB_REQUEST_VERSION) {
    if (doc['kind'] !== kind) throw unreadable(`a ${String(doc['kind'])} request in a ${kind} job`);
    if (kind === 'source') return { kind, submission: anySourceSubmission(doc['submission']), ...(doc['dryRun'] === true ? { dryRun: true } : {}) };
    if (kind === 'proxy') return { kind, proxy: proxyRequest(doc['proxy']) };
    return { kind, build: buildRequest(doc['build']) };
  }
  // Version 1: the submission or proxy request itself.
  if (kind === 'source') return { kind, submission: sourceSubmission(doc, true) };
  if (kind === 'proxy') return { kind, proxy: proxyRequest(doc) };
  throw unreadable('a build request without a version');
}

const BUILD_FORMATS: readonly BuildFormat[] = ['standard-json', 'hardhat-build-info', 'foundry-build-info'];

function buildRequest(value: unknown): BuildRequest {
  if (!isRecord(value)) throw unreadable('no build');
  const { compilerVersion, input, format } = value;
  if (typeof compilerVersion !== 'string') throw unreadable('no compilerVersion');
  if (!isRecord(input)) throw unreadable('no standard JSON input');
  if (!BUILD_FORMATS.includes(format as BuildFormat)) throw unreadable('unknown build format');
  return { compilerVersion, input, format: format as BuildFormat };
}

function proxyRequest(value: unknown): ProxyRequest {
  const address = isRecord(value) && typeof value['address'] === 'string' ? parseAddress(value['address']) : null;
  if (address === null) throw unreadable('no proxy address');
  const given = (value as Record<string, unknown>)['expectedImplementation'];
  const expected = typeof given === 'string' ? parseAddress(given) : null;
  if (given !== undefined && expected === null) throw unreadable('bad expected implementation');
  return { address, ...(expected !== null ? { expectedImplementation: expected } : {}) };
}

/** A version 2 source submission: Vyper's by its code format, else Solidity's. */
function anySourceSubmission(value: unknown): AnySourceSubmission {
  if (isRecord(value) && (value['codeFormat'] === 'vyper-json' || value['codeFormat'] === 'vyper-single-file')) return vyperSubmission(value);
  return sourceSubmission(value, false);
}

function vyperSubmission(value: Record<string, unknown>): VyperSubmission {
  const text = (name: string): string => {
    const v = value[name];
    if (typeof v !== 'string') throw unreadable(`no ${name}`);
    return v;
  };
  const address = parseAddress(text('address'));
  if (address === null) throw unreadable('bad address');
  const licenseType = value['licenseType'];
  if (typeof licenseType !== 'number' || !Number.isInteger(licenseType)) throw unreadable('no licenseType');
  const fields = {
    address,
    contractName: text('contractName'),
    compilerVersion: text('compilerVersion'),
    constructorArguments: text('constructorArguments'),
    licenseType,
  };
  if (value['codeFormat'] === 'vyper-json') {
    const vyperJson = value['vyperJson'];
    if (!isRecord(vyperJson) || vyperJson['language'] !== 'Vyper' || !isRecord(vyperJson['sources'])) throw unreadable('no Vyper JSON input');
    return { ...fields, codeFormat: 'vyper-json', vyperJson: vyperJson as never };
  }
  const optimizationUsed = value['optimizationUsed'];
  if (typeof optimizationUsed !== 'boolean') throw unreadable('no optimizationUsed');
  const fileName = value['fileName'];
  if (fileName !== undefined && typeof fileName !== 'string') throw unreadable('bad fileName');
  return {
    ...fields,
    codeFormat: 'vyper-single-file',
    sourceCode: text('sourceCode'),
    optimizationUsed,
    evmVersion: text('evmVersion'),
    ...(fileName !== undefined ? { fileName } : {}),
  };
}

function sourceSubmission(value: unknown, legacy: boolean): SourceSubmission {
  if (!isRecord(value)) throw unreadable('no submission');
  const text = (name: string): string => {
    const v = value[name];
    if (typeof v !== 'string') throw unreadable(`no ${name}`);
    return v;
  };
  const flag = (name: string): boolean => {
    const v = value[name];
    if (typeof v !== 'boolean') throw unreadable(`no ${name}`);
    return v;
  };
  const number = (name: string): number => {
    const v = value[name];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw unreadable(`no ${name}`);
    return v;
  };
  const address = parseAddress(text('address'));
  if (address === null) throw unreadable('bad address');
  const libraries = value['libraries'];
  if (!Array.isArray(libraries) || !libraries.every((l) => isRecord(l) && typeof l['name'] === 'string' && typeof l['address'] === 'string')) {
    throw unreadable('bad libraries');
  }
  const fields = {
    address,
    contractName: text('contractName'),
    compilerVersion: withV(text('compilerVersion')),
    optimizationUsed: flag('optimizationUsed'),
    runs: number('runs'),
    constructorArguments: text('constructorArguments'),
    evmVersion: text('evmVersion'),
    licenseType: number('licenseType'),
    libraries: libraries as LibraryLink[],
    viaIR: flag('viaIR'),
  };
  const codeFormat = text('codeFormat') as CodeFormat;
  if (codeFormat === 'solidity-single-file') return { ...fields, codeFormat, sourceCode: text('sourceCode') };
  if (codeFormat !== 'solidity-standard-json-input') throw unreadable(`unknown code format ${codeFormat}`);
  if (!legacy) {
    const standardJson = value['standardJson'];
    if (!isRecord(standardJson)) throw unreadable('no standard JSON input');
    return { ...fields, codeFormat, standardJson: standardJson as never };
  }
  let standardJson: unknown;
  try {
    standardJson = JSON.parse(unwrapStandardJson(text('sourceCode')));
  } catch {
    throw unreadable('its standard JSON input is not JSON');
  }
  if (!isRecord(standardJson)) throw unreadable('its standard JSON input is not an object');
  return { ...fields, codeFormat, standardJson: standardJson as never };
}
