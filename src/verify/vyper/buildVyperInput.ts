import { SolproofError } from '../../core/errors.js';
import type { VyperInput, VyperSettings, VyperSubmission } from '../../core/types.js';
import { type VyperVersion, vyperOptimizeIsMode } from '../../core/vyperVersion.js';

/** What one Vyper verification compiles: the input, and the contract in it. */
export interface BuiltVyperInput {
  input: VyperInput;
  /** The key of `input.sources` that is the contract. */
  sourcePath: string;
  /** The file's stem: Vyper names a contract after its file. */
  contractName: string;
}

/** The outputs a verification reads, asked for the one contract: every release from 0.2.5 knows these keys. */
export const VYPER_CONTRACT_OUTPUTS = ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] as const;

/** The stem of a path: `src/Token.vy` names the contract `Token`. */
export function vyperContractName(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/** A path as Vyper's output keys it: `./a/b.vy` and `a//b.vy` are `a/b.vy`. */
export function normalVyperPath(path: string): string {
  return path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/**
 * The input a Vyper submission is compiled as. A `vyper-json` input keeps everything it says
 * (sources, interfaces, settings, storage layout overrides) and gets the service's output
 * selection for the one contract; a single file becomes `<fileName>` with the form's settings
 * (an optimisation yes/no is the compiler's default mode or `none`, as the version spells it).
 * Throws SolproofError `contract_not_found_in_output` when the name designates no source, or
 * several; `invalid_input` for an empty file.
 */
export function buildVyperInput(submission: VyperSubmission, version: VyperVersion): BuiltVyperInput {
  if (submission.codeFormat === 'vyper-single-file') {
    if (submission.sourceCode.trim() === '') throw new SolproofError('invalid_input', { problem: 'empty_source' });
    const name = vyperContractName(submission.contractName.includes(':') ? submission.contractName.split(':').pop()! : submission.contractName);
    const sourcePath = normalVyperPath(submission.fileName?.trim() || `${name}.vy`);
    const settings: VyperSettings = {};
    if (submission.evmVersion.trim() !== '') settings.evmVersion = submission.evmVersion.trim();
    // From 0.3.10 the optimisation is a mode whose default is `gas`; before, a boolean defaulting to true.
    if (vyperOptimizeIsMode(version)) settings.optimize = submission.optimizationUsed ? 'gas' : 'none';
    else settings.optimize = submission.optimizationUsed;
    settings.outputSelection = { [sourcePath]: [...VYPER_CONTRACT_OUTPUTS] };
    return {
      input: { language: 'Vyper', sources: { [sourcePath]: { content: submission.sourceCode } }, settings },
      sourcePath,
      contractName: vyperContractName(sourcePath),
    };
  }
  const given = submission.vyperJson;
  const sourcePath = findContractSource(given, submission.contractName.trim());
  const input: VyperInput = {
    ...given,
    settings: { ...given.settings, outputSelection: { [sourcePath]: [...VYPER_CONTRACT_OUTPUTS] } },
  };
  return { input, sourcePath, contractName: vyperContractName(sourcePath) };
}

/**
 * The source a contract name designates: `path:Name` (the path must be a source, or the end of
 * exactly one source's path, and Name its stem; `path` alone as well), or `Name`, which must be
 * the stem of exactly one `.vy` source.
 */
function findContractSource(input: VyperInput, contractName: string): string {
  const paths = Object.keys(input.sources);
  const colon = contractName.lastIndexOf(':');
  if (colon > 0 || contractName.endsWith('.vy')) {
    const path = colon > 0 ? contractName.slice(0, colon) : contractName;
    const name = colon > 0 ? contractName.slice(colon + 1) : vyperContractName(path);
    const found = paths.find((p) => p === path) ?? paths.find((p) => normalVyperPath(p) === normalVyperPath(path)) ?? onlySourceEndingWith(paths, path);
    if (found === undefined) throw new SolproofError('contract_not_found_in_output', { problem: 'file_not_among_sources', contractName: name, path });
    if (vyperContractName(found) !== name) {
      throw new SolproofError('contract_not_found_in_output', { problem: 'not_in_output', contractName: name, sourcePath: found, available: stems(paths) });
    }
    return found;
  }
  const matching = paths.filter((p) => p.endsWith('.vy') && vyperContractName(p) === contractName);
  if (matching.length === 1) return matching[0]!;
  if (matching.length > 1) throw new SolproofError('contract_not_found_in_output', { problem: 'declared_several_times', contractName });
  throw new SolproofError('contract_not_found_in_output', { problem: 'not_declared', contractName });
}

/**
 * The one source whose path ends with `path` as whole segments: forge names the contract by its
 * path in the project (`src/Vault.vy`) and keys the sources by their absolute paths
 * (`/home/me/project/src/Vault.vy`). Undefined when none or several do.
 */
function onlySourceEndingWith(paths: readonly string[], path: string): string | undefined {
  const tail = `/${normalVyperPath(path)}`;
  if (tail === '/') return undefined;
  const matching = paths.filter((p) => `/${normalVyperPath(p)}`.endsWith(tail));
  return matching.length === 1 ? matching[0] : undefined;
}

/** `path:Name` of every `.vy` source (at most 50), for an answer that names what is there. */
function stems(paths: readonly string[]): string[] {
  return paths
    .filter((p) => p.endsWith('.vy'))
    .slice(0, 50)
    .map((p) => `${p}:${vyperContractName(p)}`);
}
