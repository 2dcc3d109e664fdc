import { type CodeDifferenceFacts, type CompilerErrorFact, SolproofError } from '../../core/errors.js';
import { strip0x } from '../../core/hex.js';
import { SOLC_RELEASES } from '../../core/solcReleases.js';
import type { Address, Hex, VyperInput, VyperSubmission } from '../../core/types.js';
import {
  knownVyperRelease,
  parseVyperVersion,
  readSubmittedVyperVersion,
  type VyperAuxdataEra,
  type VyperReleaseLookup,
  type VyperVersion,
} from '../../core/vyperVersion.js';
import type { CompiledContract } from '../compiledContract.js';
import { type ContractVerdict, contractVerdict } from '../contractVerdict.js';
import type { ContractCreation, KnownCompilations, VyperCompiler } from '../ports.js';
import type { Transformation, TransformationValues } from '../transformations.js';
import { decodeConstructorArguments } from '../verifyContract.js';
import { type BuiltVyperInput, buildVyperInput, normalVyperPath } from './buildVyperInput.js';
import { matchVyperContract } from './matchVyper.js';
import { locateVyperAuxdata } from './vyperAuxdata.js';
import type { VyperContractOutput, VyperError, VyperOutput } from './vyperTypes.js';

export interface VerifyVyperContractArgs {
  compiler: VyperCompiler;
  submission: VyperSubmission;
  /** `eth_getCode` at the address. */
  runtimeCode: Hex;
  /** The creation of the contract, or null when it could not be found (runtime-only verification). */
  creation: ContractCreation | null;
  /** Compilations already made: an input found here is not compiled again. */
  known?: KnownCompilations;
  /** The Vyper releases and their commits (default: the table shipped with the service). */
  releases?: VyperReleaseLookup;
  /** Tells a solc version apart from a Vyper one (both have 0.4.x releases). Default: the solc release table. */
  isSolcCommit?: (version: string, commit: string) => boolean;
  /** Stops the compile (see the port). */
  signal?: AbortSignal;
}

/** How a Vyper contract was verified: the verdict, what was compiled, and what matching read. */
export interface VyperVerificationResult extends ContractVerdict {
  language: 'Vyper';
  /** True when a creation was found and compared (so a null creationMatch means it differed). */
  creationCompared: boolean;
  /** The file's stem. */
  contractName: string;
  /** The key of `compilerInput.sources` that is the contract. */
  sourcePath: string;
  /** `0.4.1+commit.8a93dd27` (Etherscan calls it `vyper:0.4.1`). */
  compilerVersion: string;
  compilerInput: VyperInput;
  abi: unknown[];
  /** Vyper writes no metadata document: always ''. */
  metadata: '';
  /** Hex without 0x, as the matched creation code proved them; null when nothing proved them. */
  constructorArguments: string | null;
  /** Vyper links no libraries: always empty. */
  libraries: Record<string, Address>;
  /** '' when the compiler default was used. */
  evmVersion: string;
  /** `gas`, `codesize` or `none`, as the settings gave it (a boolean of an older release as `gas`/`none`); '' for the default. */
  optimize: string;
  /** False only when the optimisation was turned off. */
  optimizationUsed: boolean;
  /** Vyper's auxdata names no content address: always ''. */
  swarmSource: '';
  compiledRuntimeCode: Hex;
  compiledCreationCode: Hex;
  /** The compiled contract as matching used it (for the bytecode database). */
  compiled: CompiledContract;
  /** True when the compilation came from the known ones, without compiling. */
  reusedCompilation: boolean;
  transformations: { runtime: Transformation[]; creation: Transformation[] };
  transformationValues: { runtime: TransformationValues; creation: TransformationValues };
  /** How the compiler marks its code (see vyperAuxdataEra). */
  auxdataEra: VyperAuxdataEra;
  /**
   * From 0.4.1: the compiled integrity hash and the deployed one. `proven`: they are equal and
   * the init code matched, so the sources are exactly the deployed contract's (a full match).
   */
  integrity: { compiled: string | null; onchain: string | null; proven: boolean };
  /** Why the match is only partial (see vyperPartialReason); null for a full match. */
  partialBecause: VyperPartialReason | null;
}

/**
 * Why a Vyper match is partial: no creation was found to compare (nothing proves the sources,
 * or the immutables); the release writes no hash of its sources (before 0.4.1 a partial match
 * is the most any verifier can give); the integrity hash differs (the sources are not exactly
 * the deployed ones: a comment, whitespace, an imported file's text).
 */
export type VyperPartialReason = 'creation_not_found' | 'no_source_hash' | 'integrity_differs';

export function vyperPartialReason(
  result: Pick<VyperVerificationResult, 'matchKind' | 'creationMatch' | 'auxdataEra' | 'integrity'>,
): VyperPartialReason | null {
  if (result.matchKind === 'full') return null;
  if (result.creationMatch === null) return 'creation_not_found';
  if (result.auxdataEra !== 'integrity') return 'no_source_hash';
  return result.integrity.compiled !== null && result.integrity.onchain !== result.integrity.compiled ? 'integrity_differs' : 'no_source_hash';
}

/**
 * Compiles a Vyper submission and decides whether it is the source of the code at an address
 * (see matchVyperContract for how the codes are compared and when a match is full).
 *
 * Throws SolproofError: `no_match`, `runtime_mismatch`, `constructor_arguments_mismatch`,
 * `contract_not_found_in_output`, `abstract_contract` (an interface), `compiler_error`
 * (`language: 'Vyper'`), `contract_not_deployed`, `invalid_input`
 * (`solc_version_for_vyper`, `empty_source`), `compiler_version_not_found` (`compiler:
 * 'vyper'`); the compiler port's own errors (`compile_timeout`, ...) pass through.
 */
export async function verifyVyperContract(args: VerifyVyperContractArgs): Promise<VyperVerificationResult> {
  const { submission } = args;
  if (strip0x(args.runtimeCode) === '') throw new SolproofError('contract_not_deployed', { address: submission.address });
  const version = vyperVersionOf(submission.compilerVersion, args.releases ?? knownVyperRelease, args.isSolcCommit ?? isKnownSolcRelease);
  const built = buildVyperInput(submission, version);
  const known = (await args.known?.find(version.long, built.input, built.sourcePath, built.contractName)) ?? null;
  const compiled = known ?? (await compileVyperContract(args.compiler, version, built, args.signal));
  if (strip0x(compiled.runtime.code) === '' || strip0x(compiled.creation.code) === '') {
    throw new SolproofError('abstract_contract', { contractName: built.contractName });
  }
  const onchainRuntime = strip0x(args.runtimeCode).toLowerCase();
  const { runtime, creation, auxdata, integrity } = matchVyperContract({ compiled, version, runtimeCode: onchainRuntime, creation: args.creation });

  const submitted = strip0x(submission.constructorArguments.trim()).toLowerCase();
  if (creation && submitted !== '' && submitted !== creation.constructorArguments) {
    const decoded = decodeConstructorArguments(compiled.abi, creation.constructorArguments);
    throw new SolproofError('constructor_arguments_mismatch', { submitted, onchain: creation.constructorArguments, ...(decoded ? { decoded } : {}) });
  }
  if (!runtime) {
    const facts: CodeDifferenceFacts = { compiledRuntimeLength: strip0x(compiled.runtime.code).length / 2, onchainRuntimeLength: onchainRuntime.length / 2 };
    throw new SolproofError(creation ? 'runtime_mismatch' : 'no_match', facts);
  }
  const settings = built.input.settings;
  const optimize = settings.optimize === true ? 'gas' : settings.optimize === false ? 'none' : (settings.optimize ?? '');
  const verdict = contractVerdict(runtime, creation);
  const proven = creation?.kind === 'full' && integrity.compiled !== null;
  return {
    ...verdict,
    partialBecause: vyperPartialReason({ ...verdict, auxdataEra: auxdata.era, integrity: { ...integrity, proven } }),
    language: 'Vyper',
    creationCompared: args.creation !== null,
    contractName: built.contractName,
    sourcePath: built.sourcePath,
    compilerVersion: version.long,
    compilerInput: built.input,
    abi: compiled.abi,
    metadata: '',
    constructorArguments: creation ? creation.constructorArguments : null,
    libraries: {},
    evmVersion: typeof settings.evmVersion === 'string' ? settings.evmVersion : '',
    optimize: String(optimize),
    optimizationUsed: optimize !== 'none',
    swarmSource: '',
    compiledRuntimeCode: `0x${strip0x(compiled.runtime.code)}`,
    compiledCreationCode: `0x${strip0x(compiled.creation.code)}`,
    compiled,
    reusedCompilation: known !== null,
    transformations: { runtime: runtime.transformations, creation: creation?.transformations ?? [] },
    transformationValues: { runtime: runtime.values, creation: creation?.values ?? {} },
    auxdataEra: auxdata.era,
    integrity: { ...integrity, proven },
  };
}

/**
 * The Vyper version a submission names, read in any client's spelling. A known release comes
 * with its commit; a release the table does not know goes to the compiler sources as it is.
 */
export function vyperVersionOf(text: string, releases: VyperReleaseLookup, isSolcCommit?: (version: string, commit: string) => boolean): VyperVersion {
  const read = readSubmittedVyperVersion(text, { lookup: releases, ...(isSolcCommit ? { isSolcCommit } : {}) });
  if (read.ok) return parseVyperVersion(read.value.long)!;
  const e = read.error;
  switch (e.problem) {
    case 'solc_version_for_vyper':
      throw new SolproofError('invalid_input', { problem: 'solc_version_for_vyper', compilerVersion: e.given });
    case 'not_a_vyper_release': {
      const release = parseVyperVersion(e.given)?.release ?? '';
      throw new SolproofError('compiler_version_not_found', { version: e.given, why: 'not_a_release', release, longVersion: e.longVersion, compiler: 'vyper' });
    }
    case 'vyper_commit_needed':
      return parseVyperVersion(e.release)!;
    default:
      throw new SolproofError('compiler_version_not_found', { version: e.given, why: 'not_a_version', compiler: 'vyper' });
  }
}

const SOLC_COMMITS = new Map(SOLC_RELEASES.map(([long]) => [long.slice(0, long.indexOf('+')), long.slice(long.indexOf('commit.') + 7)]));

/** True when `commit` (seven digits at least) is the one of solc release `version` in the shipped table. */
export function isKnownSolcRelease(version: string, commit: string): boolean {
  const known = SOLC_COMMITS.get(version);
  return known !== undefined && commit.length >= 7 && (commit.length >= known.length ? commit.startsWith(known) : known.startsWith(commit));
}

/** Compiles the one contract; Vyper's errors become `compiler_error`. */
async function compileVyperContract(compiler: VyperCompiler, version: VyperVersion, built: BuiltVyperInput, signal?: AbortSignal): Promise<CompiledContract> {
  const output = await compiler.compile(version.long, built.input, signal);
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new SolproofError('compiler_error', { errors: errors.slice(0, 20).map(errorFact), language: 'Vyper' });
  const contract = findVyperContractOutput(output, built.sourcePath, built.contractName);
  if (!contract) {
    throw new SolproofError('contract_not_found_in_output', {
      problem: 'not_in_output',
      contractName: built.contractName,
      sourcePath: built.sourcePath,
      available: Object.entries(output.contracts ?? {})
        .flatMap(([path, byName]) => Object.keys(byName ?? {}).map((name) => `${path}:${name}`))
        .slice(0, 50),
    });
  }
  return vyperCompiledContract(version, contract);
}

/** The compiled contract of Vyper's output for one contract, with its auxdata located. */
export function vyperCompiledContract(version: VyperVersion, output: VyperContractOutput): CompiledContract {
  const creation = strip0x(output.evm?.bytecode?.object ?? '').toLowerCase();
  const runtime = strip0x(output.evm?.deployedBytecode?.object ?? '').toLowerCase();
  const located = locateVyperAuxdata(version, creation, runtime);
  const auxdata = (position: typeof located.creation) => (position ? { values: [position.value], positions: [position] } : { values: [], positions: [] });
  return {
    abi: output.abi ?? [],
    metadata: '',
    creation: { code: creation, linkReferences: {}, auxdata: auxdata(located.creation) },
    runtime: { code: runtime, linkReferences: {}, immutableReferences: {}, auxdata: auxdata(located.runtime) },
  };
}

/** The contract's output: Vyper keys it by the path as it read it (`./a.vy` is `a.vy`). */
export function findVyperContractOutput(output: VyperOutput, sourcePath: string, contractName: string): VyperContractOutput | null {
  const contracts = output.contracts ?? {};
  const wanted = normalVyperPath(sourcePath);
  const key = Object.hasOwn(contracts, sourcePath) ? sourcePath : Object.keys(contracts).find((k) => normalVyperPath(k) === wanted);
  if (key === undefined) return null;
  const byName = contracts[key] ?? {};
  return Object.hasOwn(byName, contractName) ? byName[contractName]! : null;
}

function errorFact(e: VyperError): CompilerErrorFact {
  const location = e.sourceLocation;
  return {
    severity: 'error',
    message: String(e.message ?? '').slice(0, 4000),
    ...(e.formattedMessage ? { formattedMessage: String(e.formattedMessage).slice(0, 4000) } : {}),
    ...(e.type ? { type: e.type } : {}),
    ...(location?.file
      ? {
          sourceLocation: {
            file: location.file,
            start: -1,
            end: -1,
            ...(typeof location.lineno === 'number' ? { line: location.lineno } : {}),
            ...(typeof location.col_offset === 'number' ? { column: location.col_offset } : {}),
          },
        }
      : {}),
  };
}
