import { compareVersions, readSubmittedVersion } from '../core/compilerVersion.js';
import { type AnySolproofError, isSolproofError, SolproofError } from '../core/errors.js';
import { canonicalEvmVersion, compilerKnowsEvmVersion } from '../core/evmVersions.js';
import { isAddress, knownAddress, parseHexBytes } from '../core/hex.js';
import { LICENSES } from '../core/licenses.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { AnySourceSubmission, CodeFormat, LibraryLink, SourceSubmission } from '../core/types.js';
import { namesVyper } from '../core/vyperVersion.js';
import { errorSentence, submittedVersionText, TEXT } from '../texts/index.js';
import { buildSolcInput, looksLikeVyperSource, parseStandardJsonText, resolveSourcePath, splitQualifiedName } from '../verify/index.js';
import { parseVyperSubmission } from './vyperSubmissionFields.js';

/**
 * The fields of Etherscan's verifysourcecode as a request carries them: /api reads them from
 * the query and the body, the explorer's Verify & Publish form sends the same fields. Names are
 * matched case-insensitively.
 */
export interface SubmissionFields {
  /** The value, or undefined when absent. */
  get(name: string): string | undefined;
  /** The trimmed value, '' when absent. */
  text(name: string): string;
  has(name: string): boolean;
}

export const MAX_LIBRARIES = 10;
const CODE_FORMATS: readonly CodeFormat[] = ['solidity-single-file', 'solidity-standard-json-input'];
/** Every code format verifysourcecode reads: Solidity's, `vyper-json`, and one `.vy` file (`vyper-single-file`). */
const ALL_CODE_FORMATS: readonly string[] = [...CODE_FORMATS, 'vyper-json', 'vyper-single-file'];

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

const err = (error: string): { ok: false; error: string } => ({ ok: false, error });

export function parseFlag(params: SubmissionFields, name: string, fallback: boolean): ParseResult<boolean> {
  const raw = params.text(name).toLowerCase();
  if (raw === '') return { ok: true, value: fallback };
  if (raw === '1' || raw === 'true') return { ok: true, value: true };
  if (raw === '0' || raw === 'false') return { ok: true, value: false };
  return err(TEXT.invalidParameter(name, 'expected 0 or 1'));
}

/** The form's libraries, and for each the number of its `librarynameN` field. */
function parseLibraries(params: SubmissionFields): ParseResult<{ links: LibraryLink[]; fields: number[] }> {
  const libraries: LibraryLink[] = [];
  const fields: number[] = [];
  for (let i = 1; i <= 20; i++) {
    const name = params.text(`libraryname${i}`);
    const address = params.text(`libraryaddress${i}`);
    if (!name && !address) continue;
    if (i > MAX_LIBRARIES) return err(TEXT.invalidParameter(`libraryname${i}`, `at most ${MAX_LIBRARIES} libraries are accepted`));
    if (!name) return err(TEXT.invalidParameter(`libraryaddress${i}`, `it has no libraryname${i} to go with it`));
    if (!address) return err(TEXT.invalidParameter(`libraryname${i}`, `it has no libraryaddress${i} to go with it`));
    if (!isAddress(address)) return err(TEXT.invalidParameter(`libraryaddress${i}`, 'not a 20-byte hex address'));
    if (name.length > 256 || !/^[A-Za-z0-9_$./:@-]+$/.test(name)) {
      return err(TEXT.invalidParameter(`libraryname${i}`, 'not a library name'));
    }
    libraries.push({ name, address: knownAddress(address) });
    fields.push(i);
  }
  return { ok: true, value: { links: libraries, fields } };
}

/** constructorArguments (or Etherscan's `constructorArguements`) as hex without 0x. */
export function parseConstructorArguments(params: SubmissionFields): ParseResult<string> {
  const argsName = params.has('constructorarguements') ? 'constructorArguements' : 'constructorArguments';
  const constructorArguments = parseHexBytes(params.get(argsName) ?? '');
  if (constructorArguments === null) return err(TEXT.invalidParameter(argsName, 'expected hex bytes'));
  return { ok: true, value: constructorArguments };
}

/** licenseType: an Etherscan licence code, 0 when none was given. */
export function parseLicenseType(params: SubmissionFields): ParseResult<number> {
  const licenseText = params.text('licensetype');
  if (licenseText === '') return { ok: true, value: 0 };
  if (!/^\d{1,2}$/.test(licenseText) || !LICENSES[Number(licenseText)]) {
    return err(TEXT.invalidParameter('licenseType', 'expected a licence code from 1 to 14'));
  }
  return { ok: true, value: Number(licenseText) };
}

/**
 * Reads verifysourcecode's fields into a submission, or names the first problem found (in
 * Etherscan's words: both /api and the form answer with them). `releases` says which commit
 * each known solc release has. Vyper (`vyper-json`, one `.vy` file, or a single file named
 * with a `vyper:` compiler) is read by parseVyperSubmission; Vyper sent as Solidity and
 * Solidity named with a Vyper compiler are refused, saying so.
 */
export function parseSourceSubmission(params: SubmissionFields, releases?: ReleaseLookup): ParseResult<AnySourceSubmission> {
  const address = params.text('contractaddress');
  if (!address) return err(TEXT.missingParameter('contractaddress'));
  if (!isAddress(address)) return err(TEXT.invalidAddress);

  const sourceCode = params.get('sourcecode') ?? '';
  if (!sourceCode.trim()) return err(TEXT.missingParameter('sourceCode'));

  const formatText = params.text('codeformat') || 'solidity-single-file';
  const format = formatText.toLowerCase();
  if (format === 'vyper-json') return parseVyperSubmission(params, 'vyper-json', releases);
  if (format === 'vyper-single-file') return parseVyperSubmission(params, 'vyper-single-file', releases);
  const codeFormat = CODE_FORMATS.find((f) => f === format);
  if (!codeFormat) {
    return err(TEXT.invalidParameter('codeformat', `"${formatText.slice(0, 64)}" is not one of ${ALL_CODE_FORMATS.join(', ')}`));
  }
  const versionGiven = params.text('compilerversion');
  if (codeFormat === 'solidity-single-file' && looksLikeVyperSource(sourceCode)) {
    // Etherscan's single Vyper file: the source and a `vyper:` compiler say it is Vyper.
    if (namesVyper(versionGiven)) return parseVyperSubmission(params, 'vyper-single-file', releases);
    return err(errorSentence(new SolproofError('invalid_input', { problem: 'vyper_source_as_solidity', compilerVersion: versionGiven.slice(0, 80) })));
  }
  // Vyper's JSON input under Solidity's code format (hardhat-verify sends every input so): it is
  // vyper-json, whatever the version's spelling; a solc version for it is refused there, saying so.
  if (codeFormat === 'solidity-standard-json-input' && /"language"\s*:\s*"Vyper"/.test(sourceCode)) return parseVyperSubmission(params, 'vyper-json', releases);
  if (namesVyper(versionGiven)) {
    return err(errorSentence(new SolproofError('invalid_input', { problem: 'vyper_version_for_solidity', compilerVersion: versionGiven.slice(0, 80) })));
  }
  return parseSoliditySubmission(params, codeFormat, sourceCode, releases);
}

function parseSoliditySubmission(
  params: SubmissionFields,
  codeFormat: CodeFormat,
  sourceCode: string,
  releases?: ReleaseLookup,
): ParseResult<SourceSubmission> {
  const address = params.text('contractaddress');

  const contractName = params.text('contractname');
  if (!contractName) return err(TEXT.missingParameter('contractname'));
  if (contractName.length > 1024) return err(TEXT.invalidParameter('contractname', 'too long'));
  if (codeFormat === 'solidity-standard-json-input') {
    const colon = contractName.lastIndexOf(':');
    if (colon <= 0 || colon === contractName.length - 1) {
      return err(TEXT.invalidParameter('contractname', 'for standard JSON input it must be path:Name, e.g. contracts/Token.sol:Token'));
    }
  } else if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(contractName.split(':').pop() ?? '')) {
    return err(TEXT.invalidParameter('contractname', 'not a contract name'));
  }

  const versionText = params.text('compilerversion');
  if (!versionText) return err(TEXT.missingParameter('compilerversion'));
  const parsedVersion = readSubmittedVersion(versionText, releases);
  if (!parsedVersion.ok) return err(submittedVersionText(parsedVersion.error));
  const version = parsedVersion.value;
  if (compareVersions(version.short, '0.4.11') < 0) {
    return err(TEXT.invalidParameter('compilerversion', 'compilers older than v0.4.11 are not supported'));
  }

  const optimization = parseFlag(params, 'optimizationused', false);
  if (!optimization.ok) return optimization;
  const runsText = params.text('runs');
  let runs = 200;
  if (runsText !== '') {
    if (!/^\d{1,10}$/.test(runsText) || Number(runsText) > 4294967295) {
      return err(TEXT.invalidParameter('runs', 'expected a whole number from 0 to 4294967295'));
    }
    runs = Number(runsText);
  }

  const args = parseConstructorArguments(params);
  if (!args.ok) return args;
  const constructorArguments = args.value;

  let evmVersion = '';
  const evmText = params.text('evmversion');
  if (evmText !== '' && evmText.toLowerCase() !== 'default') {
    const canonical = canonicalEvmVersion(evmText);
    if (!canonical) return err(TEXT.invalidParameter('evmversion', `unknown EVM version "${evmText.slice(0, 32)}"`));
    if (!compilerKnowsEvmVersion(version.short, canonical)) {
      return err(TEXT.invalidParameter('evmversion', `compiler ${version.long} does not know the EVM version ${canonical}`));
    }
    evmVersion = canonical;
  }

  const license = parseLicenseType(params);
  if (!license.ok) return license;
  const licenseType = license.value;

  const libraries = parseLibraries(params);
  if (!libraries.ok) return libraries;
  const viaIR = parseFlag(params, 'viair', false);
  if (!viaIR.ok) return viaIR;

  const fields = {
    address: knownAddress(address),
    contractName,
    compilerVersion: version.long,
    optimizationUsed: optimization.value,
    runs,
    constructorArguments,
    evmVersion,
    licenseType,
    libraries: libraries.value.links,
    viaIR: viaIR.value,
  };
  let submission: SourceSubmission;
  if (codeFormat === 'solidity-standard-json-input') {
    // The one time the standard JSON text is parsed: the job keeps the parsed input.
    try {
      submission = { ...fields, codeFormat, standardJson: parseStandardJsonText(sourceCode) };
    } catch (e) {
      if (!isSolproofError(e)) throw e;
      if (isSolproofError(e, 'invalid_standard_json') && e.details.problem === 'not_solidity' && e.details.language === '"Vyper"') {
        return err(TEXT.invalidParameter('codeformat', lowerFirst(errorSentence(e))));
      }
      return err(standardJsonProblem(e));
    }
  } else {
    submission = { ...fields, codeFormat, sourceCode };
  }
  const problem = checkCompilerInput(submission, libraries.value.fields);
  if (problem) return err(problem);
  return { ok: true, value: submission };
}

export const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** The sourceCode field's text for a standard JSON input that cannot be used. */
export function standardJsonProblem(e: AnySolproofError): string {
  if (e.code === 'invalid_standard_json') {
    if (e.details.problem === 'not_json' || e.details.problem === 'not_an_object') {
      return TEXT.invalidParameter('sourceCode', 'the standard JSON input is not a JSON object');
    }
    // The sentences quote the user's source paths: keep the echo short.
    return TEXT.invalidParameter('sourceCode', lowerFirst(errorSentence(e).slice(0, 300)));
  }
  return TEXT.invalidSubmission(errorSentence(e).slice(0, 300));
}

/**
 * Builds the compiler input the job would build, so that what would only fail the job later
 * (standard JSON that is not JSON, has no sources, uses `urls`, names a file outside
 * `sources`; conflicting libraries) is refused now with the field it concerns.
 */
function checkCompilerInput(submission: SourceSubmission, libraryFields: number[]): string | null {
  let sources: Record<string, unknown>;
  try {
    sources = buildSolcInput(submission).input.sources;
  } catch (e) {
    if (!isSolproofError(e)) throw e;
    if (e.code === 'invalid_standard_json') return standardJsonProblem(e);
    if (e.code === 'contract_not_found_in_output') {
      if (e.details.problem !== 'file_not_among_sources') return TEXT.invalidParameter('contractname', lowerFirst(errorSentence(e).slice(0, 300)));
      return TEXT.invalidParameter('contractname', `the file "${e.details.path.slice(0, 200)}" is not among the sources of the standard JSON input`);
    }
    return TEXT.invalidSubmission(errorSentence(e).slice(0, 300));
  }
  if (submission.codeFormat !== 'solidity-standard-json-input') return null;
  for (const [i, link] of submission.libraries.entries()) {
    const { path } = splitQualifiedName(link.name);
    if (path !== null && resolveSourcePath(sources, path) === null) {
      return TEXT.invalidParameter(`libraryname${libraryFields[i]}`, `the file "${path.slice(0, 200)}" is not among the sources of the standard JSON input`);
    }
  }
  return null;
}
