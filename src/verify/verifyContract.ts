import { SolproofError, isSolproofError } from '../core/errors.js';
import type { Address, Hex, LibraryLink, MatchKind, SourceSubmission } from '../core/types.js';
import {
  hasContentHash,
  swarmSourceOf,
  tailAuxdata,
  tryDecodeAuxdata,
  type AuxdataPosition,
} from './auxdata.js';
import { auxdataValuesFromLegacyAssembly, editedSolcInput, findAuxdataPositions } from './auxdataPositions.js';
import { buildSolcInput, splitQualifiedName, type BuiltSolcInput } from './buildSolcInput.js';
import { matchCreationCode, matchRuntimeCode, type AuxdataSource, type CodeMatch, type CreationCodeMatch } from './matchBytecode.js';
import type { Compiler, ContractCreation } from './ports.js';
import type { SolcContractOutput, SolcInput, SolcOutput } from './solcTypes.js';
import { parseSolcVersion, solcAtLeast, type SolcVersion } from './solcVersion.js';
import { constructorInputs, libraryId, type Transformation, type TransformationValues } from './transformations.js';

/** The verdict text for code that does not match, as Etherscan words it. */
export const NO_MATCH_MESSAGE = 'Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.';

export interface VerifyContractArgs {
  compiler: Compiler;
  submission: SourceSubmission;
  /** `eth_getCode` at the address. */
  runtimeCode: Hex;
  /** The creation of the contract, or null when it could not be found (runtime-only verification). */
  creation: ContractCreation | null;
}

export interface VerificationResult {
  /** Full when runtime or creation matched fully, else partial. */
  matchKind: MatchKind;
  runtimeMatch: MatchKind | null;
  creationMatch: MatchKind | null;
  contractName: string;
  /** The key of `compilerInput.sources` that defines the contract. */
  sourcePath: string;
  /** Long version without `v`, as passed to the compiler. */
  compilerVersion: string;
  compilerInput: SolcInput;
  abi: unknown[];
  metadata: string;
  /**
   * Hex without 0x. Extracted from the creation code when it matched; otherwise the
   * submitted value, which nothing could check.
   */
  constructorArguments: string;
  /** Fully qualified `path:Name` to address: those solc linked from the input and those read from the chain. */
  libraries: Record<string, Address>;
  /** '' when the compiler default was used. */
  evmVersion: string;
  optimizationUsed: boolean;
  runs: number;
  viaIR: boolean;
  /** `ipfs://Qm...` or `bzzr://<hex>` from the deployed auxdata, '' when there is none. */
  swarmSource: string;
  /** The compiled codes as solc gave them (link placeholders and zeroed immutables in place), 0x-prefixed. */
  compiledRuntimeCode: Hex;
  compiledCreationCode: Hex;
  transformations: { runtime: Transformation[]; creation: Transformation[] };
  transformationValues: { runtime: TransformationValues; creation: TransformationValues };
}

/**
 * Compiles a submission and decides whether it is the source of the code at an address.
 *
 * Resolves with the verdict (full or partial, which of runtime and creation matched, and the
 * transformations applied). Throws SolproofError: `no_match`, `constructor_arguments_mismatch`,
 * `library_mismatch`, `contract_not_found_in_output`, `abstract_contract`, `compiler_error`,
 * `contract_not_deployed`, `invalid_input`, `invalid_standard_json`; the compiler port's own
 * errors (`compile_timeout`, `compiler_version_not_found`, ...) pass through.
 */
export async function verifyContract(args: VerifyContractArgs): Promise<VerificationResult> {
  const built = buildSolcInput(args.submission);
  try {
    return await verifyBuilt(args, built);
  } catch (error) {
    if (!isSolproofError(error, 'no_match') || args.submission.libraries.length === 0) throw error;
    // The form's addresses went into the input, so a wrong one surfaces as a plain mismatch.
    // Compiling without them leaves placeholders, and the chain says what the addresses are.
    const unlinked = buildSolcInput(args.submission, { includeFormLibraries: false });
    if (JSON.stringify(unlinked.input.settings.libraries) === JSON.stringify(built.input.settings.libraries)) throw error;
    try {
      // Throws library_mismatch when the chain disagrees with the form; resolving means the
      // form's libraries named nothing solc links, so this input is as good as the first.
      return await verifyBuilt(args, unlinked);
    } catch (second) {
      throw isSolproofError(second, 'library_mismatch') ? second : error;
    }
  }
}

async function verifyBuilt(args: VerifyContractArgs, built: BuiltSolcInput): Promise<VerificationResult> {
  const { submission, compiler } = args;
  const { input, sourcePath, contractName } = built;
  const compilerVersion = submission.compilerVersion.trim().replace(/^v/, '');
  const version = parseSolcVersion(compilerVersion);

  const onchainRuntime = strip0x(args.runtimeCode).toLowerCase();
  if (onchainRuntime === '') {
    throw new SolproofError('contract_not_deployed', `Unable to locate ContractCode at ${submission.address}`);
  }

  const output = await compiler.compile(compilerVersion, input);
  throwOnCompilerErrors(output);
  const contract = findContractOutput(output, sourcePath, contractName);
  if (!contract) {
    throw new SolproofError(
      'contract_not_found_in_output',
      `Unable to locate ContractName ${contractName} in ${sourcePath}`,
      { details: { available: availableContracts(output) } },
    );
  }
  const compiledRuntime = contract.evm?.deployedBytecode?.object ?? '';
  const compiledCreation = contract.evm?.bytecode?.object ?? '';
  if (compiledRuntime === '' || compiledCreation === '') {
    throw new SolproofError(
      'abstract_contract',
      `${contractName} compiles to no code (an abstract contract or an interface); it cannot match deployed code`,
    );
  }

  const auxdata = auxdataSources({
    version,
    values: auxdataValuesFromLegacyAssembly(contract.evm?.legacyAssembly),
    runtime: compiledRuntime,
    creation: compiledCreation,
    editedCompile: memo(async () => {
      const edited = await compiler.compile(compilerVersion, editedSolcInput(input));
      const c = findContractOutput(edited, sourcePath, contractName);
      if (!c) return null;
      return {
        runtime: c.evm?.deployedBytecode?.object ?? '',
        creation: c.evm?.bytecode?.object ?? '',
        values: auxdataValuesFromLegacyAssembly(c.evm?.legacyAssembly) ?? [],
      };
    }),
  });

  const runtime = await matchRuntimeCode({
    compiled: compiledRuntime,
    onchain: onchainRuntime,
    immutableReferences: contract.evm?.deployedBytecode?.immutableReferences,
    linkReferences: contract.evm?.deployedBytecode?.linkReferences,
    auxdata: auxdata.runtime,
  });

  const abi = contract.abi ?? [];
  let creation: CreationCodeMatch | null = null;
  if (args.creation) {
    creation = await matchCreationCode({
      compiled: compiledCreation,
      onchain: strip0x(args.creation.creationCode).toLowerCase(),
      linkReferences: contract.evm?.bytecode?.linkReferences,
      auxdata: auxdata.creation,
      constructorInputs: constructorInputs(abi),
    });
  }

  const submittedArguments = strip0x(submission.constructorArguments.trim()).toLowerCase();
  if (creation && submittedArguments !== '' && submittedArguments !== creation.constructorArguments) {
    throw new SolproofError(
      'constructor_arguments_mismatch',
      'The constructor arguments given differ from those in the creation transaction',
      { details: { submitted: submittedArguments, onchain: creation.constructorArguments } },
    );
  }

  if (!runtime && !creation) {
    throw new SolproofError('no_match', NO_MATCH_MESSAGE, {
      details: noMatchDetails(compiledRuntime, onchainRuntime, input),
    });
  }

  const libraries = collectLibraries(input, runtime, creation);
  // A single file's libraries live under the service's own file name, whatever path the form gave.
  checkFormLibraries(submission.libraries, libraries, submission.codeFormat === 'solidity-single-file');

  const settings = input.settings;
  const runtimeKind = runtime?.kind ?? null;
  const creationKind = creation?.kind ?? null;
  return {
    matchKind: runtimeKind === 'full' || creationKind === 'full' ? 'full' : 'partial',
    runtimeMatch: runtimeKind,
    creationMatch: creationKind,
    contractName,
    sourcePath,
    compilerVersion,
    compilerInput: input,
    abi,
    metadata: contract.metadata ?? '',
    constructorArguments: creation ? creation.constructorArguments : submittedArguments,
    libraries,
    evmVersion: typeof settings.evmVersion === 'string' ? settings.evmVersion : '',
    optimizationUsed: settings.optimizer?.enabled === true,
    runs: typeof settings.optimizer?.runs === 'number' ? settings.optimizer.runs : 200,
    viaIR: settings.viaIR === true,
    swarmSource: swarmSourceOf(tailAuxdata(runtime ? onchainRuntime : compiledRuntime)?.decoded ?? null),
    compiledRuntimeCode: `0x${compiledRuntime}`,
    compiledCreationCode: `0x${compiledCreation}`,
    transformations: { runtime: runtime?.transformations ?? [], creation: creation?.transformations ?? [] },
    transformationValues: { runtime: runtime?.values ?? {}, creation: creation?.values ?? {} },
  };
}

function strip0x(hex: string): string {
  return hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
}

function memo<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}

function throwOnCompilerErrors(output: SolcOutput): void {
  const first = (output.errors ?? []).find((e) => e.severity === 'error');
  if (!first) return;
  const text = (first.formattedMessage ?? first.message).trim();
  throw new SolproofError('compiler_error', `Solidity Compilation Error: ${text}`, {
    details: { errors: (output.errors ?? []).filter((e) => e.severity === 'error').slice(0, 20) },
  });
}

/** The contract's output; very old compilers key it by '' instead of the file. */
export function findContractOutput(output: SolcOutput, sourcePath: string, contractName: string): SolcContractOutput | null {
  const contracts = output.contracts ?? {};
  const own = (file: string): SolcContractOutput | null =>
    Object.prototype.hasOwnProperty.call(contracts, file) && Object.prototype.hasOwnProperty.call(contracts[file], contractName)
      ? contracts[file]![contractName]!
      : null;
  return own(sourcePath) ?? own('');
}

function availableContracts(output: SolcOutput): string[] {
  const names: string[] = [];
  for (const [file, byName] of Object.entries(output.contracts ?? {})) {
    for (const name of Object.keys(byName)) {
      if (names.length >= 50) return names;
      names.push(libraryId(file, name));
    }
  }
  return names;
}

interface EditedCompile {
  runtime: string;
  creation: string;
  values: string[];
}

/**
 * How to find the auxdata of the compiled codes, by era: none before 0.4.7; the tail only
 * up to 0.4.11 (its legacy assembly lists no auxdata) or without a legacy assembly; from the
 * legacy assembly otherwise, with the tail for a single auxdata and a second compile of
 * edited sources when there are several or the tail does not hold the one.
 */
function auxdataSources(ctx: {
  version: SolcVersion | null;
  values: string[] | null;
  runtime: string;
  creation: string;
  editedCompile: () => Promise<EditedCompile | null>;
}): { runtime: AuxdataSource; creation: AuxdataSource } {
  const source = (part: 'runtime' | 'creation'): AuxdataSource => {
    const code = ctx[part];
    if (!solcAtLeast(ctx.version, '0.4.7')) return { proveMetadata: false, positions: async () => [] };
    const values = ctx.values;
    if (values === null || !solcAtLeast(ctx.version, '0.4.12')) {
      const tail = tailAuxdata(code);
      return { proveMetadata: hasContentHash(tail?.decoded ?? null), positions: async () => (tail ? [tail.position] : []) };
    }
    const proveMetadata = values.length > 0 && values.every((v) => hasContentHash(tryDecodeAuxdata(v)));
    return {
      proveMetadata,
      positions: memo(async (): Promise<AuxdataPosition[]> => {
        if (values.length === 0) return [];
        const tail = tailAuxdata(code);
        if (values.length === 1 && tail && tail.position.value === values[0]) return [tail.position];
        const edited = await ctx.editedCompile();
        if (!edited) return [];
        return findAuxdataPositions(code, edited[part], values, edited.values);
      }),
    };
  };
  return { runtime: source('runtime'), creation: source('creation') };
}

function noMatchDetails(compiledRuntime: string, onchainRuntime: string, input: SolcInput): Record<string, unknown> {
  const details: Record<string, unknown> = {
    compiledRuntimeLength: compiledRuntime.length / 2,
    onchainRuntimeLength: onchainRuntime.length / 2,
  };
  const compiledTail = tailAuxdata(compiledRuntime);
  const onchainTail = tailAuxdata(onchainRuntime);
  // solc's "extra file input" bug: unused files change the code but not the metadata hash.
  if (
    compiledRuntime.length !== onchainRuntime.length &&
    compiledTail &&
    onchainTail &&
    hasContentHash(compiledTail.decoded) &&
    compiledTail.position.value === onchainTail.position.value &&
    input.settings.optimizer?.enabled === true
  ) {
    details['reason'] = 'extra_file_input_bug';
  }
  return details;
}

function collectLibraries(
  input: SolcInput,
  runtime: CodeMatch | null,
  creation: CodeMatch | null,
): Record<string, Address> {
  const out: Record<string, Address> = {};
  for (const [file, byName] of Object.entries(input.settings.libraries ?? {})) {
    for (const [name, address] of Object.entries(byName)) out[libraryId(file, name)] = address.toLowerCase() as Address;
  }
  for (const match of [creation, runtime]) {
    for (const [id, address] of Object.entries(match?.values.libraries ?? {})) out[id] = address.toLowerCase() as Address;
  }
  return out;
}

function checkFormLibraries(form: LibraryLink[], found: Record<string, Address>, ignorePaths: boolean): void {
  for (const link of form) {
    const qualified = splitQualifiedName(link.name.trim());
    const wanted = ignorePaths ? { path: null, name: qualified.name } : qualified;
    for (const [id, address] of Object.entries(found)) {
      const have = splitQualifiedName(id);
      const sameLibrary =
        have.name === wanted.name && (wanted.path === null || have.path?.replace(/^\//, '') === wanted.path.replace(/^\//, ''));
      if (sameLibrary && address !== link.address.toLowerCase()) {
        throw new SolproofError(
          'library_mismatch',
          `Library ${link.name} is deployed at ${address}, not at ${link.address.toLowerCase()}`,
          { details: { library: id, onchain: address, submitted: link.address.toLowerCase() } },
        );
      }
    }
  }
}
