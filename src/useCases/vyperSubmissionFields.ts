/**
 * verifysourcecode's fields for Vyper: Etherscan's `vyper-json` (Vyper's standard JSON input
 * in sourceCode, `contractname` as `path:Name`, `path` or `Name`), or one `.vy` file
 * (`vyper-single-file`, or a single file named with a `vyper:` compiler) compiled with the
 * form's optimisation yes/no and EVM version. What would only fail the job later is refused
 * now: Solidity in a vyper-json input, a solc version for Vyper sources, a version that names
 * no Vyper release, a name that designates no source. readVyperJsonSubmission decides for a
 * Vyper standard JSON input whichever door sent it (Sourcify's too); each door words the problem.
 */
import { isSolproofError, SolproofError } from '../core/errors.js';
import { canonicalEvmVersion } from '../core/evmVersions.js';
import { knownAddress } from '../core/hex.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { Address, VyperCodeFormat, VyperInput, VyperJsonSubmission, VyperSingleFileSubmission, VyperSubmission } from '../core/types.js';
import { knownVyperRelease, parseVyperVersion, readSubmittedVyperVersion, type VyperVersion } from '../core/vyperVersion.js';
import { errorSentence, submittedVyperVersionText, TEXT } from '../texts/index.js';
import { buildVyperInput, checkVyperJsonInput, looksLikeVyperSource, unwrapStandardJson } from '../verify/index.js';
import { lowerFirst, type ParseResult, parseConstructorArguments, parseFlag, parseLicenseType, type SubmissionFields } from './submissionFields.js';

const err = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Solidity's marks in a source said to be Vyper: a `.sol` path, or its version pragma. */
const SOLIDITY_TEXT = /^\s*pragma\s+solidity\b/m;

/** Which field of a Vyper submission a problem concerns (null: the submission as a whole); each door names it its own way. */
export type VyperField = 'contract' | 'compilerVersion' | 'input' | null;

/** Why a Vyper submission cannot be verified, as a door words it: `problem` is a lower-case clause. */
export interface VyperProblem {
  field: VyperField;
  problem: string;
}

export type VyperReadResult<T> = { ok: true; value: T } | { ok: false; problem: VyperProblem };

/** What every door's Vyper standard JSON submission says: the input as parsed JSON, not yet checked. */
export interface VyperJsonRequest {
  address: Address;
  /** `path:Name`, `path` or `Name` (a Vyper contract is named after its file). */
  contractName: string;
  /** As the client spelt it: `vyper:0.4.3`, `0.4.3+commit.bff19ea2`... */
  compilerVersion: string;
  input: unknown;
  /** Hex without 0x; '' when none were given (the job reads them from the creation). */
  constructorArguments: string;
  licenseType: number;
}

const problem = (field: VyperField, text: string): { ok: false; problem: VyperProblem } => ({ ok: false, problem: { field, problem: text } });

/**
 * A Vyper standard JSON submission (Etherscan's `vyper-json`, Sourcify's `stdJsonInput` with
 * `"language": "Vyper"`) read into the service's own, or the problem and the field it concerns:
 * a version that names no Vyper release (or names solc), an input that is not Vyper's or holds
 * Solidity, a name that designates no source. `solcReleases` tells a solc version apart.
 */
export function readVyperJsonSubmission(request: VyperJsonRequest, solcReleases?: ReleaseLookup): VyperReadResult<VyperJsonSubmission> {
  const version = readVersion(request.compilerVersion, solcReleases);
  if (!version.ok) return version;
  let vyperJson: VyperInput;
  try {
    vyperJson = checkVyperJsonInput(request.input);
  } catch (e) {
    if (!isSolproofError(e, 'invalid_standard_json')) throw e;
    if (e.details.problem === 'not_an_object') return problem('input', 'the standard JSON input is not a JSON object');
    return problem('input', lowerFirst(errorSentence(e).slice(0, 300)));
  }
  for (const [path, source] of Object.entries(vyperJson.sources)) {
    if (path.endsWith('.sol') || SOLIDITY_TEXT.test(source.content)) {
      return problem(
        'input',
        lowerFirst(errorSentence(new SolproofError('invalid_standard_json', { problem: 'solidity_in_vyper_json', path: path.slice(0, 200) }))),
      );
    }
  }
  const submission: VyperJsonSubmission = {
    address: request.address,
    contractName: request.contractName,
    compilerVersion: request.compilerVersion.slice(0, 80),
    constructorArguments: request.constructorArguments,
    licenseType: request.licenseType,
    codeFormat: 'vyper-json',
    vyperJson,
  };
  const built = checkBuilds(submission, version.value);
  return built ?? { ok: true, value: submission };
}

/** Etherscan's name of each field of a Vyper submission. */
const ETHERSCAN_FIELDS: Record<Exclude<VyperField, null>, string> = { contract: 'contractname', compilerVersion: 'compilerversion', input: 'sourceCode' };

/** A problem in Etherscan's words. */
function etherscanText(p: VyperProblem): { ok: false; error: string } {
  return err(p.field === null ? TEXT.invalidSubmission(p.problem) : TEXT.invalidParameter(ETHERSCAN_FIELDS[p.field], p.problem));
}

/**
 * Reads verifysourcecode's fields of a Vyper submission (the caller has checked the address
 * and that sourceCode is not empty), in Etherscan's words.
 */
export function parseVyperSubmission(params: SubmissionFields, format: VyperCodeFormat, solcReleases?: ReleaseLookup): ParseResult<VyperSubmission> {
  const address = knownAddress(params.text('contractaddress'));
  const sourceCode = params.get('sourcecode') ?? '';

  const contractName = params.text('contractname');
  if (!contractName) return err(TEXT.missingParameter('contractname'));
  if (contractName.length > 1024) return err(TEXT.invalidParameter('contractname', 'too long'));

  const versionText = params.text('compilerversion');
  if (!versionText) return err(TEXT.missingParameter('compilerversion'));
  const version = readVersion(versionText, solcReleases);
  if (!version.ok) return etherscanText(version.problem);

  const args = parseConstructorArguments(params);
  if (!args.ok) return args;
  const license = parseLicenseType(params);
  if (!license.ok) return license;
  const fields = { address, contractName, compilerVersion: versionText.slice(0, 80), constructorArguments: args.value, licenseType: license.value };

  if (format === 'vyper-json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(unwrapStandardJson(sourceCode));
    } catch {
      // A client that sends the `.vy` text itself under vyper-json: one file.
      if (!looksLikeVyperSource(sourceCode)) return err(TEXT.invalidParameter('sourceCode', 'the standard JSON input is not a JSON object'));
      parsed = undefined;
    }
    if (parsed !== undefined) {
      const read = readVyperJsonSubmission({ ...fields, input: parsed }, solcReleases);
      return read.ok ? read : etherscanText(read.problem);
    }
  }
  if (SOLIDITY_TEXT.test(sourceCode)) {
    return err(TEXT.invalidParameter('sourceCode', 'this is Solidity, not Vyper: send it as solidity-single-file with a solc version'));
  }
  const optimization = parseFlag(params, 'optimizationused', true);
  if (!optimization.ok) return optimization;
  let evmVersion = '';
  const evmText = params.text('evmversion');
  if (evmText !== '' && evmText.toLowerCase() !== 'default') {
    const canonical = canonicalEvmVersion(evmText);
    if (!canonical) return err(TEXT.invalidParameter('evmversion', `unknown EVM version "${evmText.slice(0, 32)}"`));
    evmVersion = canonical;
  }
  const colon = contractName.lastIndexOf(':');
  const fileName = colon > 0 ? contractName.slice(0, colon) : contractName.endsWith('.vy') ? contractName : undefined;
  const submission: VyperSingleFileSubmission = {
    ...fields,
    codeFormat: 'vyper-single-file',
    sourceCode,
    optimizationUsed: optimization.value,
    evmVersion,
    ...(fileName !== undefined ? { fileName } : {}),
  };
  const built = checkBuilds(submission, version.value);
  return built ? etherscanText(built.problem) : { ok: true, value: submission };
}

/** A submitted Vyper compiler version, read: a release the service can compile with, or why not. */
function readVersion(text: string, solcReleases?: ReleaseLookup): VyperReadResult<VyperVersion> {
  const read = readSubmittedVyperVersion(text, { lookup: knownVyperRelease, isSolcCommit: solcCommitCheck(solcReleases) });
  if (!read.ok) return problem('compilerVersion', lowerFirst(submittedVyperVersionText(read.error)));
  const version = parseVyperVersion(read.value.long);
  if (!version) return problem('compilerVersion', 'not a Vyper version');
  return { ok: true, value: version };
}

/** The input the job will compile: a name that designates no source is refused now. Null when it builds. */
function checkBuilds(submission: VyperSubmission, version: VyperVersion): { ok: false; problem: VyperProblem } | null {
  try {
    buildVyperInput(submission, version);
    return null;
  } catch (e) {
    if (!isSolproofError(e)) throw e;
    if (e.code === 'contract_not_found_in_output') {
      if (e.details.problem === 'file_not_among_sources') {
        return problem('contract', `the file "${e.details.path.slice(0, 200)}" is not among the sources of the vyper-json input`);
      }
      return problem('contract', lowerFirst(errorSentence(e).slice(0, 300)));
    }
    return problem(null, errorSentence(e).slice(0, 300));
  }
}

/** Whether `version` with `commit` is a solc release (by the service's table of solc releases). */
function solcCommitCheck(releases?: ReleaseLookup): (version: string, commit: string) => boolean {
  return (version, commit) => {
    const known = releases?.(version);
    if (!known) return false;
    const hex = known.longVersion.slice(known.longVersion.indexOf('commit.') + 7).toLowerCase();
    const given = commit.toLowerCase();
    return given.length >= 7 && (given.length >= hex.length ? given.startsWith(hex) : hex.startsWith(given));
  };
}
