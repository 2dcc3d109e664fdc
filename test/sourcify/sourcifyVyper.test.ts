/**
 * Vyper through Sourcify's v2 API, end to end: contracts compiled by the real Vyper compilers
 * and deployed on anvil, verified with `POST /v2/verify` and a Vyper standard JSON input (as
 * Sourcify's clients send one: `compilerVersion` with its commit, `contractIdentifier`
 * `path:Name`), judged by the job, and read back with `GET /v2/contract` and v1's
 * check-all-by-addresses. The refusals name the field and the problem at once.
 */
import { encodeAbiParameters, getAddress } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Hex, VyperInput } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { sharedService } from '../helpers/api.js';
import { type DeployedForVerify, deployForVerify, devnetClients } from '../helpers/chain.js';
import { compileVyperForTest, vyperAvailable, vyperInput } from '../helpers/vyper.js';
import { sourcifyErrorWith, sourcifyGet, sourcifyPost, verifyAndWait } from './helpers.js';

const ACCOUNT = deployerAccount('sourcify/sourcifyVyper');
const { baseUrl } = sharedService();
const CHAIN_ID = inject('chainId');
const ready = vyperAvailable();

const V043 = '0.4.3+commit.bff19ea2';
const V0310 = '0.3.10+commit.91361694';

/** A meter capped at a limit fixed at deployment (0.4): immutables, constructor arguments and a module. */
const METER_04 = `# pragma version ~=0.4.3
# SPDX-License-Identifier: MIT
# A meter that counts up to a cap fixed at deployment.
import clamp

KEEPER: public(immutable(address))
CAP: public(immutable(uint256))
reading: public(uint256)

@deploy
def __init__(cap: uint256, keeper: address):
    KEEPER = keeper
    CAP = cap

@external
def tick(by: uint256) -> uint256:
    self.reading = clamp.at_most(self.reading + by, CAP)
    return self.reading
`;

const CLAMP = `@internal
@pure
def at_most(a: uint256, cap: uint256) -> uint256:
    return min(a, cap)
`;

/** The same meter for 0.3.10, in one file. */
const METER_03 = `# @version ^0.3.10
# A meter that counts up to a cap fixed at deployment.

KEEPER: public(immutable(address))
CAP: public(immutable(uint256))
reading: public(uint256)

@external
def __init__(cap: uint256, keeper: address):
    KEEPER = keeper
    CAP = cap

@external
def tick(by: uint256) -> uint256:
    self.reading = min(self.reading + by, CAP)
    return self.reading
`;

const KEEPER = '0x00000000000000000000000000000000000000bb';
const args = (cap: bigint): Hex =>
  encodeAbiParameters(
    [
      { name: 'cap', type: 'uint256' },
      { name: 'keeper', type: 'address' },
    ],
    [cap, KEEPER],
  );

const METER_PATH = 'contracts/Meter.vy';
const input04 = (meter = METER_04): VyperInput => vyperInput({ [METER_PATH]: meter, 'contracts/clamp.vy': CLAMP }, METER_PATH);
const input03 = (): VyperInput => vyperInput({ 'Meter.vy': METER_03 }, 'Meter.vy', { optimize: 'gas' });

/** The input as a client sends it: without the output selection it compiled with. */
function sent(input: VyperInput): Record<string, unknown> {
  const { outputSelection: _o, ...settings } = input.settings;
  return { ...input, settings };
}

async function deploy(version: string, input: VyperInput, path: string, constructorArgs: Hex): Promise<DeployedForVerify & { abi: unknown[] }> {
  const { abi, bytecode } = await compileVyperForTest(version, input, path);
  return { ...(await deployForVerify(`${bytecode}${constructorArgs.slice(2)}` as Hex, ACCOUNT)), abi };
}

const verifyPath = (address: string) => `v2/verify/${CHAIN_ID}/${getAddress(address)}`;

describe.skipIf(!ready)("Vyper through Sourcify's v2 API", () => {
  let meter043: DeployedForVerify & { abi: unknown[] };
  let meter0310: DeployedForVerify & { abi: unknown[] };
  let other043: DeployedForVerify & { abi: unknown[] };
  beforeAll(async () => {
    meter043 = await deploy('0.4.3', input04(), METER_PATH, args(500n));
    meter0310 = await deploy('0.3.10', input03(), 'Meter.vy', args(600n));
    // Deployed from other code than the sources it is then submitted with.
    other043 = await deploy('0.4.3', input04(METER_04.replace('self.reading + by', 'self.reading + 2 * by')), METER_PATH, args(700n));
  }, 240_000);

  it('0.4.3: a full match (the integrity hash proves the sources), the constructor arguments and the immutables read from the chain', async () => {
    const before = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${meter043.address}`);
    expect(before.status).toBe(404);

    const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, getAddress(meter043.address), {
      stdJsonInput: sent(input04()),
      compilerVersion: V043,
      contractIdentifier: `${METER_PATH}:Meter`,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(202);
    expect(job!.body.error, JSON.stringify(job!.body.error)).toBeUndefined();
    expect(job!.body).toMatchObject({
      isJobCompleted: true,
      contract: { match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match', address: getAddress(meter043.address) },
    });

    const all = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${meter043.address}?fields=all`);
    expect(all.status).toBe(200);
    const c = all.body;
    expect(c).toMatchObject({ match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match', chainId: String(CHAIN_ID) });
    expect(c.compilation).toEqual({
      language: 'Vyper',
      compiler: 'vyper',
      compilerVersion: V043,
      compilerSettings: expect.any(Object),
      name: 'Meter',
      fullyQualifiedName: `${METER_PATH}:Meter`,
    });
    expect(c.compilation.compilerSettings.outputSelection).toBeUndefined();
    expect(c.abi).toEqual(meter043.abi);
    expect(c.sources).toEqual({ [METER_PATH]: { content: METER_04 }, 'contracts/clamp.vy': { content: CLAMP } });
    expect(c.stdJsonInput).toEqual({ language: 'Vyper', sources: c.sources, settings: c.compilation.compilerSettings });
    expect(c.stdJsonOutput).toBeNull();
    // Vyper's layouts are not kept: null, as Sourcify answers for a contract without one.
    expect(c.storageLayout).toBeNull();
    expect(c.transientStorageLayout).toBeNull();
    // Vyper writes no metadata.json, and its docs are not kept.
    expect([c.metadata, c.userdoc, c.devdoc]).toEqual([null, null, null]);
    expect(c.signatures.function.map((f: { signature: string }) => f.signature).sort()).toEqual(['CAP()', 'KEEPER()', 'reading()', 'tick(uint256)']);

    const onchain = await devnetClients(ACCOUNT).publicClient.getCode({ address: meter043.address });
    expect(c.runtimeBytecode.onchainBytecode).toBe(onchain);
    expect(c.creationBytecode.onchainBytecode).toBe(meter043.creation.creationCode);
    expect(c.creationBytecode.transformations).toContainEqual(expect.objectContaining({ type: 'insert', reason: 'constructorArguments' }));
    expect(c.creationBytecode.transformationValues.constructorArguments).toBe(args(500n));
    // The immutables the constructor wrote follow the runtime code: CAP and KEEPER, as the chain holds them.
    expect(c.runtimeBytecode.transformations).toContainEqual(expect.objectContaining({ type: 'insert', reason: 'immutable' }));
    const immutables = Object.values(c.runtimeBytecode.transformationValues.immutables ?? {}) as string[];
    expect(immutables.join('')).toContain(KEEPER.slice(2));
    expect(onchain!.endsWith(immutables.map((v) => v.replace(/^0x/, '')).join(''))).toBe(true);
    expect(c.deployment).toMatchObject({ transactionHash: meter043.creation.transactionHash, deployer: getAddress(devnetClients(ACCOUNT).account) });

    const v1 = await sourcifyGet(baseUrl, `check-all-by-addresses?addresses=${meter043.address}&chainIds=${CHAIN_ID}`);
    expect(v1.body).toEqual([{ address: getAddress(meter043.address), chainIds: [{ chainId: String(CHAIN_ID), status: 'perfect' }] }]);
  });

  it('0.3.10: a partial match (nothing before 0.4.1 proves the sources byte for byte)', async () => {
    const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, getAddress(meter0310.address), {
      stdJsonInput: sent(input03()),
      compilerVersion: V0310,
      contractIdentifier: 'Meter.vy:Meter',
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(202);
    expect(job!.body.error, JSON.stringify(job!.body.error)).toBeUndefined();
    expect(job!.body.contract).toMatchObject({ match: 'match', runtimeMatch: 'match' });

    const c = (await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${meter0310.address}?fields=compilation,sources,abi,storageLayout,creationBytecode`)).body;
    expect(c).toMatchObject({ match: 'match' });
    expect(c.compilation).toMatchObject({
      language: 'Vyper',
      compiler: 'vyper',
      compilerVersion: V0310,
      name: 'Meter',
      fullyQualifiedName: 'Meter.vy:Meter',
    });
    expect(c.compilation.compilerSettings).toMatchObject({ optimize: 'gas' });
    expect(c.sources).toEqual({ 'Meter.vy': { content: METER_03 } });
    expect(c.abi).toEqual(meter0310.abi);
    expect(c.storageLayout).toBeNull();
    expect(c.creationBytecode.transformationValues.constructorArguments).toBe(args(600n));

    const v1 = await sourcifyGet(baseUrl, `check-all-by-addresses?addresses=${meter0310.address}&chainIds=${CHAIN_ID}`);
    expect(v1.body).toEqual([{ address: getAddress(meter0310.address), chainIds: [{ chainId: String(CHAIN_ID), status: 'partial' }] }]);
  });

  it('sources that are not the deployed ones: the job fails, saying the code does not match, and nothing is verified', async () => {
    const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, getAddress(other043.address), {
      stdJsonInput: sent(input04()),
      compilerVersion: V043,
      contractIdentifier: `${METER_PATH}:Meter`,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(202);
    expect(job!.body).toMatchObject({
      isJobCompleted: true,
      contract: { match: null },
      error: sourcifyErrorWith('no_match', "The deployed and recompiled bytecode don't match."),
    });
    // The diagnosis tried the settings a Vyper contract may differ in, and says none made it match.
    expect(job!.body.error.message).toMatch(/No setting tried made it match/);
    expect(job!.body.error.errorData).toMatchObject({ code: 'no_match', diagnosis: { language: 'Vyper', facts: { version: '0.4.3' } } });
    expect((await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${other043.address}`)).status).toBe(404);
  });

  it("another Vyper release than the deployed one: the job fails with the compiler's own error", async () => {
    const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, getAddress(other043.address), {
      stdJsonInput: sent(input04(METER_04.replace('self.reading + by', 'self.reading + 2 * by'))),
      compilerVersion: '0.4.0+commit.e9db8d9f',
      contractIdentifier: `${METER_PATH}:Meter`,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(202);
    // The sources' own pragma refuses the compiler: Vyper's error is the message.
    expect(job!.body).toMatchObject({
      contract: { match: null },
      error: sourcifyErrorWith(
        'compiler_error',
        'Compiler error. Vyper Compilation Error: Version specification "~=0.4.3" is not compatible with compiler version "0.4.0"',
      ),
    });
    expect(job!.body.error.errorData.compilerErrors[0]).toMatchObject({ severity: 'error', type: 'VersionException' });
  });

  describe('refusals name the field and the problem', () => {
    const refused = async (address: string, body: Record<string, unknown>) => {
      const answer = await sourcifyPost(baseUrl, verifyPath(address), body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return answer.body;
    };

    it('a version that is no Vyper release, and a solc version for Vyper sources', async () => {
      const body = { stdJsonInput: sent(input04()), contractIdentifier: `${METER_PATH}:Meter` };
      expect(await refused(other043.address, { ...body, compilerVersion: '0.4.3+commit.deadbeef' })).toEqual(
        sourcifyErrorWith(
          'invalid_parameter',
          'Invalid compilerVersion: compiler version 0.4.3+commit.deadbeef is not a Vyper release: that release is vyper:0.4.3+commit.bff19ea2',
        ),
      );
      expect(await refused(other043.address, { ...body, compilerVersion: '0.8.26+commit.8a97fa7a' })).toEqual(
        sourcifyErrorWith('invalid_parameter', 'Invalid compilerVersion: 0.8.26+commit.8a97fa7a is a solc version, and these are Vyper sources'),
      );
      expect(await refused(other043.address, { ...body, compilerVersion: 'latest' })).toEqual(
        sourcifyErrorWith('invalid_parameter', 'Invalid compilerVersion: compiler version latest is not a Vyper version'),
      );
    });

    it('a contract identifier that designates no source, and Solidity in a Vyper input', async () => {
      expect(await refused(other043.address, { stdJsonInput: sent(input04()), compilerVersion: V043, contractIdentifier: 'contracts/Nope.vy:Nope' })).toEqual(
        sourcifyErrorWith('invalid_parameter', 'Invalid contractIdentifier: the file "contracts/Nope.vy" is not among the sources'),
      );
      const solidity = { language: 'Vyper', sources: { 'A.sol': { content: 'pragma solidity ^0.8.0;\ncontract A {}\n' } }, settings: {} };
      expect(await refused(other043.address, { stdJsonInput: solidity, compilerVersion: V043, contractIdentifier: 'A.sol:A' })).toEqual(
        sourcifyErrorWith('invalid_parameter', 'Invalid stdJsonInput: the vyper-json input holds Solidity ("A.sol")'),
      );
    });
  });
});
