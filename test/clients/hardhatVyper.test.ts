/**
 * Hardhat's Vyper path, as far as it runs offline: hardhat-verify's Etherscan clients (v2 and
 * v3), called as a script calls them, with Vyper's standard JSON input. Both send every input
 * as `solidity-standard-json-input`, which is read as Vyper's for a Vyper input: with a
 * `vyper:` compiler, or a bare version as Hardhat's Vyper configs spell it. A solc version gets
 * a refusal that says what to send. (Hardhat's Vyper compiler plugin downloads its compilers
 * from GitHub, which the tests do not reach: the contract is compiled by the installed Vyper.)
 */
import { Etherscan as EtherscanV2 } from '@nomicfoundation/hardhat-verify/etherscan.js';
import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { Etherscan as EtherscanV3 } from '../../node_modules/hardhat-verify-v3/dist/src/internal/etherscan.js';
import type { Hex, VyperInput } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { deployForVerify } from '../helpers/chain.js';
import { compileVyperForTest, vyperAvailable, vyperInput } from '../helpers/vyper.js';

// The clients send through http_proxy whenever it is set, even for 127.0.0.1.
for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) delete process.env[k];

const ACCOUNT = deployerAccount('clients/hardhatVyper');
const { apiUrl, baseUrl, apiKey } = sharedService();
const CHAIN_ID = inject('chainId');
const RUN = `${Date.now()}-${process.pid}`;

const counter = (client: string) => `# pragma version ~=0.4.0
# SPDX-License-Identifier: MIT
# Verified by hardhat-verify ${client}, run ${RUN}.
LIMIT: public(immutable(uint256))
count: public(uint256)

@deploy
def __init__(limit: uint256):
    LIMIT = limit

@external
def bump():
    self.count = min(self.count + 1, LIMIT)
`;
const ARGS = encodeAbiParameters([{ name: 'limit', type: 'uint256' }], [9n]).slice(2);
const NAME = 'contracts/Counter.vy:Counter';

async function deployed(client: string): Promise<{ address: string; input: VyperInput }> {
  const input = vyperInput({ 'contracts/Counter.vy': counter(client) }, 'contracts/Counter.vy');
  const { bytecode } = await compileVyperForTest('0.4.3', input, 'contracts/Counter.vy');
  return { address: (await deployForVerify(`${bytecode}${ARGS}` as Hex, ACCOUNT)).address, input };
}

const record = async (address: string) =>
  (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result[0] as Record<string, string>;

describe.skipIf(!vyperAvailable())("Hardhat's Etherscan clients with Vyper's standard JSON input", () => {
  let v3: EtherscanV3;
  let v2: EtherscanV2;
  beforeAll(() => {
    v2 = new EtherscanV2(apiKey, apiUrl, baseUrl, undefined);
    v3 = new EtherscanV3({ chainId: CHAIN_ID, url: baseUrl, apiUrl, apiKey });
  });

  it('v2 (hardhat-verify 2): verify with vyper:0.4.3, the status passes, the record is Vyper', async () => {
    const { address, input } = await deployed('v2');
    const { message: guid } = await v2.verify(address, JSON.stringify(input), NAME, 'vyper:0.4.3', ARGS);
    let status = await v2.getVerificationStatus(guid);
    for (let i = 0; i < 60 && status.isPending(); i++) status = await v2.getVerificationStatus(guid);
    expect(status.isSuccess()).toBe(true);
    expect(await v2.isVerified(address)).toBe(true);
    expect(await record(address)).toMatchObject({ ContractName: 'Counter', ContractFileName: 'contracts/Counter.vy', ConstructorArguments: ARGS });
  });

  it('v3 (hardhat-verify 3): verify with vyper:0.4.3 and poll as the plugin does: a full match', async () => {
    const { address, input } = await deployed('v3');
    const guid = await v3.verify({
      contractAddress: address,
      compilerInput: input as never,
      contractName: NAME,
      compilerVersion: 'vyper:0.4.3',
      constructorArguments: ARGS,
    });
    expect(await v3.pollVerificationStatus(guid, address, NAME)).toEqual({ success: true, message: 'Pass - Verified', isRetryable: true });
    const verified = await record(address);
    expect(verified.CompilerVersion).toMatch(/^vyper:0\.4\.3\+commit\./);
    expect(verified.MatchKind).toBe('full');
  });

  it("a bare version, as Hardhat's Vyper config spells it (v0.4.3): verified as Vyper 0.4.3", async () => {
    const { address, input } = await deployed('bare');
    const guid = await v3.verify({
      contractAddress: address,
      compilerInput: input as never,
      contractName: NAME,
      compilerVersion: 'v0.4.3',
      constructorArguments: ARGS,
    });
    expect(await v3.pollVerificationStatus(guid, address, NAME)).toMatchObject({ success: true, message: 'Pass - Verified' });
    expect((await record(address)).CompilerVersion).toMatch(/^vyper:0\.4\.3\+commit\./);
  });

  it('a solc version with a Vyper input: the plugin shows the refusal, which names a Vyper compiler to send', async () => {
    const { address, input } = await deployed('solc');
    const refused = await v3
      .verify({
        contractAddress: address,
        compilerInput: input as never,
        contractName: NAME,
        compilerVersion: 'v0.8.28+commit.7893614a',
        constructorArguments: ARGS,
      })
      .then(() => null)
      .catch((e: Error) => e);
    expect(refused?.message).toContain('v0.8.28+commit.7893614a is a solc version, and these are Vyper sources: name a Vyper compiler (vyper:0.4.3');
    expect(await v3.isVerified(address)).toBe(false);
  });
});
