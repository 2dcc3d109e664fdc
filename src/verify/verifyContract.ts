import { SolproofError, isSolproofError } from '../core/errors.js';
import { isAddress, strip0x } from '../core/hex.js';
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
import { parseVersionNumbers, versionAtLeast, type VersionNumbers } from '../core/compilerVersion.js';
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
  /** The runtime code always matches in a verdict: a Pass needs the deployed code. */
  runtimeMatch: MatchKind;
  /** How the creation code matched; null when it did not match or could not be found. */
  creationMatch: MatchKind | null;
  /** True when a creation was found and compared (so a null creationMatch means it differed). */
  creationCompared: boolean;
  contractName: string;
  /** The key of `compilerInput.sources` that defines the contract. */
  sourcePath: string;
  /** Long version without `v`, as passed to the compiler. */
  compilerVersion: string;
  compilerInput: SolcInput;
  abi: unknown[];
  metadata: string;
  /**
   * Hex without 0x, as the matched creation code proved them; null when nothing proved them
   * (no creation code was found, or it did not match).
   */
  constructorArguments: string | null;
  /** Fully qualified `path:Name` to address: the libraries the compiled code really links. */
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

/** Errors that depend on the input variant tried (its libraries); anything else ends the search. */
const VARIANT_ERRORS = new Set(['no_match', 'runtime_mismatch', 'library_mismatch', 'constructor_arguments_mismatch']);

/**
 * Compiles a submission and decides whether it is the source of the code at an address.
 *
 * Libraries are linked either by solc (`settings.libraries`) or at deployment (placeholders
 * filled in), and the two give the same instructions but different metadata. So the input
 * is first compiled as given; when libraries are involved and that is not a full match, the
 * other ways the build may have been made are tried: without the input's
 * `settings.libraries` (linked at deployment, as Hardhat builds), and with the form's
 * libraries put into `settings.libraries` (as Etherscan compiles). The best verdict wins; a
 * full match ends the search. Every library address the code calls must be the one the
 * submission names.
 *
 * Resolves with the verdict (full or partial, which of runtime and creation matched, and the
 * transformations applied). Throws SolproofError: `no_match`, `runtime_mismatch`,
 * `constructor_arguments_mismatch`, `library_mismatch`, `contract_not_found_in_output`,
 * `abstract_contract`, `compiler_error`, `contract_not_deployed`, `invalid_input`,
 * `invalid_standard_json`; the compiler port's own errors (`compile_timeout`,
 * `compiler_version_not_found`, ...) pass through.
 */
export async function verifyContract(args: VerifyContractArgs): Promise<VerificationResult> {
  if (strip0x(args.runtimeCode) === '') {
    throw new SolproofError('contract_not_deployed', `Unable to locate ContractCode at ${args.submission.address}`);
  }
  let best: VerificationResult | null = null;
  let firstError: SolproofError | null = null;
  let libraryError: SolproofError | null = null;
  for (const variant of inputVariants(args.submission)) {
    try {
      const result = await verifyBuilt(args, variant);
      if (!best || (best.matchKind === 'partial' && result.matchKind === 'full')) best = result;
      if (best.matchKind === 'full') break;
    } catch (error) {
      if (!isSolproofError(error) || !VARIANT_ERRORS.has(error.code)) throw error;
      if (error.code === 'library_mismatch') libraryError ??= error;
      firstError ??= error;
    }
  }
  if (best) return best;
  // A wrong library address says more than the mismatch it causes in a linked variant.
  throw libraryError ?? firstError ?? new SolproofError('no_match', NO_MATCH_MESSAGE);
}

/** One way the submission may have been compiled, and the library addresses it claims. */
interface InputVariant extends BuiltSolcInput {
  /** Libraries the submission names that the compiled code must call at these addresses. */
  claimedLibraries: LibraryLink[];
}

function inputVariants(submission: SourceSubmission): InputVariant[] {
  const asGiven = buildSolcInput(submission, { includeFormLibraries: false });
  const variants: InputVariant[] = [{ ...asGiven, claimedLibraries: submission.libraries }];
  const settingsLibraries = asGiven.input.settings.libraries;
  if (settingsLibraries && Object.keys(settingsLibraries).length > 0) {
    const { libraries: _removed, ...settings } = asGiven.input.settings;
    variants.push({
      ...asGiven,
      input: { ...asGiven.input, settings },
      claimedLibraries: [...submission.libraries, ...libraryLinks(settingsLibraries)],
    });
  }
  if (submission.libraries.length > 0) {
    const withForm = buildSolcInput(submission, { includeFormLibraries: true });
    if (JSON.stringify(withForm.input.settings.libraries) !== JSON.stringify(settingsLibraries)) {
      variants.push({ ...withForm, claimedLibraries: submission.libraries });
    }
  }
  return variants;
}

function libraryLinks(libraries: Record<string, Record<string, string>>): LibraryLink[] {
  const links: LibraryLink[] = [];
  for (const [file, byName] of Object.entries(libraries)) {
    for (const [name, address] of Object.entries(byName)) links.push({ name: libraryId(file, name), address: address as Address });
  }
  return links;
}

async function verifyBuilt(args: VerifyContractArgs, built: InputVariant): Promise<VerificationResult> {
  const { submission, compiler } = args;
  const { input, sourcePath, contractName } = built;
  const compilerVersion = submission.compilerVersion.trim().replace(/^v/, '');
  const version = parseVersionNumbers(compilerVersion);
  const onchainRuntime = strip0x(args.runtimeCode).toLowerCase();

  const output = await compiler.compile(compilerVersion, input);
  throwOnCompilerErrors(output);
  const contract = findContractOutput(output, sourcePath, contractName);
  if (!contract) {
    throw new SolproofError(
      'contract_not_found_in_output',
      `Unable to locate ContractName ${contractName} in ${sourcePath}`,
      { details: { available: declaredContracts(input) } },
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

  if (!runtime) {
    if (creation) {
      // The init code is these sources, but what it left at the address is not: a constructor
      // can return any bytes as the runtime code.
      throw new SolproofError(
        'runtime_mismatch',
        'The creation code matches these sources, but the code deployed at the address does not: the constructor returned other code than the contract compiles to.',
        { details: noMatchDetails(compiledRuntime, onchainRuntime, input) },
      );
    }
    throw new SolproofError('no_match', NO_MATCH_MESSAGE, {
      details: noMatchDetails(compiledRuntime, onchainRuntime, input),
    });
  }

  const libraries = collectLibraries(input, runtime, creation, compiledRuntime + compiledCreation);
  // A single file's libraries live under the service's own file name, whatever path the form gave.
  checkClaimedLibraries(built.claimedLibraries, libraries, submission.codeFormat === 'solidity-single-file');

  const settings = input.settings;
  const creationKind = creation?.kind ?? null;
  return {
    matchKind: runtime.kind === 'full' || creationKind === 'full' ? 'full' : 'partial',
    runtimeMatch: runtime.kind,
    creationMatch: creationKind,
    creationCompared: args.creation !== null,
    contractName,
    sourcePath,
    compilerVersion,
    compilerInput: input,
    abi,
    metadata: contract.metadata ?? '',
    constructorArguments: creation ? creation.constructorArguments : null,
    libraries,
    evmVersion: typeof settings.evmVersion === 'string' ? settings.evmVersion : '',
    optimizationUsed: settings.optimizer?.enabled === true,
    runs: typeof settings.optimizer?.runs === 'number' ? settings.optimizer.runs : 200,
    viaIR: settings.viaIR === true,
    swarmSource: swarmSourceOf(tailAuxdata(onchainRuntime)?.decoded ?? null),
    compiledRuntimeCode: `0x${compiledRuntime}`,
    compiledCreationCode: `0x${compiledCreation}`,
    transformations: { runtime: runtime.transformations, creation: creation?.transformations ?? [] },
    transformationValues: { runtime: runtime.values, creation: creation?.values ?? {} },
  };
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

/**
 * The contracts the sources declare, as `path:Name` (at most 50): solc is asked for the one
 * named contract only, so its output cannot list the others.
 */
function declaredContracts(input: SolcInput): string[] {
  const names: string[] = [];
  const declaration = /(?:^|[^A-Za-z0-9_$])(?:contract|library|interface)\s+([A-Za-z_$][A-Za-z0-9_$]*)/g;
  for (const [file, source] of Object.entries(input.sources)) {
    const code = (source.content ?? '').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
    for (const m of code.matchAll(declaration)) {
      if (names.length >= 50) return names;
      names.push(libraryId(file, m[1]!));
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
 * up to 0.4.11 (its legacy assembly lists no auxdata); from the legacy assembly otherwise,
 * with the tail for a single auxdata and a second compile of edited sources when there are
 * several or the tail does not hold the one. Metadata is proven only by auxdata solc itself
 * reports, never by bytes found in the code.
 */
function auxdataSources(ctx: {
  version: VersionNumbers | null;
  values: string[] | null;
  runtime: string;
  creation: string;
  editedCompile: () => Promise<EditedCompile | null>;
}): { runtime: AuxdataSource; creation: AuxdataSource } {
  const source = (part: 'runtime' | 'creation'): AuxdataSource => {
    const code = ctx[part];
    if (!versionAtLeast(ctx.version, '0.4.7')) return { proveMetadata: false, positions: async () => [] };
    const values = ctx.values;
    if (!versionAtLeast(ctx.version, '0.4.12')) {
      // These compilers always end the code with their auxdata (there is no way to switch it
      // off or to emit raw bytes after it), but do not list it in the legacy assembly.
      const tail = tailAuxdata(code);
      return { proveMetadata: hasContentHash(tail?.decoded ?? null), positions: async () => (tail ? [tail.position] : []) };
    }
    if (values === null) {
      // Without solc's own report the code's tail could be any bytes the sources emit
      // (data, or raw bytes from a Yul `verbatim`): it proves nothing and locates nothing.
      return { proveMetadata: false, positions: async () => [] };
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

/**
 * The libraries the compiled code links: those read from the chain at link references, and
 * those solc linked from `settings.libraries` whose address the compiled code holds (an
 * entry the code never uses is not a library of this contract).
 */
function collectLibraries(
  input: SolcInput,
  runtime: CodeMatch | null,
  creation: CodeMatch | null,
  compiledCode: string,
): Record<string, Address> {
  const out: Record<string, Address> = {};
  const code = compiledCode.toLowerCase();
  for (const [file, byName] of Object.entries(input.settings.libraries ?? {})) {
    for (const [name, address] of Object.entries(byName)) {
      const lower = address.toLowerCase();
      if (isAddress(lower) && code.includes(lower.slice(2))) out[libraryId(file, name)] = lower as Address;
    }
  }
  for (const match of [creation, runtime]) {
    for (const [id, address] of Object.entries(match?.values.libraries ?? {})) out[id] = address.toLowerCase() as Address;
  }
  return out;
}

/** Every library the submission names must be at the address the code calls, where the code calls it. */
function checkClaimedLibraries(claimed: LibraryLink[], found: Record<string, Address>, ignorePaths: boolean): void {
  for (const link of claimed) {
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
