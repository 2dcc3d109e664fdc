import { Etherscan } from '@nomicfoundation/hardhat-verify/etherscan.js';
import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SolcInput } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build } from '../helpers/contracts.js';
import { parseFoundryMetadata } from './foundryMetadata.js';
import { startRecordingProxy } from './recordingProxy.js';

// The client sends through http_proxy whenever it is set, even for 127.0.0.1.
for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) delete process.env[k];

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('clients/hardhatVerify');
const { apiUrl, baseUrl, apiKey } = sharedService();
const COMPILER = 'v0.8.28+commit.7893614a';
const FQN = 'contracts/Greeter.sol:Greeter';

const OWNED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

abstract contract Owned {
    address public immutable owner;
    constructor() { owner = msg.sender; }
    modifier onlyOwner() { require(msg.sender == owner, "not owner"); _; }
}
`;

const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Owned.sol";

contract Greeter is Owned {
    string private greeting;
    uint256 public greeted;

    constructor(string memory _greeting, uint256 start) {
        greeting = _greeting;
        greeted = start;
    }

    function greet() external returns (string memory) {
        greeted += 1;
        return greeting;
    }

    function setGreeting(string calldata g) external onlyOwner {
        greeting = g;
    }
}
`;

// In the project, compiled in the same job, but not imported by Greeter.
const UNRELATED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Unrelated {
    function ping() external pure returns (uint256) { return 42; }
}
`;

/** The solc input Hardhat 2 writes for a compilation job (its default output selection). */
function hardhatInput(sources: Record<string, string>): SolcInput {
  return {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([path, content]) => [path, { content }])),
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        '*': {
          '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'],
          '': ['ast'],
        },
      },
    },
  };
}

const encodeArgs = (greeting: string, start: bigint) => encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], [greeting, start]).slice(2);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Hardhat verify v2's Etherscan client", () => {
  let greeter: Built;
  let minimalInput: SolcInput;
  let etherscan: Etherscan;
  const args = encodeArgs('hello', 7n);

  const deploy = async (greeting = 'hello', start = 7n) => (await deployContract(greeter.abi, greeter.bytecode, [greeting, start], ACCOUNT)).address;

  /** The plugin's attemptVerification subtask: submit, wait 700 ms, then poll (every 3 s) to a final answer. */
  async function attempt(address: string, input: SolcInput, constructorArgs: string) {
    const { message: guid } = await etherscan.verify(address, JSON.stringify(input), FQN, COMPILER, constructorArgs);
    await sleep(700);
    return { guid, status: await etherscan.getVerificationStatus(guid) };
  }

  beforeAll(async () => {
    const full = hardhatInput({ 'contracts/Greeter.sol': GREETER, 'contracts/Owned.sol': OWNED, 'contracts/Unrelated.sol': UNRELATED });
    greeter = await build('0.8.28', full, 'contracts/Greeter.sol', 'Greeter');
    expect(greeter.compilerVersion).toBe(COMPILER);
    // The plugin's first attempt: only the contract's file and what it imports.
    minimalInput = hardhatInput({ 'contracts/Greeter.sol': GREETER, 'contracts/Owned.sol': OWNED });
    etherscan = new Etherscan(apiKey, apiUrl, baseUrl, undefined);
    expect(etherscan.apiUrl).toBe(apiUrl);
  });

  it('isVerified false, verify, Pass - Verified, isVerified true, then "already verified"', async () => {
    const address = await deploy();
    expect(await etherscan.isVerified(address)).toBe(false);

    const { guid, status } = await attempt(address, minimalInput, args);
    expect(guid).toMatch(/^[a-z0-9]{50}$/);
    expect(status.isSuccess()).toBe(true);
    expect(status.isOk()).toBe(true);
    expect(status.message).toBe('Pass - Verified');

    expect(await etherscan.isVerified(address)).toBe(true);
    // Hardhat's plugin errors reset their prototype to NomicLabsHardhatPluginError, so
    // `instanceof ContractAlreadyVerifiedError` is false even inside Hardhat; the name is kept.
    await expect(etherscan.verify(address, JSON.stringify(minimalInput), FQN, COMPILER, args)).rejects.toMatchObject({
      name: 'ContractAlreadyVerifiedError',
      message: expect.stringContaining(`${FQN} at ${address} is already verified`),
    });
  });

  it('wrong constructor arguments: a bare "Fail - Unable to verify"; a new attempt with the full input passes', async () => {
    // A Greeter of its own: a copy of the Greeter verified above would be verified on read.
    const edition = GREETER.replace('uint256 public greeted;', `uint256 public greeted;\n    uint256 public constant EDITION = ${Date.now()};`);
    const own = await build(
      '0.8.28',
      hardhatInput({ 'contracts/Greeter.sol': edition, 'contracts/Owned.sol': OWNED, 'contracts/Unrelated.sol': UNRELATED }),
      'contracts/Greeter.sol',
      'Greeter',
    );
    const address = (await deployContract(own.abi, own.bytecode, ['hello', 7n], ACCOUNT)).address;
    const ownMinimal = hardhatInput({ 'contracts/Greeter.sol': edition, 'contracts/Owned.sol': OWNED });
    const failed = await attempt(address, ownMinimal, encodeArgs('hello', 8n));
    // Without chainid the client compares the whole text, so any reason suffix would read as "unexpected".
    expect(failed.status.isFailure()).toBe(true);
    expect(failed.status.isOk()).toBe(false);
    expect(failed.status.message).toBe('Fail - Unable to verify');
    expect(await etherscan.isVerified(address)).toBe(false);

    // The plugin's second attempt sends the whole compilation job; a failed receipt must not block it.
    const retried = await attempt(address, own.input, args);
    expect(retried.status.isSuccess()).toBe(true);
    expect(await etherscan.isVerified(address)).toBe(true);

    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    const record = env.result[0] as Record<string, string>;
    // The whole compilation job was compiled; only the files Greeter's metadata lists are published.
    expect(Object.keys(JSON.parse(record.SourceCode!.slice(1, -1)).sources).sort()).toEqual(['contracts/Greeter.sol', 'contracts/Owned.sol']);
    expect(record.ConstructorArguments).toBe(args);
    expect(record.ContractName).toBe('Greeter');
  });

  it("both attempts fail: the first is bare (the plugin retries), the last carries the reason and the receipt page's URL, which the plugin prints", async () => {
    const edition = GREETER.replace('uint256 public greeted;', `uint256 public greeted;\n    uint256 public constant FAILS = ${Date.now()};`);
    const own = await build(
      '0.8.28',
      hardhatInput({ 'contracts/Greeter.sol': edition, 'contracts/Owned.sol': OWNED, 'contracts/Unrelated.sol': UNRELATED }),
      'contracts/Greeter.sol',
      'Greeter',
    );
    const address = (await deployContract(own.abi, own.bytecode, ['hello', 7n], ACCOUNT)).address;
    const wrong = encodeArgs('hello', 8n);
    const first = await attempt(address, hardhatInput({ 'contracts/Greeter.sol': edition, 'contracts/Owned.sol': OWNED }), wrong);
    expect(first.status.isFailure()).toBe(true);
    expect(first.status.message).toBe('Fail - Unable to verify');

    // The plugin's second (full input) attempt is its last: it shows what the API answered.
    const error = await attempt(address, own.input, wrong).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.name).toBe('ContractStatusPollingResponseNotOkError');
    expect(error?.message).toContain(
      'Reason: Fail - Unable to verify. Please check if the correct constructor argument was entered. The creation transaction carries',
    );
    const url = /Diagnosis: (http:\/\/127\.0\.0\.1:\d+\/receipt\/[a-z0-9]{50})$/.exec(error?.message ?? '')?.[1];
    expect(url, error?.message).toBeDefined();
    // The page it names is the second attempt's receipt, with the diagnosis.
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Please check if the correct constructor argument was entered.');
    expect(await etherscan.isVerified(address)).toBe(false);
  });

  it("two submissions at once by one key: one passes, the plugin shows the other's refusal naming the first receipt", async () => {
    // A Greeter of its own: its compilation is not known, so the first job is still compiling when the second arrives.
    const own = hardhatInput({ 'contracts/Greeter.sol': `${GREETER}// edition ${Date.now()}\n`, 'contracts/Owned.sol': OWNED });
    const built = await build('0.8.28', own, 'contracts/Greeter.sol', 'Greeter');
    const { address } = await deployContract(built.abi, built.bytecode, ['hello', 7n], ACCOUNT);
    const settled = await Promise.allSettled([
      etherscan.verify(address, JSON.stringify(own), FQN, COMPILER, args),
      etherscan.verify(address, JSON.stringify(own), FQN, COMPILER, args),
    ]);
    const accepted = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as Error] : []));
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    // A key's own unfinished verification of the address refuses its duplicate, saying which one to wait for.
    expect(refused[0]!.message).toContain(`still waiting or running (receipt ${accepted[0]!.message})`);
    expect((await etherscan.getVerificationStatus(accepted[0]!.message)).isSuccess()).toBe(true);
  });
});

describe("Hardhat verify v2's Etherscan client configured for Etherscan V2 (apiURL <base>/v2/api)", () => {
  it('verifies through /v2/api: isVerified, verify, the status, isVerified again', async () => {
    const proxy = await startRecordingProxy(`${baseUrl}/v2/api`);
    try {
      // Per-network keys, as customChains need (a single key sends everything to etherscan.io);
      // the plugin replaces the URL's query with its own parameters, so no chainid arrives.
      const etherscan = Etherscan.fromChainConfig(
        { devnet: apiKey },
        { network: 'devnet', chainId: 31337, urls: { apiURL: `${proxy.apiUrl}?chainid=31337`, browserURL: baseUrl } },
      );
      const edition = GREETER.replace('uint256 public greeted;', `uint256 public greeted;\n    uint256 public constant MULTICHAIN = ${Date.now()};`);
      const input = hardhatInput({ 'contracts/Greeter.sol': edition, 'contracts/Owned.sol': OWNED });
      const own = await build('0.8.28', input, 'contracts/Greeter.sol', 'Greeter');
      const address = (await deployContract(own.abi, own.bytecode, ['hello', 7n], ACCOUNT)).address;
      expect(await etherscan.isVerified(address)).toBe(false);
      const { message: guid } = await etherscan.verify(address, JSON.stringify(input), FQN, COMPILER, encodeArgs('hello', 7n));
      await sleep(700);
      const status = await etherscan.getVerificationStatus(guid);
      expect(status.isSuccess()).toBe(true);
      expect(status.message).toBe('Pass - Verified');
      expect(await etherscan.isVerified(address)).toBe(true);
      expect(proxy.requests.map((r) => `${r.method} ${r.path} ${{ ...r.query, ...r.form }.action}`)).toEqual([
        'GET /v2/api getsourcecode',
        'POST /v2/api verifysourcecode',
        'GET /v2/api checkverifystatus',
        'GET /v2/api getsourcecode',
      ]);
    } finally {
      await proxy.close();
    }
  });
});

describe('Foundry-shaped reads (plain HTTP)', () => {
  let verified: string;
  let unverified: string;
  let built: Built;

  beforeAll(async () => {
    built = await build('0.8.28', hardhatInput({ 'contracts/Greeter.sol': GREETER, 'contracts/Owned.sol': OWNED }), 'contracts/Greeter.sol', 'Greeter');
    verified = (await deployContract(built.abi, built.bytecode, ['forge', 1n], ACCOUNT)).address;
    // Other code than any verified contract: a copy of one would be verified on read.
    const lone = await build(
      '0.8.28',
      hardhatInput({ 'contracts/Unrelated.sol': UNRELATED.replace('return 42;', `return ${Date.now()};`) }),
      'contracts/Unrelated.sol',
      'Unrelated',
    );
    unverified = (await deployContract(lone.abi, lone.bytecode, [], ACCOUNT)).address;
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: verified,
      sourceCode: JSON.stringify(built.input),
      codeformat: 'solidity-standard-json-input',
      contractname: FQN,
      compilerversion: COMPILER,
    });
    expect(status?.result).toBe('Pass - Verified');
  });

  it("getsourcecode of a verified contract parses under Foundry's rules", async () => {
    // Foundry POSTs nothing here: a GET with the key in the query.
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: verified, apikey: apiKey });
    expect(env.status).toBe('1');
    expect(env.result).toHaveLength(1);
    const record = env.result[0] as Record<string, unknown>;
    for (const [k, v] of Object.entries(record)) expect(typeof v, k).toBe('string');
    expect(record.Runs).toMatch(/^[0-9]+$/);
    expect(['0', '1']).toContain(record.Proxy);
    expect(['0', '1']).toContain(record.OptimizationUsed);

    const metadata = parseFoundryMetadata(record);
    expect(metadata.runs).toBe(200n);
    expect(metadata.optimizationUsed).toBe(1n);
    expect(metadata.proxy).toBe(0n);
    expect(metadata.implementation).toBeUndefined();
    expect(metadata.compilerVersion).toBe(COMPILER);
    expect(metadata.constructorArguments).toBe(encodeArgs('forge', 1n));
    expect(metadata.abi).toEqual(built.abi);
    expect(metadata.sourceCode.kind).toBe('standard-json');
    if (metadata.sourceCode.kind === 'standard-json') {
      expect(Object.keys(metadata.sourceCode.sources).sort()).toEqual(['contracts/Greeter.sol', 'contracts/Owned.sol']);
      expect(metadata.sourceCode.sources['contracts/Greeter.sol']!.content).toBe(GREETER);
    }
  });

  it('getsourcecode of an unverified contract is the exact unverified record', async () => {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: unverified, apikey: apiKey });
    expect(env).toEqual({
      status: '1',
      message: 'OK',
      result: [
        {
          SourceCode: '',
          ABI: 'Contract source code not verified',
          ContractName: '',
          CompilerVersion: '',
          OptimizationUsed: '',
          Runs: '',
          ConstructorArguments: '',
          EVMVersion: 'Default',
          Library: '',
          LicenseType: 'Unknown',
          Proxy: '0',
          Implementation: '',
          SwarmSource: '',
        },
      ],
    });
  });

  it("getabi of the zero address (Foundry's key preflight) says not verified", async () => {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getabi', address: '0x0000000000000000000000000000000000000000', apikey: apiKey });
    expect(env).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' });
  });
});
