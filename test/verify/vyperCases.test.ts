/**
 * The Vyper verification cases other verifiers publish (test/fixtures/vyper-cases, see its
 * README): each deployed on anvil as the case gives it and verified with the real compiler of
 * the case, with the verdict and the transformations the other verifier gives, except where
 * the integrity hash proves more (BEYOND).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Abi, encodeDeployData } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Address, Hex, VyperInput, VyperJsonSubmission } from '../../src/core/types.js';
import { type VyperVerificationResult, verifyVyperContract } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { type DeployedForVerify, deployForVerify, devnetClients } from '../helpers/chain.js';
import { rejection } from '../helpers/rejection.js';
import { testVyperCompiler, vyperAvailable } from '../helpers/vyper.js';

const ACCOUNT = deployerAccount('verify/vyperCases');
const CASES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'vyper-cases');
const ready = vyperAvailable();

/** Hardhat's and anvil's first account: the deployer the cases were recorded with, found in their immutables. */
const RECORDED_DEPLOYER = 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/**
 * Where the integrity hash (Vyper 0.4.1 on) proves more than the other verifier says: the
 * sources are exactly those compiled, so the runtime code the proven init code deployed is a
 * full match too (Sourcify gives `exact_match` for the creation only; Blockscout gives every
 * Vyper contract a partial match).
 */
const BEYOND: Record<string, { runtimeMatch?: 'full'; creationMatch?: 'full'; matchKind: 'full' }> = {
  'sourcify-server/auxdata-0.4.1': { runtimeMatch: 'full', matchKind: 'full' },
};

/**
 * Blockscout's cases whose constructor calls mainnet contracts (or reverts on an empty chain):
 * Blockscout verifies them from the init code alone. Here the case's deployed code is put at a
 * fresh address (anvil_setCode) and its init code given as the creation.
 */
const NOT_DEPLOYABLE = new Set(['erc20.json', 'standard_json_with_interfaces.json', 'with_interfaces.json']);

/** The case's codes at a fresh address, its init code as the creation (for a case whose constructor cannot run here). */
async function placeForVerify(creationCode: Hex, runtimeCode: Hex): Promise<DeployedForVerify> {
  const { publicClient, account } = devnetClients(ACCOUNT);
  const address = `0x${randomBytes(20).toString('hex')}` as Address;
  await publicClient.request({ method: 'anvil_setCode' as never, params: [address, runtimeCode] as never });
  return {
    address,
    runtimeCode: (await publicClient.getCode({ address })) as Hex,
    creation: { creationCode, transactionHash: `0x${'00'.repeat(32)}`, blockNumber: 0n, creator: account, byFactory: false },
  };
}

const LEVEL: Record<string, 'full' | 'partial' | null> = { exact_match: 'full', match: 'partial', partial: 'partial', perfect: 'full' };

function jsonSubmission(
  deployed: DeployedForVerify,
  compilerVersion: string,
  input: unknown,
  contractName: string,
  constructorArguments = '',
): VyperJsonSubmission {
  return {
    codeFormat: 'vyper-json',
    address: deployed.address,
    contractName,
    compilerVersion,
    constructorArguments,
    licenseType: 0,
    vyperJson: structuredClone(input) as VyperInput,
  };
}

function verify(submission: VyperJsonSubmission, deployed: DeployedForVerify, creation = true): Promise<VyperVerificationResult> {
  return verifyVyperContract({ compiler: testVyperCompiler(), submission, runtimeCode: deployed.runtimeCode, creation: creation ? deployed.creation : null });
}

/** Our deployer where the case has the one it was recorded with. */
function asDeployedHere(value: unknown): unknown {
  const { account } = devnetClients(ACCOUNT);
  return JSON.parse(JSON.stringify(value).replaceAll(RECORDED_DEPLOYER, account.slice(2)));
}

interface SourcifyServerCase {
  onchain: { creationBytecode: Hex; deployedBytecode: Hex };
  input: { stdJsonInput: unknown; compilerVersion: string; contractIdentifier: string };
  verification: {
    creationMatch: string | null;
    runtimeMatch: string | null;
    creationTransformations: unknown[];
    creationValues: unknown;
    runtimeTransformations: unknown[];
    runtimeValues: unknown;
  };
}

const serverCases = readdirSync(join(CASES, 'sourcify-server')).filter((f) => f.endsWith('.json'));

describe.skipIf(!ready)("Sourcify's Vyper verification cases (Verifier Alliance format)", () => {
  it.each(serverCases)('%s', async (file) => {
    const c = JSON.parse(readFileSync(join(CASES, 'sourcify-server', file), 'utf8')) as SourcifyServerCase;
    const deployed = await deployForVerify(c.onchain.creationBytecode, ACCOUNT);
    expect(deployed.runtimeCode).toBe(asDeployedHere(c.onchain.deployedBytecode));
    const result = await verify(jsonSubmission(deployed, c.input.compilerVersion, c.input.stdJsonInput, c.input.contractIdentifier), deployed);
    const beyond = BEYOND[`sourcify-server/${file.replace(/\.json$/, '')}`];
    expect(result.creationMatch).toBe(beyond?.creationMatch ?? LEVEL[c.verification.creationMatch ?? ''] ?? null);
    expect(result.runtimeMatch).toBe(beyond?.runtimeMatch ?? LEVEL[c.verification.runtimeMatch ?? '']);
    if (beyond) expect(result.matchKind).toBe(beyond.matchKind);
    expect(result.transformations.creation).toEqual(c.verification.creationTransformations);
    expect(result.transformations.runtime).toEqual(c.verification.runtimeTransformations);
    expect(result.transformationValues.creation).toEqual(asDeployedHere(c.verification.creationValues));
    expect(result.transformationValues.runtime).toEqual(asDeployedHere(c.verification.runtimeValues));
  });
});

/** lib-sourcify's Vyper verification tests (test/Verification/Verification.spec.ts), as data. */
describe.skipIf(!ready)("lib-sourcify's Vyper verification tests", () => {
  const folder = (name: string) => join(CASES, 'sourcify-lib', name);
  const artifact = (name: string) => JSON.parse(readFileSync(join(folder(name), 'artifact.json'), 'utf8')) as { abi: unknown[]; bytecode: Hex };
  const source = (name: string) => readFileSync(join(folder(name), 'test.vy'), 'utf8');
  /** What createVyperCompilation builds: test.vy with the settings given (istanbul when none). */
  const input = (name: string, settings: Record<string, unknown> = { evmVersion: 'istanbul' }) => ({
    language: 'Vyper',
    sources: { 'test.vy': { content: source(name) } },
    settings,
  });
  const deploy = (name: string, args: unknown[] = []) => {
    const a = artifact(name);
    return deployForVerify(encodeDeployData({ abi: a.abi as Abi, bytecode: a.bytecode, args } as never), ACCOUNT);
  };

  it('a simple contract (0.3.10) matches partially', async () => {
    const deployed = await deploy('testcontract');
    const result = await verify(jsonSubmission(deployed, '0.3.10+commit.91361694', input('testcontract'), 'test.vy:test'), deployed);
    expect(result).toMatchObject({ runtimeMatch: 'partial', creationMatch: 'partial' });
  });

  it('a contract of 0.3.9 with a constructor: the auxdata is at the end of the runtime code', async () => {
    const deployed = await deploy('constructorArguments_0_3_9');
    const result = await verify(
      jsonSubmission(deployed, '0.3.9+commit.66b96705', input('constructorArguments_0_3_9', { evmVersion: 'cancun' }), 'test.vy:test'),
      deployed,
    );
    expect(result).toMatchObject({ runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(result.compiled.runtime.auxdata.positions).toEqual([{ id: '1', offset: 1844, length: 13, value: 'a165767970657283000309000b' }]);
  });

  it('immutables (0.4.0, codesize), the code alone: an immutable inserted after the runtime code', async () => {
    const deployed = await deploy('withImmutables', [5n]);
    const result = await verify(
      jsonSubmission(deployed, '0.4.0+commit.e9db8d9f', input('withImmutables', { evmVersion: 'london', optimize: 'codesize' }), 'test.vy:test'),
      deployed,
      false,
    );
    expect(result).toMatchObject({ runtimeMatch: 'partial', creationMatch: null });
    expect(result.transformations).toEqual({ runtime: [{ type: 'insert', reason: 'immutable', offset: 167, id: '0' }], creation: [] });
    expect(result.transformationValues.runtime).toEqual(
      asDeployedHere({
        immutables: {
          '0': '0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266000000000000000000000000000000000000000000000000000000000000000500000000000000000000000000000000000000000000000000eca7a2f8618d6f',
        },
      }),
    );
  });

  it('immutables (0.4.0) with the creation: the constructor arguments inserted', async () => {
    const deployed = await deploy('withImmutables', [5n]);
    const result = await verify(
      jsonSubmission(deployed, '0.4.0+commit.e9db8d9f', input('withImmutables', { evmVersion: 'london', optimize: 'codesize' }), 'test.vy:test'),
      deployed,
    );
    expect(result).toMatchObject({ runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(result.transformations.creation).toEqual([{ type: 'insert', reason: 'constructorArguments', offset: 245 }]);
    expect(result.transformationValues.creation).toEqual({ constructorArguments: '0x0000000000000000000000000000000000000000000000000000000000000005' });
  });

  it('another contract is no match', async () => {
    const deployed = await deploy('testcontract');
    const error = await rejection(verify(jsonSubmission(deployed, '0.3.10+commit.91361694', input('testcontract2'), 'test.vy:test'), deployed, false));
    expect(error.code).toBe('no_match');
  });

  it('auxdata naming another version is replaced', async () => {
    const deployed = await deploy('testcontract/wrongAuxdata');
    const result = await verify(jsonSubmission(deployed, '0.3.10+commit.91361694', input('testcontract'), 'test.vy:test'), deployed);
    expect(result).toMatchObject({ runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(result.transformations.creation).toEqual([{ type: 'replace', reason: 'cborAuxdata', offset: 158, id: '1' }]);
    expect(result.transformationValues.creation).toEqual({ cborAuxdata: { '1': '0x84188f8000a1657679706572830003090012' } });
  });
});

interface BlockscoutCase {
  creation_bytecode: Hex;
  deployed_bytecode: Hex;
  compiler_version: string;
  expected_constructor_argument?: string | null;
  // Flattened: one file.
  contract_name?: string;
  source_code?: string;
  evm_version?: string | null;
  // Multi-part: files and interfaces as texts.
  file_name?: string;
  source_files?: Record<string, string>;
  interfaces?: Record<string, string>;
  // Standard JSON.
  input?: unknown;
}

/** The Vyper standard JSON input each of Blockscout's request kinds stands for. */
function blockscoutInput(c: BlockscoutCase): { input: unknown; contractName: string } {
  if (c.input !== undefined) return { input: typeof c.input === 'string' ? JSON.parse(c.input) : c.input, contractName: `${c.file_name}:${c.contract_name}` };
  const settings = c.evm_version ? { evmVersion: c.evm_version } : {};
  if (c.source_code !== undefined) {
    const name = c.contract_name ?? 'VyperContract';
    return { input: { language: 'Vyper', sources: { [`${name}.vy`]: { content: c.source_code } }, settings }, contractName: name };
  }
  const interfaces: Record<string, unknown> = {};
  for (const [path, text] of Object.entries(c.interfaces ?? {})) {
    if (!path.endsWith('.json')) interfaces[path] = { content: text };
    else {
      const parsed = JSON.parse(text) as unknown;
      interfaces[path] = Array.isArray(parsed) ? { abi: parsed } : parsed;
    }
  }
  const sources = Object.fromEntries(Object.entries(c.source_files ?? {}).map(([path, content]) => [path, { content }]));
  return { input: { language: 'Vyper', sources, interfaces, settings }, contractName: `${c.file_name}:${c.contract_name}` };
}

const blockscoutCases = readdirSync(join(CASES, 'blockscout')).filter((f) => f.endsWith('.json'));

describe.skipIf(!ready)("Blockscout's Vyper verifier cases", () => {
  it.each(blockscoutCases)('%s', async (file) => {
    const c = JSON.parse(readFileSync(join(CASES, 'blockscout', file), 'utf8')) as BlockscoutCase;
    // Blockscout's deployed_bytecode is the compiled runtime code (without immutables): the
    // code at the address is what the init code leaves there.
    const deployed = NOT_DEPLOYABLE.has(file)
      ? await placeForVerify(c.creation_bytecode, c.deployed_bytecode)
      : await deployForVerify(c.creation_bytecode, ACCOUNT);
    const { input, contractName } = blockscoutInput(c);
    const result = await verify(jsonSubmission(deployed, c.compiler_version, input, contractName), deployed);
    const beyond = BEYOND[`blockscout/${file.replace(/\.json$/, '')}`];
    // Blockscout: "Vyper always results in partial matches".
    expect(result.matchKind).toBe(beyond?.matchKind ?? 'partial');
    expect(result.creationMatch).toBe(beyond?.creationMatch ?? 'partial');
    expect(result.constructorArguments ?? '').toBe((c.expected_constructor_argument ?? '').replace(/^0x/, ''));
    if (file === 'standard_json_contracts_with_integrity_hashes.json') {
      // The case's init code was not compiled from its input: its integrity hash is another.
      // Blockscout calls it partial as it calls every Vyper match; here the hash says why.
      expect(result.integrity.compiled).not.toBe(result.integrity.onchain);
      expect(result.transformations.creation).toEqual([{ type: 'replace', reason: 'cborAuxdata', offset: (c.creation_bytecode.length - 2) / 2 - 52, id: '1' }]);
    }
  });
});
