import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Abi, createTestClient, http } from 'viem';
import type { Address, Hex } from '../../src/core/types.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = resolve(here, '../../node_modules');

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

interface SolcModule {
  compile(input: string, options?: { import: (path: string) => { contents: string } | { error: string } }): string;
}

function compileSources(solcPackage: string, files: string[], libraryFiles: string[] = [], optimizer = false): Record<string, Artifact> {
  const solc = require(solcPackage) as SolcModule;
  const sources = Object.fromEntries(files.map((file) => [file, { content: readFileSync(join(here, 'contracts', file), 'utf8') }]));
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: optimizer, runs: 200 },
      outputSelection: Object.fromEntries(
        [...files, ...libraryFiles].map((file) => [file, { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] }]),
      ),
    },
  };
  const findImport = (path: string): { contents: string } | { error: string } => {
    if (!path.startsWith('@openzeppelin/contracts/')) return { error: `not found: ${path}` };
    return { contents: readFileSync(join(nodeModules, path), 'utf8') };
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const artifacts: Record<string, Artifact> = {};
  for (const contracts of Object.values(output.contracts)) {
    for (const [name, contract] of Object.entries(contracts)) {
      artifacts[name] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      };
    }
  }
  return artifacts;
}

/**
 * Compiles every fixture contract once: OpenZeppelin-based ones with solc 0.8.28, the
 * Safe-style proxy with 0.7.6, and FoldedSafe.sol with 0.8.28 and the optimizer (which
 * folds the masterCopy() selector out of the code).
 */
export function compileFixtures(): Record<string, Artifact> {
  return {
    ...compileSources(
      'solc',
      ['Logic.sol', 'Proxies.sol', 'Diamonds.sol'],
      [
        '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol',
        '@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol',
        '@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol',
        '@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol',
      ],
    ),
    ...compileSources('solc-0.7.6', ['SafeStyleProxy.sol']),
    ...compileSources('solc', ['FoldedSafe.sol'], [], true),
  };
}

/** Init code that returns `runtime` as the deployed code. */
export function initCodeFor(runtime: Hex): Hex {
  const length = (runtime.length - 2) / 2;
  // PUSH2 len, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN: 12 bytes before the runtime.
  return `0x61${length.toString(16).padStart(4, '0')}80600c6000396000f3${runtime.slice(2)}`;
}

/** anvil's cheat methods, for code and storage no transaction can produce. */
export function anvilCheats(rpcUrl: string) {
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) });
  return {
    setCode: (address: Address, code: Hex) => client.setCode({ address, bytecode: code }),
    setStorageAt: (address: Address, slot: Hex, value: Hex) => client.setStorageAt({ address, index: slot, value }),
  };
}
