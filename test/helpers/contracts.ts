import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi } from 'viem';
import type { Hex } from '../../src/core/types.js';
import type { SolcInput, SolcOutput } from '../../src/verify/index.js';
import { installedLongVersion } from './compilerCache.js';
import { compileForTest, solcPackageFor } from './solc.js';

export interface Built {
  abi: Abi;
  bytecode: Hex;
  input: SolcInput;
  output: SolcOutput;
  /** `v0.8.28+commit.7893614a` */
  compilerVersion: string;
}

export interface BuildOptions {
  optimizer?: boolean;
  runs?: number;
  evmVersion?: string;
  viaIR?: boolean;
  metadata?: SolcInput['settings']['metadata'];
  libraries?: Record<string, Record<string, string>>;
}

/** A standard JSON input the way a developer's toolchain writes one. */
export function standardInput(sources: Record<string, string>, options: BuildOptions = {}): SolcInput {
  const settings: SolcInput['settings'] = {
    optimizer: { enabled: options.optimizer ?? false, runs: options.runs ?? 200 },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'metadata'] } },
  };
  if (options.evmVersion) settings.evmVersion = options.evmVersion;
  if (options.viaIR) settings.viaIR = true;
  if (options.metadata) settings.metadata = options.metadata;
  if (options.libraries) settings.libraries = options.libraries;
  return {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([k, content]) => [k, { content }])),
    settings,
  };
}

/** Compiles with the installed solc of `version` and returns one contract's ABI and creation code. */
export async function build(version: string, input: SolcInput, file: string, name: string): Promise<Built> {
  const output = compileForTest(solcPackageFor(version), input);
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  const contract = output.contracts?.[file]?.[name] ?? output.contracts?.['']?.[name];
  if (!contract?.evm?.bytecode?.object) throw new Error(`no bytecode for ${file}:${name}`);
  return {
    abi: (contract.abi ?? []) as Abi,
    bytecode: `0x${contract.evm.bytecode.object}` as Hex,
    input,
    output,
    compilerVersion: `v${await installedLongVersion(version)}`,
  };
}

/** Links a library placeholder (any style) in creation code with an address. */
export function linkBytecode(bytecode: Hex, placeholderPattern: RegExp, address: string): Hex {
  return bytecode.replace(placeholderPattern, address.replace(/^0x/, '').toLowerCase()) as Hex;
}

/** verifysourcecode's fields for a single-file submission of a build. */
export function singleFileFields(address: string, built: Built, name: string, source: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    contractaddress: address,
    sourceCode: source,
    codeformat: 'solidity-single-file',
    contractname: name,
    compilerversion: built.compilerVersion,
    optimizationUsed: built.input.settings.optimizer?.enabled ? '1' : '0',
    runs: String(built.input.settings.optimizer?.runs ?? 200),
    ...extra,
  };
}

/** verifysourcecode's fields for a standard-JSON submission of a build (`contract` is `path:Name`). */
export function standardJsonFields(address: string, built: Built, contract: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    contractaddress: address,
    sourceCode: JSON.stringify(built.input),
    codeformat: 'solidity-standard-json-input',
    contractname: contract,
    compilerversion: built.compilerVersion,
    ...extra,
  };
}

const NODE_MODULES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules');
const IMPORT_RE = /^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;

/**
 * These files and every file they import, keyed by import path (a standard JSON `sources`
 * map): relative imports resolved among them, package imports (`@openzeppelin/...`) read from
 * the installed packages in node_modules.
 */
export function withImports(files: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...files };
  const queue = Object.keys(files);
  while (queue.length) {
    const path = queue.shift()!;
    for (const m of out[path]!.matchAll(IMPORT_RE)) {
      const target = m[1]!.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), m[1]!)) : m[1]!;
      if (out[target] !== undefined) continue;
      out[target] = readFileSync(join(NODE_MODULES, target), 'utf8');
      queue.push(target);
    }
  }
  return out;
}

/** An installed package's source file (`@openzeppelin/contracts/...`) and everything it imports. */
export function packageSources(entry: string): Record<string, string> {
  return withImports({ [entry]: readFileSync(join(NODE_MODULES, entry), 'utf8') });
}
