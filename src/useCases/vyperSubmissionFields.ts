/**
 * verifysourcecode's fields for Vyper: Etherscan's `vyper-json` (Vyper's standard JSON input
 * in sourceCode, `contractname` as `path:Name`, `path` or `Name`), or one `.vy` file
 * (`vyper-single-file`, or a single file named with a `vyper:` compiler) compiled with the
 * form's optimisation yes/no and EVM version. What would only fail the job later is refused
 * now, in Etherscan's words: Solidity in a vyper-json input, a solc version for Vyper sources,
 * a version that names no Vyper release, a name that designates no source.
 */
import { isSolproofError, SolproofError } from '../core/errors.js';
import { canonicalEvmVersion } from '../core/evmVersions.js';
import { knownAddress } from '../core/hex.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { VyperCodeFormat, VyperInput, VyperSubmission } from '../core/types.js';
import { knownVyperRelease, parseVyperVersion, readSubmittedVyperVersion } from '../core/vyperVersion.js';
import { errorSentence, submittedVyperVersionText, TEXT } from '../texts/index.js';
import { buildVyperInput, looksLikeVyperSource, parseVyperJsonText } from '../verify/index.js';
import {
  lowerFirst,
  type ParseResult,
  parseConstructorArguments,
  parseFlag,
  parseLicenseType,
  type SubmissionFields,
  standardJsonProblem,
} from './submissionFields.js';

const err = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** Solidity's marks in a source said to be Vyper: a `.sol` path, or its version pragma. */
const SOLIDITY_TEXT = /^\s*pragma\s+solidity\b/m;

/**
 * Reads a Vyper submission (the caller has checked the address and that sourceCode is not
 * empty). `solcReleases` tells a solc version apart from a Vyper one: both have 0.4.x releases.
 */
export function parseVyperSubmission(params: SubmissionFields, format: VyperCodeFormat, solcReleases?: ReleaseLookup): ParseResult<VyperSubmission> {
  const address = knownAddress(params.text('contractaddress'));
  const sourceCode = params.get('sourcecode') ?? '';

  const contractName = params.text('contractname');
  if (!contractName) return err(TEXT.missingParameter('contractname'));
  if (contractName.length > 1024) return err(TEXT.invalidParameter('contractname', 'too long'));

  const versionText = params.text('compilerversion');
  if (!versionText) return err(TEXT.missingParameter('compilerversion'));
  const read = readSubmittedVyperVersion(versionText, { lookup: knownVyperRelease, isSolcCommit: solcCommitCheck(solcReleases) });
  if (!read.ok) return err(TEXT.invalidParameter('compilerversion', lowerFirst(submittedVyperVersionText(read.error))));
  const version = parseVyperVersion(read.value.long);
  if (!version) return err(TEXT.invalidParameter('compilerversion', 'not a Vyper version'));

  const args = parseConstructorArguments(params);
  if (!args.ok) return args;
  const license = parseLicenseType(params);
  if (!license.ok) return license;
  const fields = { address, contractName, compilerVersion: versionText.slice(0, 80), constructorArguments: args.value, licenseType: license.value };

  let submission: VyperSubmission;
  let jsonInput: VyperInput | null = null;
  if (format === 'vyper-json') {
    try {
      jsonInput = parseVyperJsonText(sourceCode);
    } catch (e) {
      if (!isSolproofError(e, 'invalid_standard_json')) throw e;
      // A client that sends the `.vy` text itself under vyper-json: one file.
      if (e.details.problem !== 'not_json' || !looksLikeVyperSource(sourceCode)) {
        return err(e.details.problem === 'not_vyper' ? TEXT.invalidParameter('sourceCode', lowerFirst(errorSentence(e))) : standardJsonProblem(e));
      }
    }
  }
  if (jsonInput) {
    for (const [path, source] of Object.entries(jsonInput.sources)) {
      if (path.endsWith('.sol') || SOLIDITY_TEXT.test(source.content)) {
        return err(
          TEXT.invalidParameter(
            'sourceCode',
            lowerFirst(errorSentence(new SolproofError('invalid_standard_json', { problem: 'solidity_in_vyper_json', path: path.slice(0, 200) }))),
          ),
        );
      }
    }
    submission = { ...fields, codeFormat: 'vyper-json', vyperJson: jsonInput };
  } else {
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
    submission = {
      ...fields,
      codeFormat: 'vyper-single-file',
      sourceCode,
      optimizationUsed: optimization.value,
      evmVersion,
      ...(fileName !== undefined ? { fileName } : {}),
    };
  }
  // The input the job will compile: a name that designates no source is refused now.
  try {
    buildVyperInput(submission, version);
  } catch (e) {
    if (!isSolproofError(e)) throw e;
    if (e.code === 'contract_not_found_in_output') {
      if (e.details.problem === 'file_not_among_sources') {
        return err(TEXT.invalidParameter('contractname', `the file "${e.details.path.slice(0, 200)}" is not among the sources of the vyper-json input`));
      }
      return err(TEXT.invalidParameter('contractname', lowerFirst(errorSentence(e).slice(0, 300))));
    }
    return err(TEXT.invalidSubmission(errorSentence(e).slice(0, 300)));
  }
  return { ok: true, value: submission };
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
