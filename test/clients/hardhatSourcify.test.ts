import { HardhatError } from '@nomicfoundation/hardhat-errors';
import { Sourcify as SourcifyV1 } from '@nomicfoundation/hardhat-verify/sourcify.js';
import { encodeAbiParameters, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// The package's export map hides its verification providers, so the built file is imported by
// path (as test/clients/hardhatVerifyV3.test.ts does for its Etherscan client). It loads no
// `hardhat` at run time.
import { Sourcify } from '../../node_modules/hardhat-verify-v3/dist/src/internal/sourcify.js';
import type { SolcInput } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build } from '../helpers/contracts.js';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

/*
 * @nomicfoundation/hardhat-verify 3.1.1 (npm alias `hardhat-verify-v3`): its `Sourcify` class
 * (src/internal/sourcify.ts) builds every request to a Sourcify server and decides what every
 * answer means. It is built here as the plugin builds it (resolveConfig, create) with the
 * `verify.sourcify.apiUrl` a user sets to the service's /sourcify.
 */

for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) delete process.env[k];

const ACCOUNT = deployerAccount('clients/hardhatSourcify');
const { apiUrl, baseUrl, apiKey } = sharedService();
const CHAIN_ID = inject('chainId');
const COMPILER = 'v0.8.28+commit.7893614a';
const FILE = 'project/contracts/Relay.sol';
const FQN = `${FILE}:Relay`;

/** A contract of its own per case (its edition). */
function relaySource(edition: number): string {
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Relay {
    uint256 public constant EDITION = ${edition};
    string public route;
    uint256 public hops;

    constructor(string memory _route, uint256 _hops) {
        route = _route;
        hops = _hops;
    }

    function hop() external { hops += 1; }
}
`;
}

/** The solc input Hardhat 3 writes for a compilation job (its names, its output selection). */
function hardhat3Input(edition: number): SolcInput {
  return {
    language: 'Solidity',
    sources: { [FILE]: { content: relaySource(edition) } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'], '': ['ast'] } },
      remappings: [],
      libraries: {},
    },
  };
}

const encodeArgs = (route: string, hops: bigint) => encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], [route, hops]);

const isHardhatError = (descriptor: unknown) => (e: unknown) => HardhatError.isHardhatError(e, descriptor as never);

describe("Hardhat verify v3's Sourcify client (@nomicfoundation/hardhat-verify 3.1.1)", () => {
  let proxy: RecordingProxy;
  let sourcify: Sourcify;

  async function deployRelay(route: string, hops: bigint) {
    const input = hardhat3Input(Date.now());
    const built = await build('0.8.28', input, FILE, 'Relay');
    expect(built.compilerVersion).toBe(COMPILER);
    const deployed = await deployContract(built.abi, built.bytecode, [route, hops], ACCOUNT);
    return { input, address: deployed.address, transactionHash: deployed.transactionHash };
  }

  beforeAll(async () => {
    proxy = await startRecordingProxy(`${baseUrl}/sourcify`);
    const config = await Sourcify.resolveConfig({
      chainId: CHAIN_ID,
      verificationProvidersConfig: { sourcify: { enabled: true, apiUrl: proxy.apiUrl } },
    } as unknown as Parameters<typeof Sourcify.resolveConfig>[0]);
    sourcify = await Sourcify.create(config);
    expect(sourcify.apiUrl).toBe(`${proxy.apiUrl}`);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('isVerified false, verify and pollVerificationStatus pass with exact_match, isVerified true, a resubmission is "already verified"', async () => {
    const { input, address } = await deployRelay('west', 4n);
    expect(await sourcify.isVerified(address)).toBe(false);
    const guid = await sourcify.verify({ contractAddress: address, compilerInput: input, contractName: FQN, compilerVersion: COMPILER });
    expect(guid).toMatch(/^[a-z0-9]{50}$/);
    expect(await sourcify.pollVerificationStatus(guid, address, FQN)).toEqual({
      success: true,
      message: 'Contract verified with status "exact_match"',
      isRetryable: true,
    });
    expect(await sourcify.isVerified(address)).toBe(true);

    // hardhat verify --force: the service answers 409 already_verified, which the client names.
    const again = sourcify.verify({ contractAddress: address, compilerInput: input, contractName: FQN, compilerVersion: COMPILER });
    await expect(again).rejects.toSatisfy(isHardhatError(HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_ALREADY_VERIFIED));

    // What v3 sent: the version with its `v`, the Hardhat 3 source name.
    const post = proxy.requests.find((r) => r.method === 'POST' && r.path === `/sourcify/v2/verify/${CHAIN_ID}/${address}`)!;
    expect(post.json).toEqual({ stdJsonInput: input, contractIdentifier: FQN, compilerVersion: COMPILER });

    // The Etherscan API serves it too.
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.result[0]).toMatchObject({
      ContractName: 'Relay',
      ContractFileName: FILE,
      MatchKind: 'full',
      ConstructorArguments: encodeArgs('west', 4n).slice(2),
    });
    const abi = await apiGet(apiUrl, { module: 'contract', action: 'getabi', address, apikey: apiKey });
    expect(JSON.parse(abi.result).map((e: { name?: string }) => e.name)).toContain('hop');
  });

  it('with the creation transaction given, a failure polls as a retryable failure carrying our reason', async () => {
    const { input, address, transactionHash } = await deployRelay('east', 9n);
    const wrong = { ...input, settings: { ...input.settings, optimizer: { enabled: false, runs: 200 } } };
    const guid = await sourcify.verify({
      contractAddress: address,
      compilerInput: wrong,
      contractName: FQN,
      compilerVersion: COMPILER,
      creationTxHash: transactionHash,
    });
    const status = await sourcify.pollVerificationStatus(guid, address, FQN);
    expect(status).toMatchObject({ success: false, isRetryable: true });
    expect(status.message).toContain("The deployed and recompiled bytecode don't match.");
    expect(status.message).toContain('the optimizer enabled');
    expect(status.message).toContain(`More info at: ${proxy.apiUrl}/verify-ui/jobs/${guid}`);
    expect(await sourcify.isVerified(address)).toBe(false);
    const post = proxy.requests.find((r) => r.method === 'POST' && r.path === `/sourcify/v2/verify/${CHAIN_ID}/${address}`)!;
    expect(post.json).toMatchObject({ creationTransactionHash: transactionHash });
  });

  it('an address without code: the poll throws CONTRACT_VERIFICATION_MISSING_BYTECODE', async () => {
    const { input } = await deployRelay('nowhere', 1n);
    const empty = getAddress(`0x${'5eed'.repeat(10)}`);
    const guid = await sourcify.verify({ contractAddress: empty, compilerInput: input, contractName: FQN, compilerVersion: COMPILER });
    await expect(sourcify.pollVerificationStatus(guid, empty, FQN)).rejects.toSatisfy(
      isHardhatError(HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_VERIFICATION_MISSING_BYTECODE),
    );
  });

  it('a request the service refuses surfaces as the client error with our message', async () => {
    const { input, address } = await deployRelay('refused', 2n);
    const refused = sourcify.verify({ contractAddress: address, compilerInput: input, contractName: 'Relay', compilerVersion: COMPILER });
    await expect(refused).rejects.toSatisfy(isHardhatError(HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_VERIFICATION_REQUEST_FAILED));
    await expect(refused).rejects.toThrow('Invalid contractIdentifier: expected path:Name');
    const other = new Sourcify({ chainId: 1, apiUrl: proxy.apiUrl });
    await expect(other.isVerified(address)).rejects.toThrow('The chain with chainId 1 is not supported');
  });
});

/*
 * @nomicfoundation/hardhat-verify 2.1.3's Sourcify client speaks only Sourcify's v1 API:
 * `GET check-all-by-addresses` and `POST /` with metadata.json and the sources, answered once
 * verified. Its files are built as its `verify:sourcify` task builds them.
 */
describe("Hardhat verify v2's Sourcify client (@nomicfoundation/hardhat-verify 2.1.3, Sourcify's v1 API)", () => {
  it('isVerified false, verify answers perfect, isVerified perfect; getsourcecode serves it', async () => {
    const input = hardhat3Input(Date.now());
    const built = await build('0.8.28', input, FILE, 'Relay');
    const { address } = await deployContract(built.abi, built.bytecode, ['v1', 3n], ACCOUNT);
    const client = new SourcifyV1(CHAIN_ID, `${baseUrl}/sourcify`, baseUrl);
    expect(await client.isVerified(address)).toBe(false);
    const metadata = built.output.contracts![FILE]!.Relay!.metadata!;
    const sources = Object.fromEntries(Object.keys(JSON.parse(metadata).sources).map((name) => [name, input.sources[name]!.content!]));
    const response = await client.verify(address, { 'metadata.json': metadata, ...sources });
    expect(response.isOk()).toBe(true);
    expect(response.status).toBe('perfect');
    expect(await client.isVerified(address)).toBe('perfect');
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.result[0]).toMatchObject({ ContractName: 'Relay', MatchKind: 'full', ConstructorArguments: encodeArgs('v1', 3n).slice(2) });

    // A failure is answered as v1 answers one ({error}, a 4xx); the client throws with the service's reason.
    const empty = getAddress(`0x${'7ab1'.repeat(10)}`);
    await expect(client.verify(empty, { 'metadata.json': metadata, ...sources })).rejects.toThrow(
      `does not have a contract deployed at ${empty.toLowerCase()}`,
    );
  });
});
