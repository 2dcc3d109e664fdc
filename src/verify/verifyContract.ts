import { type AbiParameter, decodeAbiParameters } from 'viem';
import { parseVersionNumbers, withoutV } from '../core/compilerVersion.js';
import type { SettingChange } from '../core/diagnosis.js';
import { type AnySolproofError, type CodeDifferenceFacts, type DecodedArgumentFact, type ErrorCode, isSolproofError, SolproofError } from '../core/errors.js';
import { knownAddress, parseAddress, strip0x } from '../core/hex.js';
import { solidityOutline } from '../core/solidityOutline.js';
import type { Address, Hex, LibraryLink, SourceSubmission } from '../core/types.js';
import { hasContentHash, swarmSourceOf, tailAuxdata } from './auxdata.js';
import { auxdataValuesFromLegacyAssembly, editedSolcInput, findAuxdataPositions } from './auxdataPositions.js';
import { type BuiltSolcInput, buildSolcInput, everyContractSelectionFor, splitQualifiedName } from './buildSolcInput.js';
import { codeRelation } from './codeRelation.js';
import { type CompiledContract, compiledContractOf } from './compiledContract.js';
import { type ContractVerdict, contractVerdict } from './contractVerdict.js';
import { deployedFacts } from './diagnose/deployedFacts.js';
import { revealedMetadataChanges } from './diagnose/metadataChanges.js';
import { submittedSettings, withMetadataChanges } from './diagnose/settingChanges.js';
import { applyRepairs, type FlatteningRepair, flatteningRepairs } from './flatteningRepairs.js';
import { leanInput, provenOwnAuxdata } from './leanCompile.js';
import type { CodeMatch } from './matchBytecode.js';
import { type CodePart, matchCompiledContract } from './matchContract.js';
import type { Compiler, ContractCreation, KnownCompilations } from './ports.js';
import { settingsSummary } from './settingsSummary.js';
import type { SolcContractOutput, SolcError, SolcInput, SolcOutput } from './solcTypes.js';
import { libraryId, type Transformation, type TransformationValues } from './transformations.js';
import { verdictRank } from './verdictRank.js';

export interface VerifyContractArgs {
  compiler: Compiler;
  submission: SourceSubmission;
  /** `eth_getCode` at the address. */
  runtimeCode: Hex;
  /** The creation of the contract, or null when it could not be found (runtime-only verification). */
  creation: ContractCreation | null;
  /** Compilations already made: an input found here is not compiled again. */
  known?: KnownCompilations;
}

export interface VerificationResult extends ContractVerdict {
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
  /** The compiled contract as matching used it, with the auxdata positions found (for the bytecode database). */
  compiled: CompiledContract;
  /** True when the compilation came from the known ones, without compiling. */
  reusedCompilation: boolean;
  transformations: { runtime: Transformation[]; creation: Transformation[] };
  transformationValues: { runtime: TransformationValues; creation: TransformationValues };
  /** Lines of a flattened single file that were blanked so it would compile (the compiled source is the repaired one). */
  flatteningRepairs?: FlatteningRepair[];
  /**
   * The metadata settings, read from a deployed code without a metadata hash, that the
   * submission did not have and that were compiled (compilerInput has them).
   */
  metadataSettingsFromCode?: SettingChange[];
}

/** Errors that depend on the input variant tried (its libraries); anything else ends the search. */
const VARIANT_ERRORS: ReadonlySet<ErrorCode> = new Set(['no_match', 'runtime_mismatch', 'library_mismatch', 'constructor_arguments_mismatch']);

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
 * submission names. A code deployed without a metadata hash whose creation code did not match
 * is compiled once more with the metadata settings the code shows (`metadataSettingsFromCode`).
 *
 * Resolves with the verdict (full or partial, which of runtime and creation matched, and the
 * transformations applied). Throws SolproofError: `no_match`, `runtime_mismatch`,
 * `constructor_arguments_mismatch`, `library_mismatch`, `contract_not_found_in_output`,
 * `abstract_contract`, `compiler_error`, `contract_not_deployed`, `invalid_input`,
 * `invalid_standard_json`; the compiler port's own errors (`compile_timeout`,
 * `compiler_version_not_found`, ...) pass through.
 */
export async function verifyContract(args: VerifyContractArgs): Promise<VerificationResult> {
  try {
    return await verifyAsGiven(args);
  } catch (error) {
    if (args.submission.codeFormat !== 'solidity-single-file' || !isSolproofError(error, 'compiler_error')) throw error;
    return verifyRepairedFlattening(args, args.submission.sourceCode, error);
  }
}

/**
 * A single file that does not compile because of how it was flattened (see
 * flatteningRepairs): verified again with those lines blanked, up to three rounds (solc reports
 * one stage's errors at a time). A pass says which lines were dropped; a failure names the
 * lines to remove with the error that remains.
 */
async function verifyRepairedFlattening(args: VerifyContractArgs, source: string, original: SolproofError<'compiler_error'>): Promise<VerificationResult> {
  let error = original;
  let repairs: FlatteningRepair[] = [];
  for (let round = 0; round < 3; round++) {
    const errors = error.details.errors as SolcError[];
    const found = flatteningRepairs(applyRepairs(source, repairs), errors);
    if (!found) break;
    repairs = [...repairs, ...found].sort((a, b) => a.line - b.line);
    const submission = { ...args.submission, sourceCode: applyRepairs(source, repairs) };
    try {
      const result = await verifyAsGiven({ ...args, submission });
      return { ...result, flatteningRepairs: repairs };
    } catch (next) {
      if (!isSolproofError(next)) throw next;
      if (next.code !== 'compiler_error') throw withFlatteningRepairs(next, repairs);
      error = next;
    }
  }
  if (repairs.length === 0) throw original;
  throw new SolproofError('compiler_error', {
    errors: original.details.errors,
    flatteningRepairs: repairs,
    ...(error === original ? {} : { remaining: error.details.errors }),
  });
}

/** The error of a submission verified with flattening repairs, with the repairs among its facts. */
function withFlatteningRepairs(error: AnySolproofError, repairs: FlatteningRepair[]): SolproofError {
  switch (error.code) {
    case 'no_match':
    case 'runtime_mismatch':
    case 'constructor_arguments_mismatch':
    case 'contract_not_found_in_output':
    case 'library_mismatch':
    case 'abstract_contract':
      return new SolproofError(error.code, { ...error.details, flatteningRepairs: repairs } as never);
    default:
      return error;
  }
}

async function verifyAsGiven(args: VerifyContractArgs): Promise<VerificationResult> {
  if (strip0x(args.runtimeCode) === '') {
    throw new SolproofError('contract_not_deployed', { address: args.submission.address });
  }
  let best: VerificationResult | null = null;
  let firstError: AnySolproofError | null = null;
  let libraryError: AnySolproofError | null = null;
  const selection: OutputSelection = { everyContract: false };
  const variants = inputVariants(args.submission);
  let bestVariant = variants[0]!;
  for (const variant of variants) {
    try {
      const result = await verifyBuilt(args, variant, selection);
      if (!best || (best.matchKind === 'partial' && result.matchKind === 'full')) {
        best = result;
        bestVariant = variant;
      }
      if (best.matchKind === 'full') break;
    } catch (error) {
      if (!isSolproofError(error) || !VARIANT_ERRORS.has(error.code)) throw error;
      if (error.code === 'library_mismatch') libraryError ??= error;
      firstError ??= error;
    }
  }
  // A code deployed without a metadata hash shows the metadata settings it was built with.
  // Compiled with others, only its runtime code matches (its auxdata replaced), never its
  // creation code, so the constructor arguments stay unproven: one more compile, with the
  // code's settings, can match both.
  const fromCode = best && best.creationMatch === null && args.creation !== null ? metadataSettingsOfCode(args.submission, args.runtimeCode) : [];
  if (best && fromCode.length > 0) {
    const variant = { ...bestVariant, input: { ...bestVariant.input, settings: withMetadataChanges(bestVariant.input.settings, fromCode) } };
    try {
      const result = await verifyBuilt(args, variant, selection);
      if (verdictRank(result) > verdictRank(best)) best = { ...result, metadataSettingsFromCode: fromCode };
    } catch (error) {
      // The runtime match stands; only a retry (a compiler to fetch, a compile that only a
      // worker may make) is passed on.
      if (!isSolproofError(error) || error.retryable) throw error;
    }
  }
  if (best) return best;
  // A wrong library address says more than the mismatch it causes in a linked variant.
  throw libraryError ?? firstError ?? new SolproofError('no_match', { compiledRuntimeLength: 0, onchainRuntimeLength: strip0x(args.runtimeCode).length / 2 });
}

/**
 * The metadata settings a deployed code without a metadata hash (bytecodeHash none, or no CBOR
 * at all) shows, where the submission has others. Code with a hash is left alone: a hash the
 * submission does not reproduce is a wrong setting (the diagnosis names it), never a match.
 */
function metadataSettingsOfCode(submission: SourceSubmission, runtimeCode: Hex): SettingChange[] {
  const facts = deployedFacts(runtimeCode);
  if (facts.hashKind !== 'none' && facts.hashKind !== 'absent') return [];
  return revealedMetadataChanges(submittedSettings(submission), facts);
}

/** One way the submission may have been compiled, and the library addresses it claims. */
interface InputVariant extends BuiltSolcInput {
  /** Libraries the submission names that the compiled code must call at these addresses. */
  claimedLibraries: LibraryLink[];
}

/**
 * The standard JSON inputs a submission may be compiled as (see verifyContract): with them a
 * caller can tell whether every compilation it needs is already known.
 */
export function submissionInputs(submission: SourceSubmission): BuiltSolcInput[] {
  return inputVariants(submission).map(({ input, sourcePath, contractName }) => ({ input, sourcePath, contractName }));
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
    // solc refuses a library address that is none, so every one compiled is one.
    for (const [name, address] of Object.entries(byName)) {
      const parsed = parseAddress(address);
      if (parsed) links.push({ name: libraryId(file, name), address: parsed });
    }
  }
  return links;
}

async function verifyBuilt(args: VerifyContractArgs, built: InputVariant, selection: OutputSelection): Promise<VerificationResult> {
  const { submission, compiler } = args;
  const { input, sourcePath, contractName } = built;
  const compilerVersion = withoutV(submission.compilerVersion.trim());
  const version = parseVersionNumbers(compilerVersion);
  const onchainRuntime = strip0x(args.runtimeCode).toLowerCase();

  const known = (await args.known?.find(compilerVersion, input, sourcePath, contractName)) ?? null;
  const compiled = known ?? (await compileContract(compiler, compilerVersion, built, selection));
  const compiledRuntime = compiled.runtime.code;
  const compiledCreation = compiled.creation.code;
  if (compiledRuntime === '' || compiledCreation === '') {
    throw new SolproofError('abstract_contract', { contractName });
  }

  const editedCompile = memo(async () => {
    const edited = await compileSelected(compiler, compilerVersion, { input: editedSolcInput(input), sourcePath, contractName }, selection);
    const c = findContractOutput(edited, sourcePath, contractName);
    if (!c) return null;
    return {
      runtime: c.evm?.deployedBytecode?.object ?? '',
      creation: c.evm?.bytecode?.object ?? '',
      values: auxdataValuesFromLegacyAssembly(c.evm?.legacyAssembly) ?? [],
    };
  });
  const { runtime, creation, auxdata } = await matchCompiledContract({
    compiled,
    version,
    runtimeCode: onchainRuntime,
    creation: args.creation,
    locateAuxdata: async (part: CodePart) => {
      const edited = await editedCompile();
      const values = compiled[part].auxdata.values ?? [];
      return edited ? findAuxdataPositions(compiled[part].code, edited[part], values, edited.values) : [];
    },
  });
  const abi = compiled.abi;

  const submittedArguments = strip0x(submission.constructorArguments.trim()).toLowerCase();
  if (creation && submittedArguments !== '' && submittedArguments !== creation.constructorArguments) {
    const decoded = decodeConstructorArguments(abi, creation.constructorArguments);
    throw new SolproofError('constructor_arguments_mismatch', {
      submitted: submittedArguments,
      onchain: creation.constructorArguments,
      ...(decoded ? { decoded } : {}),
    });
  }

  if (!runtime) {
    if (creation) {
      // The init code is these sources, but what it left at the address is not: a constructor
      // can return any bytes as the runtime code.
      throw new SolproofError('runtime_mismatch', noMatchDetails(compiledRuntime, onchainRuntime, input, abi));
    }
    throw new SolproofError('no_match', noMatchDetails(compiledRuntime, onchainRuntime, input, abi));
  }

  const libraries = collectLibraries(input, runtime, creation, compiledRuntime + compiledCreation);
  // A single file's libraries live under the service's own file name, whatever path the form gave.
  checkClaimedLibraries(built.claimedLibraries, libraries, submission.codeFormat === 'solidity-single-file');

  return {
    ...contractVerdict(runtime, creation),
    creationCompared: args.creation !== null,
    contractName,
    sourcePath,
    compilerVersion,
    compilerInput: input,
    abi,
    metadata: compiled.metadata,
    constructorArguments: creation ? creation.constructorArguments : null,
    libraries,
    ...settingsSummary(input.settings),
    swarmSource: swarmSourceOf(tailAuxdata(onchainRuntime)?.decoded ?? null),
    compiledRuntimeCode: `0x${compiledRuntime}`,
    compiledCreationCode: `0x${compiledCreation}`,
    reusedCompilation: known !== null,
    compiled: {
      ...compiled,
      runtime: { ...compiled.runtime, auxdata: auxdata.runtime },
      creation: { ...compiled.creation, auxdata: auxdata.creation },
    },
    transformations: { runtime: runtime.transformations, creation: creation?.transformations ?? [] },
    transformationValues: { runtime: runtime.values, creation: creation?.values ?? {} },
  };
}

/**
 * The input solc is given for a built input: without the legacy assembly where the code can
 * prove its own auxdata (see leanCompile), else as built. The job's early compile starts this
 * same input.
 */
export function solcInputToCompile(compilerVersion: string, built: BuiltSolcInput): SolcInput {
  return leanInput(parseVersionNumbers(compilerVersion), built) ?? built.input;
}

async function compileContract(compiler: Compiler, compilerVersion: string, built: BuiltSolcInput, selection: OutputSelection): Promise<CompiledContract> {
  const lean = solcInputToCompile(compilerVersion, built);
  if (lean !== built.input) {
    const compiled = await compiledOnce(compiler, compilerVersion, { ...built, input: lean }, selection);
    // Every contract selected (see compileSelected) brings the assembly back; no code is abstract.
    if (compiled.runtime.auxdata.values !== null || compiled.runtime.code === '') return compiled;
    const proven = provenOwnAuxdata(compiled);
    if (proven) return proven;
  }
  return compiledOnce(compiler, compilerVersion, built, selection);
}

async function compiledOnce(compiler: Compiler, compilerVersion: string, built: BuiltSolcInput, selection: OutputSelection): Promise<CompiledContract> {
  const { input, sourcePath, contractName } = built;
  const output = await compileSelected(compiler, compilerVersion, built, selection);
  throwOnCompilerErrors(output);
  const contract = findContractOutput(output, sourcePath, contractName);
  if (!contract) {
    // A single file's name was made up from the contract name: the contracts are named alone.
    const available = declaredContracts(input).map((id) => (built.singleFile ? id.slice(id.lastIndexOf(':') + 1) : id));
    throw new SolproofError('contract_not_found_in_output', {
      problem: 'not_in_output',
      contractName,
      sourcePath,
      available,
      ...(built.singleFile ? { singleFile: true } : {}),
    });
  }
  return compiledContractOf(contract);
}

/**
 * What one verification asks solc for: the one contract (the input's own selection) until solc
 * shows that it cannot compile that contract alone (see everyContractSelectionFor); from then
 * on, every compile of the verification (other variants, the edited sources) asks for every
 * contract at once, so the failing compile is paid once.
 */
interface OutputSelection {
  everyContract: boolean;
}

/**
 * Compiles with the narrow selection, and again with every contract selected when solc stopped
 * because a contract the selected one creates was not compiled. A retry on that one error
 * rather than a choice by version: the compilers concerned span 0.4.18 to 0.8.3, most
 * contracts compile alone with them, and selecting every contract costs a compile of the
 * whole input (every file of a build, its tests and mocks included).
 */
async function compileSelected(compiler: Compiler, compilerVersion: string, built: BuiltSolcInput, selection: OutputSelection): Promise<SolcOutput> {
  const { input, sourcePath, contractName } = built;
  if (!selection.everyContract) {
    const output = await compiler.compile(compilerVersion, input);
    if (!missesCreatedContract(output)) return output;
    selection.everyContract = true;
  }
  const outputSelection = everyContractSelectionFor(sourcePath, contractName);
  return compiler.compile(compilerVersion, { ...input, settings: { ...input.settings, outputSelection } });
}

/** solc's error for a created contract it did not compile (the same text from 0.4.18 to 0.8.3). */
function missesCreatedContract(output: SolcOutput): boolean {
  return (output.errors ?? []).some(
    (e) => e.severity === 'error' && e.type === 'InternalCompilerError' && typeof e.message === 'string' && e.message.includes('Compiled contract not found'),
  );
}

function memo<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}

function throwOnCompilerErrors(output: SolcOutput): void {
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length === 0) return;
  throw new SolproofError('compiler_error', { errors: errors.slice(0, 20) });
}

/** The contract's output; very old compilers key it by '' instead of the file. */
export function findContractOutput(output: SolcOutput, sourcePath: string, contractName: string): SolcContractOutput | null {
  const contracts = output.contracts ?? {};
  const own = (file: string): SolcContractOutput | null =>
    Object.hasOwn(contracts, file) && Object.hasOwn(contracts[file]!, contractName) ? contracts[file]![contractName]! : null;
  return own(sourcePath) ?? own('');
}

/**
 * The contracts the sources declare, as `path:Name` (at most 50): solc is asked for the one
 * named contract only, so its output cannot list the others.
 */
function declaredContracts(input: SolcInput): string[] {
  const names: string[] = [];
  for (const [file, source] of Object.entries(input.sources)) {
    for (const item of solidityOutline(source.content ?? '')) {
      if (item.kind !== 'declaration') continue;
      if (names.length >= 50) return names;
      names.push(libraryId(file, item.name));
    }
  }
  return names;
}

function noMatchDetails(compiledRuntime: string, onchainRuntime: string, input: SolcInput, abi: readonly unknown[]): CodeDifferenceFacts {
  const relation = codeRelation(abi, onchainRuntime);
  const details: CodeDifferenceFacts = {
    compiledRuntimeLength: compiledRuntime.length / 2,
    onchainRuntimeLength: onchainRuntime.length / 2,
    ...(relation.functions > 0 ? { functions: relation.functions, functionsInCode: relation.functionsInCode } : {}),
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
    details.reason = 'extra_file_input_bug';
  }
  return details;
}

/**
 * The libraries the compiled code links: those read from the chain at link references, and
 * those solc linked from `settings.libraries` whose address the compiled code holds (an
 * entry the code never uses is not a library of this contract).
 */
function collectLibraries(input: SolcInput, runtime: CodeMatch | null, creation: CodeMatch | null, compiledCode: string): Record<string, Address> {
  const out: Record<string, Address> = {};
  const code = compiledCode.toLowerCase();
  for (const [file, byName] of Object.entries(input.settings.libraries ?? {})) {
    for (const [name, address] of Object.entries(byName)) {
      const parsed = parseAddress(address);
      if (parsed && code.includes(parsed.slice(2))) out[libraryId(file, name)] = parsed;
    }
  }
  for (const match of [creation, runtime]) {
    for (const [id, address] of Object.entries(match?.values.libraries ?? {})) out[id] = knownAddress(address);
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
      const sameLibrary = have.name === wanted.name && (wanted.path === null || have.path?.replace(/^\//, '') === wanted.path.replace(/^\//, ''));
      if (sameLibrary && address !== link.address.toLowerCase()) {
        throw new SolproofError('library_mismatch', { library: id, onchain: address, submitted: link.address.toLowerCase() });
      }
    }
  }
}

/** The creation transaction's constructor arguments read with the constructor's ABI types; null when there are none or they do not decode. */
export function decodeConstructorArguments(abi: readonly unknown[], hex: string): DecodedArgumentFact[] | null {
  const ctor = abi.find((item) => (item as { type?: unknown }).type === 'constructor') as { inputs?: AbiParameter[] } | undefined;
  const inputs = ctor?.inputs ?? [];
  if (inputs.length === 0 || hex === '') return null;
  try {
    const values = decodeAbiParameters(inputs, `0x${hex}`);
    return inputs.map((input, i) => ({ type: input.type, name: input.name ?? '', value: solidityValue(values[i]) }));
  } catch {
    return null;
  }
}

function solidityValue(value: unknown): string {
  if (typeof value === 'string') return value.startsWith('0x') ? value : JSON.stringify(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(solidityValue).join(', ')}]`;
  if (value && typeof value === 'object') return `(${Object.values(value).map(solidityValue).join(', ')})`;
  return String(value);
}
