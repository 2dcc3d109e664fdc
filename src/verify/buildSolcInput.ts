import { SolproofError } from '../core/errors.js';
import { isAddress } from '../core/hex.js';
import { isRecord } from '../core/json.js';
import { type DeclarationKeyword, solidityOutline } from '../core/solidityOutline.js';
import type { LibraryLink, SingleFileSubmission, SourceSubmission, StandardJsonSubmission } from '../core/types.js';
import type { SolcInput, SolcSettings } from './solcTypes.js';
import { checkStandardJsonInput } from './standardJsonText.js';

/**
 * What the service asks solc for, for the one contract being verified: what matching needs
 * and nothing more (solc then generates code for that contract and what it creates only).
 * Not part of the metadata, so overriding the user's selection cannot change the code.
 * `evm.legacyAssembly` carries the auxdata values the matcher needs. The storage layouts are
 * kept with the verified compilation (served, never matched); every solc ignores an output it
 * does not know (0.4.11 to 0.5.12 give no `storageLayout`, before 0.8.27 no
 * `transientStorageLayout`), so the same selection is asked of all.
 */
export const CONTRACT_OUTPUTS: readonly string[] = [
  'abi',
  'metadata',
  'evm.bytecode.object',
  'evm.bytecode.linkReferences',
  'evm.deployedBytecode.object',
  'evm.deployedBytecode.linkReferences',
  'evm.deployedBytecode.immutableReferences',
  'evm.legacyAssembly',
  'storageLayout',
  'transientStorageLayout',
];

/** The output selection for one contract. */
export function outputSelectionFor(sourcePath: string, contractName: string): Record<string, Record<string, string[]>> {
  return { [sourcePath]: { [contractName]: [...CONTRACT_OUTPUTS] } };
}

/**
 * The output selection for one contract that also asks for every other contract's creation
 * code, for the compilers that need it. solc 0.4.18 to 0.8.3 generate code for the selected
 * contracts and what they depend on, but miss a contract created (`new C`,
 * `type(C).creationCode`) inside an internal library function, a free function or a base
 * contract that is not compiled on its own (abstract, or with an internal constructor; fixed
 * in 0.7.5): compiling the selected contract then stops at `InternalCompilerError: Compiled
 * contract not found`. With every contract selected, solc compiles them all. The selected
 * contract's code is the same either way.
 */
export function everyContractSelectionFor(sourcePath: string, contractName: string): Record<string, Record<string, string[]>> {
  const selection: Record<string, Record<string, string[]>> = { '*': { '*': ['evm.bytecode.object'] } };
  (selection[sourcePath] ??= {})[contractName] = [...CONTRACT_OUTPUTS];
  return selection;
}

export interface BuiltSolcInput {
  input: SolcInput;
  /** The key of `input.sources` that defines the contract. */
  sourcePath: string;
  contractName: string;
  /** A single file: its name in `input.sources` is made up from the contract name, never the user's. */
  singleFile?: boolean;
}

export interface BuildSolcInputOptions {
  /**
   * Put the form's library addresses into `settings.libraries` (default true). Without
   * them solc leaves placeholders, which lets the matcher read the on-chain addresses and
   * say which library was wrong.
   */
  includeFormLibraries?: boolean;
}

const SOLIDITY_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Builds the standard JSON input solc compiles for a submission.
 *
 * Single file: one source `<ContractName>.sol`, `optimizer: {enabled, runs}` written
 * explicitly, `evmVersion` only when given, `viaIR` only when true, the form's libraries
 * under that one source path (a `path:` prefix on a library name is dropped: the path is
 * the service's own).
 *
 * Standard JSON (parsed when it was submitted): every setting that can change the code is
 * kept as given (compileSettings), `outputSelection` asks for the one contract; the form's
 * optimizer fields are ignored. The form's libraries are merged into `settings.libraries`: `path:Name` goes
 * under that source; a bare `Name` goes under every source that declares `library Name`
 * (when several do, each gets the entry: solc only uses the one it links, and guessing one
 * would be arbitrary); a bare name no source declares is left out of the input and only
 * checked against the on-chain addresses after compiling.
 *
 * Throws SolproofError `invalid_input` or `invalid_standard_json`.
 */
export function buildSolcInput(submission: SourceSubmission, options: BuildSolcInputOptions = {}): BuiltSolcInput {
  const includeFormLibraries = options.includeFormLibraries ?? true;
  const libraries = includeFormLibraries ? normaliseLibraries(submission.libraries) : [];
  if (submission.codeFormat === 'solidity-single-file') return buildSingleFile(submission, libraries);
  if (submission.codeFormat === 'solidity-standard-json-input') return buildStandardJson(submission, libraries);
  throw new SolproofError('invalid_input', { problem: 'unsupported_code_format', codeFormat: String((submission as { codeFormat: unknown }).codeFormat) });
}

interface FormLibrary {
  path: string | null;
  name: string;
  address: string;
}

/** `path:Name` or `Name`; the name is everything after the last colon. */
export function splitQualifiedName(qualified: string): { path: string | null; name: string } {
  const i = qualified.lastIndexOf(':');
  return i < 0 ? { path: null, name: qualified } : { path: qualified.slice(0, i), name: qualified.slice(i + 1) };
}

function normaliseLibraries(links: LibraryLink[]): FormLibrary[] {
  const out: FormLibrary[] = [];
  for (const link of links) {
    const qualified = link.name.trim();
    const { path, name } = splitQualifiedName(qualified);
    if (!SOLIDITY_IDENTIFIER.test(name)) throw new SolproofError('invalid_input', { problem: 'invalid_library_name', name: link.name });
    if (!isAddress(link.address)) {
      throw new SolproofError('invalid_input', { problem: 'invalid_library_address', name: link.name, address: link.address });
    }
    const address = link.address.toLowerCase();
    const same = out.find((l) => l.name === name && l.path === path);
    if (same && same.address !== address) {
      throw new SolproofError('invalid_input', { problem: 'library_given_twice', name: link.name });
    }
    if (!same) out.push({ path, name, address });
  }
  return out;
}

function buildSingleFile(submission: SingleFileSubmission, libraries: FormLibrary[]): BuiltSolcInput {
  const contractName = splitQualifiedName(submission.contractName.trim()).name;
  if (!SOLIDITY_IDENTIFIER.test(contractName)) {
    throw new SolproofError('invalid_input', { problem: 'invalid_contract_name', contractName: submission.contractName });
  }
  if (submission.sourceCode.trim() === '') throw new SolproofError('invalid_input', { problem: 'empty_source' });
  const runs = submission.runs;
  if (!Number.isSafeInteger(runs) || runs < 0 || runs > 0xffffffff) {
    throw new SolproofError('invalid_input', { problem: 'invalid_runs', runs: String(runs) });
  }
  const sourcePath = `${contractName}.sol`;
  const settings: SolcSettings = {
    // `enabled` is written even when false: before 0.8.6 a missing flag is not the same as false.
    optimizer: { enabled: submission.optimizationUsed, runs },
  };
  const evmVersion = normaliseEvmVersion(submission.evmVersion);
  if (evmVersion) settings.evmVersion = evmVersion;
  if (submission.viaIR) settings.viaIR = true;
  if (libraries.length > 0) {
    const entries: Record<string, string> = {};
    for (const lib of libraries) {
      if (entries[lib.name] !== undefined && entries[lib.name] !== lib.address) {
        throw new SolproofError('invalid_input', { problem: 'library_given_twice', name: lib.name });
      }
      entries[lib.name] = lib.address;
    }
    settings.libraries = { [sourcePath]: entries };
  }
  settings.outputSelection = outputSelectionFor(sourcePath, contractName);
  return {
    input: { language: 'Solidity', sources: { [sourcePath]: { content: submission.sourceCode } }, settings },
    sourcePath,
    contractName,
    singleFile: true,
  };
}

function normaliseEvmVersion(evmVersion: string): string {
  const v = evmVersion.trim();
  return v === '' || v.toLowerCase() === 'default' ? '' : v;
}

/**
 * The user's settings, less what cannot change the code but can cost a compile its time or
 * memory: the SMT model checker (it can run for the whole time limit on a few lines), debug
 * annotations of the assembly output, `stopAfter`, and literal sources in a metadata that the
 * code does not carry a hash of. None of these is recorded in the metadata, so a contract
 * compiled with them still matches fully. `outputSelection` is set per contract later.
 */
export function compileSettings(given: Record<string, unknown>): SolcSettings {
  const { modelChecker: _modelChecker, stopAfter: _stopAfter, ...rest } = structuredClone(given);
  const settings = rest as SolcSettings;
  const debug = settings['debug'];
  if (isRecord(debug)) {
    const { debugInfo: _debugInfo, ...keep } = debug;
    if (Object.keys(keep).length > 0) settings['debug'] = keep;
    else delete settings['debug'];
  }
  const metadata = settings.metadata;
  if (isRecord(metadata) && metadata.useLiteralContent === true && (metadata.appendCBOR === false || metadata.bytecodeHash === 'none')) {
    delete metadata.useLiteralContent;
  }
  return settings;
}

/** The key of `sources` for a user-given path; a leading `/` on either side is tolerated. */
export function resolveSourcePath(sources: Record<string, unknown>, path: string): string | null {
  if (Object.hasOwn(sources, path)) return path;
  const alt = path.startsWith('/') ? path.slice(1) : `/${path}`;
  if (Object.hasOwn(sources, alt)) return alt;
  return null;
}

/** Whether `content` declares `name` with one of `keywords`. */
function declares(content: string, keywords: readonly DeclarationKeyword[], name: string): boolean {
  for (const item of solidityOutline(content)) {
    if (item.kind === 'declaration' && item.name === name && keywords.includes(item.keyword)) return true;
  }
  return false;
}

function buildStandardJson(submission: StandardJsonSubmission, libraries: FormLibrary[]): BuiltSolcInput {
  const given = checkStandardJsonInput(submission.standardJson);
  const input: SolcInput = { language: given.language, sources: given.sources, settings: compileSettings(given.settings) };
  const { path, name } = splitQualifiedName(submission.contractName.trim());
  if (!SOLIDITY_IDENTIFIER.test(name)) {
    throw new SolproofError('invalid_input', { problem: 'invalid_contract_name', contractName: submission.contractName });
  }
  let sourcePath: string | null;
  if (path !== null) {
    sourcePath = resolveSourcePath(input.sources, path);
    if (sourcePath === null) {
      throw new SolproofError('contract_not_found_in_output', { problem: 'file_not_among_sources', contractName: submission.contractName, path });
    }
  } else {
    // Etherscan wants `path:Name` here; a bare name is still accepted when exactly one file declares it.
    const candidates = Object.entries(input.sources)
      .filter(([, s]) => declares(s.content ?? '', ['contract', 'library', 'interface'], name))
      .map(([p]) => p);
    if (candidates.length !== 1) {
      throw new SolproofError('contract_not_found_in_output', {
        problem: candidates.length === 0 ? 'not_declared' : 'declared_several_times',
        contractName: name,
      });
    }
    sourcePath = candidates[0]!;
  }
  mergeLibraries(input, libraries);
  input.settings.outputSelection = outputSelectionFor(sourcePath, name);
  return { input, sourcePath, contractName: name };
}

function mergeLibraries(input: SolcInput, libraries: FormLibrary[]): void {
  if (libraries.length === 0) return;
  const merged: Record<string, Record<string, string>> = structuredClone(input.settings.libraries ?? {});
  let added = false;
  for (const lib of libraries) {
    const existing = Object.entries(merged).filter(([file, names]) => names[lib.name] !== undefined && (lib.path === null || samePath(file, lib.path)));
    if (existing.length > 0) {
      for (const [file, names] of existing) {
        if (names[lib.name]!.toLowerCase() !== lib.address) {
          throw new SolproofError('invalid_input', {
            problem: 'library_conflict',
            library: `${file}:${lib.name}`,
            inInput: names[lib.name]!,
            inForm: lib.address,
          });
        }
      }
      continue;
    }
    const files =
      lib.path !== null
        ? [resolveSourcePath(input.sources, lib.path) ?? lib.path]
        : Object.entries(input.sources)
            .filter(([, s]) => declares(s.content ?? '', ['library'], lib.name))
            .map(([p]) => p);
    for (const file of files) {
      (merged[file] ??= {})[lib.name] = lib.address;
      added = true;
    }
  }
  // Untouched otherwise: even an empty `libraries` object would be a change to the user's input.
  if (added) input.settings.libraries = merged;
}

function samePath(a: string, b: string): boolean {
  return a.replace(/^\//, '') === b.replace(/^\//, '');
}
