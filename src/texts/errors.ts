/**
 * What an error's code and facts say to a person: the one place that turns SolproofError codes
 * into sentences. `errorSentence` is the plain description (what went wrong, in the facts'
 * words); `verdictReason` is what a failed verification answers after `Fail - Unable to verify.`
 * (Etherscan's own reason where Etherscan has one, for clients that know them).
 */

import type { SubmittedVersionProblem } from '../core/compilerVersion.js';
import { withV } from '../core/compilerVersion.js';
import type {
  CompilerCrashFacts,
  CompilerErrorFact,
  ErrorFacts,
  FlatteningRepairFact,
  InvalidInputFacts,
  InvalidStandardJsonFacts,
  SolproofError,
} from '../core/errors.js';
import type { SubmittedVyperVersionProblem } from '../core/vyperVersion.js';
import { memoryLimitText, outputLimitText, timeLimitText } from './compileLimits.js';
import { TEXT, utcSecond } from './etherscan.js';

const FLATTENING_WHY: Record<FlatteningRepairFact['why'], string> = {
  second_spdx_line: 'second SPDX licence line',
  second_abicoder_pragma: 'second pragma abicoder',
  missing_import: 'import of a file that is not in the flattened source',
};

/** Which kind of line a flattening repair dropped, in words (an older stored sentence is kept). */
export function flatteningWhyText(why: string): string {
  return FLATTENING_WHY[why as FlatteningRepairFact['why']] ?? why;
}

/** `line 9 (second SPDX licence line: // SPDX-License-Identifier: MIT), ...` */
export function flatteningRepairsText(repairs: readonly FlatteningRepairFact[]): string {
  return repairs.map((r) => `line ${r.line} (${flatteningWhyText(r.why)}: ${r.text.trim().slice(0, 80)})`).join(', ');
}

/** The first error the compiler reported, as `Solidity Compilation Error: ...` (`Vyper Compilation Error: ...` for Vyper's). */
export function compilerErrorsText(errors: readonly CompilerErrorFact[], language?: 'Vyper'): string {
  const first = errors.find((e) => e.severity === 'error') ?? errors[0];
  const message = first ? (first.formattedMessage ?? first.message).trim() : 'the compiler reported an error';
  return language === 'Vyper' ? TEXT.vyperCompilationError(message) : TEXT.compilationError(message);
}

/** What went wrong, in the facts' words (of a SolproofError, or of the code and facts a job kept). */
export function errorSentence(error: ErrorFacts | SolproofError): string {
  const e = error as ErrorFacts;
  switch (e.code) {
    case 'no_match':
      return withRepairs(TEXT.reasonBytecodeMismatch, e.details.flatteningRepairs);
    case 'runtime_mismatch':
      return withRepairs(TEXT.reasonRuntimeMismatch, e.details.flatteningRepairs);
    case 'constructor_arguments_mismatch':
      return withRepairs('The constructor arguments given differ from those in the creation transaction', e.details.flatteningRepairs);
    case 'contract_not_found_in_output': {
      const d = e.details;
      const text =
        d.problem === 'not_in_output'
          ? `Unable to locate ContractName ${d.contractName} in ${d.singleFile ? 'the submitted file' : d.sourcePath}`
          : d.problem === 'file_not_among_sources'
            ? `The file "${d.path}" of contract name ${d.contractName} is not among the sources`
            : d.problem === 'not_declared'
              ? `No source declares contract ${d.contractName}`
              : `Several sources declare ${d.contractName}; give the contract name as path:Name`;
      return withRepairs(text, d.flatteningRepairs);
    }
    case 'library_mismatch':
      return withRepairs(`Library ${e.details.library} is deployed at ${e.details.onchain}, not at ${e.details.submitted}`, e.details.flatteningRepairs);
    case 'compiler_error': {
      const d = e.details;
      const text = compilerErrorsText(d.errors, d.language);
      if (!d.flatteningRepairs || d.flatteningRepairs.length === 0) return text;
      return `${text} Remove from the flattened file: ${flatteningRepairsText(d.flatteningRepairs)}.${d.remaining ? ` Without them: ${compilerErrorsText(d.remaining)}` : ''}`;
    }
    case 'abstract_contract':
      return withRepairs(
        `${e.details.contractName} compiles to no code (an abstract contract or an interface); it cannot match deployed code`,
        e.details.flatteningRepairs,
      );
    case 'no_contract_in_build':
      return 'the build holds no contract that compiles to code';
    case 'contract_not_deployed':
      return TEXT.unableToLocateCode(e.details.address);
    case 'already_verified':
      return TEXT.alreadyVerified;
    case 'compiler_version_not_found': {
      const vyper = e.details.compiler === 'vyper';
      const version = vyper ? `vyper:${e.details.version.replace(/^vyper:/, '')}` : withV(e.details.version);
      switch (e.details.why) {
        case 'not_a_version':
          return vyper
            ? `Compiler version ${e.details.version} is not a Vyper version (spell it vyper:0.4.1, or 0.4.1+commit.8a93dd27)`
            : `Compiler version ${version} is not a valid compiler version`;
        case 'not_a_release':
          return vyper
            ? `Compiler version ${version} is not a Vyper release: ${e.details.release ?? ''} is vyper:${e.details.longVersion ?? ''}`
            : `Compiler version ${version} is not a solc release: ${e.details.release ?? ''} is v${e.details.longVersion ?? ''}`;
        default:
          return `Compiler version ${version} is not available from any compiler source`;
      }
    }
    case 'compiler_download_failed':
      return e.details.compiler === 'vyper'
        ? `Compiler version vyper:${e.details.version} could not be downloaded; try again later`
        : `Compiler version v${e.details.version} could not be downloaded; try again later`;
    case 'compile_timeout':
      return timeLimitText(e.details.timeoutMs);
    case 'compile_out_of_memory':
      return e.details.detail ? `${memoryLimitText(e.details.maxMemoryMb)}: ${e.details.detail}` : memoryLimitText(e.details.maxMemoryMb);
    case 'compile_output_too_large':
      return outputLimitText(e.details.maxOutputBytes, e.details.size);
    case 'compile_cancelled':
      return 'The compilation was stopped before it finished';
    case 'compiler_crashed':
      return e.details.poolClosed ? 'The compiler pool is closed' : `The compiler crashed: ${crashText(e.details)}`;
    case 'compile_required':
      return 'This input has not been compiled before';
    case 'diagnosis_quota_reached':
      return `No diagnosis was run: this API key's daily limit of ${e.details.limit} ${e.details.limit === 1 ? 'diagnosis' : 'diagnoses'} is used up; it resets at ${utcSecond(e.details.resetsAt)}`;
    case 'invalid_input':
      return invalidInputText(e.details);
    case 'invalid_standard_json':
      return invalidStandardJsonText(e.details);
    case 'chain_unavailable': {
      const d = e.details;
      const answered = d.reason === 'rpc' || d.reason === 'http' || d.reason === 'malformed' || d.reason === 'too_large';
      return answered
        ? `The network node could not be used: it answered ${d.method} with an error. Try again later.`
        : d.reason === 'timeout'
          ? `The network node could not be reached: ${d.method} timed out. Try again later.`
          : 'The network node could not be reached. Try again later.';
    }
    case 'chain_mismatch':
      return (
        `The network node serves chain id ${e.details.actual}, but this service is configured for chain id ${e.details.expected}. ` +
        'Point the service at a node of the configured chain, or change the configured chain id.'
      );
    case 'store_error': {
      const d = e.details;
      return d.problem === 'cannot_open_sqlite'
        ? 'Cannot open the SQLite database'
        : d.problem === 'unsupported_url_scheme'
          ? `Unsupported database URL scheme "${d.scheme}"`
          : `Database migration failed${d.migration ? ` (${d.migration})` : ''}`;
    }
  }
}

/**
 * For a mismatch whose code holds none of the contract's functions: another contract is
 * deployed there, so the address is the likely fault. Empty for any other failure.
 */
export function unrelatedCodeText(e: ErrorFacts): string {
  if (e.code !== 'no_match') return '';
  const d = e.details;
  if (!((d.functions ?? 0) > 0 && d.functionsInCode === 0)) return '';
  return `The code at this address is not this contract: it holds none of its ${d.functions} function${d.functions === 1 ? '' : 's'} (${d.onchainRuntimeLength} bytes deployed, ${d.compiledRuntimeLength} compiled). Check the address.`;
}

/**
 * The reason a failed verification gives after `Fail - Unable to verify.`: Etherscan's reasons
 * for the verdicts Etherscan names (clients and people search for those words), the compiler's
 * error for a compile error, the plain sentence for anything else.
 */
export function verdictReason(error: ErrorFacts | SolproofError): string {
  const e = error as ErrorFacts;
  switch (e.code) {
    case 'no_match':
    case 'runtime_mismatch':
      return errorSentence(e);
    case 'constructor_arguments_mismatch': {
      const d = e.details;
      const decoded = d.decoded?.length ? ` (${d.decoded.map((a) => `${a.type}${a.name ? ` ${a.name}` : ''} = ${a.value.slice(0, 200)}`).join(', ')})` : '';
      const onchain = d.onchain.length > 2000 ? `0x${d.onchain.slice(0, 2000)}… (${d.onchain.length / 2} bytes)` : `0x${d.onchain}`;
      return `${TEXT.reasonConstructorArgs} The creation transaction carries ${onchain}${decoded}; you sent ${d.submitted ? `0x${d.submitted.slice(0, 2000)}` : 'none'}. ${TEXT.leaveArgumentsEmpty}`;
    }
    case 'contract_not_found_in_output': {
      const d = e.details;
      // A single file's name was made up from the contract name (`Ledgr.sol`): the contracts are named alone.
      const names = d.problem === 'not_in_output' ? d.available.map((id) => (d.singleFile ? id.slice(id.lastIndexOf(':') + 1) : id)) : [];
      const available = names.length > 0 ? ` These sources define ${names.slice(0, 20).join(', ')}.` : '';
      return `${TEXT.reasonContractName(d.contractName)}${available}`;
    }
    case 'library_mismatch':
      return TEXT.reasonLibrary;
    case 'abstract_contract':
      return TEXT.reasonAbstract;
    case 'compiler_crashed':
      return `Solidity Compilation Error: the compiler crashed on this input (${errorSentence(e).slice(0, 300)})`;
    default:
      return errorSentence(e);
  }
}

/** The refusal of a compiler version that names no compiler (`did you mean v0.8.18+commit.87f61d96?`). */
/** Why a Vyper submission's compilerversion names no Vyper compiler. */
export function submittedVyperVersionText(p: SubmittedVyperVersionProblem): string {
  switch (p.problem) {
    case 'not_a_vyper_version':
      return `Compiler version ${p.given} is not a Vyper version (spell it vyper:0.4.3, or 0.4.3+commit.bff19ea2)`;
    case 'not_a_vyper_release':
      return `Compiler version ${p.given} is not a Vyper release: that release is vyper:${p.longVersion}`;
    case 'vyper_commit_needed':
      return `Compiler version ${p.given} is not a Vyper release known here: name an existing release (vyper:0.4.3), or give its commit (${p.release}+commit.<8 hex digits>)`;
    case 'solc_version_for_vyper':
      return `${p.given} is a solc version, and these are Vyper sources: name a Vyper compiler (vyper:0.4.3, as Etherscan spells it)`;
  }
}

export function submittedVersionText(p: SubmittedVersionProblem): string {
  switch (p.problem) {
    case 'not_a_long_version':
      return TEXT.notALongVersion(p.given);
    case 'not_a_release':
      return TEXT.notASolcRelease(p.given, p.longVersion);
    case 'commit_too_short':
      return TEXT.commitTooShort(p.given, p.release);
  }
}

function crashText(d: CompilerCrashFacts): string {
  switch (d.cause) {
    case 'not_json':
      return `The compiler returned output that is not JSON: ${d.detail}`;
    case 'could_not_run':
      return `Could not run the compiler: ${d.detail}`;
    case 'cancelled':
      return 'Compilation was cancelled';
    case 'exited':
      return `Compiler stopped with ${d.detail}`;
    default:
      return d.detail;
  }
}

function withRepairs(text: string, repairs: readonly FlatteningRepairFact[] | undefined): string {
  return repairs && repairs.length > 0 ? `${text} (verified with these lines of the flattened file removed: ${flatteningRepairsText(repairs)})` : text;
}

function invalidInputText(d: InvalidInputFacts): string {
  switch (d.problem) {
    case 'unsupported_code_format':
      return `Unsupported code format ${d.codeFormat}`;
    case 'invalid_library_name':
      return `Invalid library name "${d.name}"`;
    case 'invalid_library_address':
      return `Invalid address "${d.address}" for library ${d.name}`;
    case 'library_given_twice':
      return `Library ${d.name} is given twice with different addresses`;
    case 'library_conflict':
      return `Library ${d.library} is ${d.inInput} in the standard JSON input but ${d.inForm} in the form`;
    case 'invalid_contract_name':
      return `Invalid contract name "${d.contractName}"`;
    case 'empty_source':
      return 'The source code is empty';
    case 'invalid_runs':
      return `Invalid optimizer runs ${d.runs}`;
    case 'invalid_address':
      return `Invalid address: ${d.address}`;
    case 'negative_block_number':
      return 'A block number cannot be negative.';
    case 'invalid_storage_slot':
      return 'Invalid storage slot.';
    case 'stored_request_unreadable':
      return `The stored request cannot be read: ${d.why}`;
    case 'solc_version_for_vyper':
      return `${d.compilerVersion} is a solc version, and these are Vyper sources: name a Vyper compiler (vyper:0.4.1, as Etherscan spells it)`;
    case 'vyper_source_as_solidity':
      return `These sources are Vyper, not Solidity: send them as vyper-json (or a .vy file) with a Vyper compiler version (vyper:0.4.1), not ${d.compilerVersion}`;
    case 'vyper_version_for_solidity':
      return `${d.compilerVersion} is a Vyper compiler, and these sources are Solidity: name a solc version (v0.8.26+commit.8a97fa7a)`;
  }
}

function invalidStandardJsonText(d: InvalidStandardJsonFacts): string {
  switch (d.problem) {
    case 'not_json':
      return d.document === 'build' ? `The build is not valid JSON: ${d.parserMessage}` : `The standard JSON input is not valid JSON: ${d.parserMessage}`;
    case 'not_an_object':
      return d.document === 'build' ? 'The build must be a JSON object' : 'The standard JSON input must be a JSON object';
    case 'not_solidity':
      if (d.language === '"Vyper"')
        return 'A solidity-standard-json-input must have "language": "Solidity" (got "Vyper"): send Vyper\'s input as vyper-json with a Vyper compiler version (vyper:0.4.3)';
      return `Only Solidity sources are verified here: the standard JSON input must have "language": "Solidity" (got ${d.language})`;
    case 'not_vyper':
      return `A vyper-json input must have "language": "Vyper" (got ${d.language}); send Solidity as solidity-standard-json-input with a solc version`;
    case 'solidity_in_vyper_json':
      return `The vyper-json input holds Solidity ("${d.path}"): send Solidity as solidity-standard-json-input with a solc version`;
    case 'interface_shape':
      return `Interface "${d.path}" must be {"content": text} or {"abi": [...]}`;
    case 'no_sources':
      return 'The standard JSON input has no "sources"';
    case 'too_many_sources':
      return `The standard JSON input has more than ${d.max} sources`;
    case 'source_not_an_object':
      return `Source "${d.path}" must be an object`;
    case 'source_urls':
      return `Source "${d.path}" uses "urls"; only inline "content" is accepted`;
    case 'source_without_content':
      return `Source "${d.path}" has no string "content"`;
    case 'settings_not_an_object':
      return '"settings" must be an object';
    case 'libraries_shape':
      return '"settings.libraries" must map files to {name: address}';
    case 'too_many_declarations':
      return `The standard JSON input declares more than ${d.max} contracts, libraries and interfaces`;
    case 'malformed_solc_long_version':
      return 'The build-info file has a malformed "solcLongVersion"';
  }
}
