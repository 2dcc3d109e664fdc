import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HardhatError } from '@nomicfoundation/hardhat-errors';
import { encodeAbiParameters } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// The package's export map hides its Etherscan client (only the Hardhat plugin, `verify` and
// `types` are exported), so the built files are imported by path. Neither module loads
// `hardhat` at run time: their only `hardhat` imports are types.
import { rejectLocalNetworks } from '../../node_modules/hardhat-verify-v3/dist/src/internal/chains.js';
import { Etherscan } from '../../node_modules/hardhat-verify-v3/dist/src/internal/etherscan.js';
import { TEXT } from '../../src/texts/index.js';
import type { SolcInput } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build } from '../helpers/contracts.js';
import { type RecordedRequest, type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

/*
 * @nomicfoundation/hardhat-verify 3.1.1 (npm alias `hardhat-verify-v3`), driven directly: its
 * `Etherscan` class (src/internal/etherscan.ts) builds every request and decides what every
 * answer means. The plugin's `verifyContract` (src/internal/verification.ts) cannot run here
 * without a Hardhat 3 runtime (network connection, artifacts, build system), so its few lines
 * of orchestration around the client are restated below, marked as such.
 */

// The client resolves a proxy from these even though it skips loopback; keep them out anyway.
for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) delete process.env[k];

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('clients/hardhatVerifyV3');
const { apiUrl, baseUrl, apiKey } = sharedService();
const CHAIN_ID = inject('chainId');
const COMPILER = 'v0.8.28+commit.7893614a';
// Hardhat 3 names project files `project/...` and npm files `npm/<package>@<version>/...` in
// the solc input, and sends that input name as `contractname`.
const FQN = 'project/contracts/Greeter.sol:Greeter';

const require = createRequire(import.meta.url);
const OZ_DIR = dirname(require.resolve('@openzeppelin/contracts/package.json'));
const OZ = `npm/@openzeppelin/contracts@${(JSON.parse(readFileSync(join(OZ_DIR, 'package.json'), 'utf8')) as { version: string }).version}`;

const COUNTED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

abstract contract Counted {
    uint256 public greeted;
    function bump() internal { greeted += 1; }
}
`;

const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Counted} from "./Counted.sol";

contract Greeter is Ownable, Counted {
    string private greeting;

    constructor(string memory _greeting, uint256 start) Ownable(msg.sender) {
        greeting = _greeting;
        greeted = start;
    }

    function greet() external returns (string memory) {
        bump();
        return greeting;
    }

    function setGreeting(string calldata g) external onlyOwner {
        greeting = g;
    }
}
`;

// In the compilation job, but not imported by Greeter.
const UNRELATED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Unrelated {
    function ping() external pure returns (uint256) { return 42; }
}
`;

const oz = (file: string) => readFileSync(join(OZ_DIR, file), 'utf8');

/**
 * The solc input Hardhat 3 writes for a compilation job (compilation-job.ts, #buildSolcInput):
 * sources sorted by name, its default output selection, the evm version of the solc version,
 * and one remapping per npm package; the plugin adds `libraries` before sending it.
 */
/**
 * `edition`: a Greeter with code of its own (a constant), for a case whose contract must not be
 * a copy of a Greeter verified before (a copy is verified when read).
 */
function hardhat3Input(withUnrelated: boolean, runs = 200, edition?: number): SolcInput {
  const greeter =
    edition === undefined
      ? GREETER
      : GREETER.replace('contract Greeter is Ownable, Counted {', `contract Greeter is Ownable, Counted {\n    uint256 public constant EDITION = ${edition};`);
  const sources: Record<string, string> = {
    [`${OZ}/access/Ownable.sol`]: oz('access/Ownable.sol'),
    [`${OZ}/utils/Context.sol`]: oz('utils/Context.sol'),
    'project/contracts/Counted.sol': COUNTED,
    'project/contracts/Greeter.sol': greeter,
  };
  if (withUnrelated) sources['project/contracts/Unrelated.sol'] = UNRELATED;
  return {
    language: 'Solidity',
    sources: Object.fromEntries(
      Object.keys(sources)
        .sort()
        .map((name) => [name, { content: sources[name]! }]),
    ),
    settings: {
      optimizer: { enabled: true, runs },
      evmVersion: 'cancun',
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'], '': ['ast'] },
      },
      remappings: [`project/:@openzeppelin/contracts/=${OZ}/`],
      libraries: {},
    },
  };
}

const encodeArgs = (greeting: string, start: bigint) => encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], [greeting, start]).slice(2);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Attempt {
  success: boolean;
  message: string;
  isRetryable: boolean;
}

/** Each request's `METHOD action`, with a run of status polls shown once. */
function actions(requests: RecordedRequest[]): string[] {
  const out: string[] = [];
  for (const r of requests) {
    const step = `${r.method} ${r.query.action}`;
    if (step === 'GET checkverifystatus' && out.at(-1) === step) continue;
    out.push(step);
  }
  return out;
}

describe("Hardhat verify v3's Etherscan client (@nomicfoundation/hardhat-verify 3.1.1)", () => {
  let greeter: Built;
  let minimal: SolcInput;
  let full: SolcInput;
  let proxy: RecordingProxy;
  let etherscan: Etherscan;
  const args = encodeArgs('hello', 7n);

  const deploy = async (greeting = 'hello', start = 7n) => (await deployContract(greeter.abi, greeter.bytecode, [greeting, start], ACCOUNT)).address;

  /** A Greeter edition of its own, deployed: its address and its minimal and full inputs. */
  const deployEdition = async (greeting: string, start: bigint, runs = 200) => {
    const edition = Date.now();
    const ownFull = hardhat3Input(true, 200, edition);
    const built = await build('0.8.28', ownFull, 'project/contracts/Greeter.sol', 'Greeter');
    const address = (await deployContract(built.abi, built.bytecode, [greeting, start], ACCOUNT)).address;
    return { address, minimal: hardhat3Input(false, runs, edition), full: ownFull };
  };

  /** Restated from verification.ts `attemptVerification`: submit, wait 0.5 s, then poll (every 3 s) to a final answer. */
  async function attemptVerification(address: string, input: SolcInput, constructorArguments: string): Promise<Attempt> {
    const guid = await etherscan.verify({ contractAddress: address, compilerInput: input, contractName: FQN, compilerVersion: COMPILER, constructorArguments });
    await sleep(500);
    return etherscan.pollVerificationStatus(guid, address, FQN);
  }

  /**
   * Restated from verification.ts `verifyContract`, from its `isVerified` check on: stop if
   * already verified, try the minimal input, retry with the full input only when the client
   * calls the failure retryable, else throw CONTRACT_VERIFICATION_FAILED with the last reason.
   */
  async function verifyContract(
    address: string,
    constructorArguments: string,
    minimalInput = minimal,
    fullInput = full,
  ): Promise<{ outcome: 'verified' | 'already verified'; attempts: Attempt[] }> {
    if (await etherscan.isVerified(address)) return { outcome: 'already verified', attempts: [] };
    const attempts = [await attemptVerification(address, minimalInput, constructorArguments)];
    if (attempts[0]!.success) return { outcome: 'verified', attempts };
    let reason = attempts[0]!.message;
    if (attempts[0]!.isRetryable) {
      attempts.push(await attemptVerification(address, fullInput, constructorArguments));
      if (attempts[1]!.success) return { outcome: 'verified', attempts };
      reason = attempts[1]!.message;
    }
    throw Object.assign(new HardhatError(HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_VERIFICATION_FAILED, { reason, librariesWarning: '' }), {
      attempts,
    });
  }

  /** What every request v3 sent through the proxy must look like, and how the service took it. */
  function expectWellFormed(requests: RecordedRequest[]) {
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) {
      expect(r.query, `${r.method} ${r.query.action}`).toMatchObject({ module: 'contract', chainid: String(CHAIN_ID), apikey: apiKey });
      expect(r.status).toBe(200);
      const answer = r.answer as { status: string; message: string; result: unknown };
      expect(answer).toMatchObject({ status: expect.stringMatching(/^[01]$/), message: expect.any(String) });
      expect(String(answer.result)).not.toContain('is not served here');
    }
  }

  beforeAll(async () => {
    expect(CHAIN_ID).toBe(31337);
    full = hardhat3Input(true);
    minimal = hardhat3Input(false);
    greeter = await build('0.8.28', full, 'project/contracts/Greeter.sol', 'Greeter');
    expect(greeter.compilerVersion).toBe(COMPILER);
    proxy = await startRecordingProxy(apiUrl);

    // How the plugin builds its client (createVerificationProviderInstance): a chain
    // descriptor from the user's config names the explorer, `verify.etherscan.apiKey` the key.
    const options = await Etherscan.resolveConfig({
      chainId: CHAIN_ID,
      networkName: 'solproof',
      chainDescriptors: new Map([
        [
          BigInt(CHAIN_ID),
          { name: 'solproof devnet', chainType: 'generic', blockExplorers: { etherscan: { name: 'solproof', url: baseUrl, apiUrl: proxy.apiUrl } } },
        ],
      ]),
      verificationProvidersConfig: { etherscan: { enabled: true, apiKey: { get: async () => apiKey } } },
    } as unknown as Parameters<typeof Etherscan.resolveConfig>[0]);
    etherscan = await Etherscan.create(options);
    expect(etherscan.apiUrl).toBe(proxy.apiUrl);
    expect(etherscan.chainId).toBe(String(CHAIN_ID));
    expect(etherscan.pollingIntervalMs).toBe(3);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('isVerified false, the minimal input verifies, isVerified true, the printed link opens, a resubmission is "already verified"', async () => {
    const address = await deploy();
    const mark = proxy.requests.length;

    const { outcome, attempts } = await verifyContract(address, args);
    expect(outcome).toBe('verified');
    expect(attempts).toEqual([{ success: true, message: 'Pass - Verified', isRetryable: true }]);

    expect(await etherscan.isVerified(address)).toBe(true);
    // The plugin prints this link after a success; it must open our contract page.
    const link = etherscan.getContractUrl(address);
    expect(link).toBe(`${baseUrl}/address/${address}#code`);
    const page = await fetch(link.replace(/#.*$/, ''));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Greeter');

    // Run again, the plugin stops at isVerified; with --force it submits and the submission fails.
    expect(await verifyContract(address, args)).toEqual({ outcome: 'already verified', attempts: [] });
    const again = etherscan.verify({
      contractAddress: address,
      compilerInput: minimal,
      contractName: FQN,
      compilerVersion: COMPILER,
      constructorArguments: args,
    });
    await expect(again).rejects.toSatisfy((e: unknown) => HardhatError.isHardhatError(e, HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_ALREADY_VERIFIED));
    await expect(again).rejects.toThrow(`The contract "${FQN}" at address "${address}" is already verified.`);

    const seen = proxy.requests.slice(mark);
    expect(actions(seen)).toEqual([
      'GET getsourcecode',
      'POST verifysourcecode',
      'GET checkverifystatus',
      'GET getsourcecode',
      'GET getsourcecode',
      'POST verifysourcecode',
    ]);
    expectWellFormed(seen);
    // What v3 puts in the body, spelled its way (`constructorArguments`, not Etherscan's `constructorArguements`).
    const submit = seen.find((r) => r.method === 'POST')!;
    expect(submit.form).toEqual({
      contractaddress: address,
      sourceCode: JSON.stringify(minimal),
      codeformat: 'solidity-standard-json-input',
      contractname: FQN,
      compilerversion: COMPILER,
      constructorArguments: args,
    });
    expect(submit.query.action).toBe('verifysourcecode');
    expect(seen.at(-1)!.answer).toEqual({ status: '0', message: 'NOTOK', result: TEXT.alreadyVerified });

    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    const record = env.result[0] as Record<string, string>;
    expect(record.ContractName).toBe('Greeter');
    expect(record.ConstructorArguments).toBe(args);
  });

  it('wrong constructor arguments: v3 gets our reason, calls it final (no full-input retry), and its error quotes it', async () => {
    const own = await deployEdition('hello', 7n);
    const address = own.address;
    const mark = proxy.requests.length;

    const error = await verifyContract(address, encodeArgs('hello', 8n), own.minimal, own.full).then(
      () => {
        throw new Error('verification should have failed');
      },
      (e: unknown) => e as HardhatError & { attempts: Attempt[] },
    );
    // Etherscan's reason, then the diagnosis: the arguments the creation transaction carries.
    const reason =
      `Fail - Unable to verify. ${TEXT.reasonConstructorArgs} The creation transaction carries ` +
      `0x${encodeArgs('hello', 7n)} (string _greeting = "hello", uint256 start = 7); you sent 0x${encodeArgs('hello', 8n)}. ${TEXT.leaveArgumentsEmpty}`;
    expect(reason).toMatch(/^Fail - Unable to verify\. Please check if the correct constructor argument was entered\. /);
    // The client's own reading of our answer: a failure, with our text, not worth a retry.
    expect(error.attempts).toHaveLength(1);
    expect(error.attempts[0]).toMatchObject({ success: false, isRetryable: false });
    expect(error.attempts[0]!.message).toContain(reason);
    expect(error.attempts[0]!.message).toContain('It matches (a full match) with the constructor arguments of the creation transaction.');
    expect(error.attempts[0]!.message).toMatch(/ Diagnosis: http:\/\/127\.0\.0\.1:\d+\/receipt\/[a-z0-9]{50}$/);
    expect(HardhatError.isHardhatError(error, HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_VERIFICATION_FAILED)).toBe(true);
    expect(error.message).toContain(`Reason: "${reason}`);

    const seen = proxy.requests.slice(mark);
    expect(actions(seen)).toEqual(['GET getsourcecode', 'POST verifysourcecode', 'GET checkverifystatus']);
    expectWellFormed(seen);
    expect(await etherscan.isVerified(address)).toBe(false);
  });

  it('a bytecode mismatch is retryable: v3 resubmits the full compilation job, which passes', async () => {
    const own = await deployEdition('retry', 1n, 1);
    const address = own.address;
    const mark = proxy.requests.length;
    // Stands in for a minimal input that does not reproduce the deployed code (the plugin
    // retries for old solc versions whose output depends on unrelated files).
    const { outcome, attempts } = await verifyContract(address, encodeArgs('retry', 1n), own.minimal, own.full);
    expect(outcome).toBe('verified');
    expect(attempts).toHaveLength(2);
    // Etherscan's reason, then the diagnosis (the minimal input was built with 1 run); still retryable for v3.
    expect(attempts[0]).toMatchObject({ success: false, isRetryable: true });
    expect(attempts[0]!.message).toContain(`Fail - Unable to verify. ${TEXT.reasonBytecodeMismatch} `);
    expect(attempts[0]!.message).toContain('the optimizer enabled, 200 runs (you sent: 1)');
    expect(attempts[1]).toEqual({ success: true, message: 'Pass - Verified', isRetryable: true });
    const seen = proxy.requests.slice(mark);
    expect(actions(seen)).toEqual(['GET getsourcecode', 'POST verifysourcecode', 'GET checkverifystatus', 'POST verifysourcecode', 'GET checkverifystatus']);
    expectWellFormed(seen);

    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    const record = env.result[0] as Record<string, string>;
    // The whole compilation job was compiled; a file Greeter does not import is not published.
    expect(Object.keys(JSON.parse(record.SourceCode!.slice(1, -1)).sources)).not.toContain('project/contracts/Unrelated.sol');
    expect(Object.keys(JSON.parse(record.SourceCode!.slice(1, -1)).sources)).toContain('project/contracts/Greeter.sol');
  });

  it("two submissions at once by one key: one passes, the plugin shows the other's refusal naming the first receipt", async () => {
    // An edition of its own: its compilation is not known yet, so the first job is still compiling when the second arrives.
    const own = await deployEdition('twice', 2n);
    const address = own.address;
    const mark = proxy.requests.length;
    const submit = () =>
      etherscan.verify({
        contractAddress: address,
        compilerInput: own.minimal,
        contractName: FQN,
        compilerVersion: COMPILER,
        constructorArguments: encodeArgs('twice', 2n),
      });
    const settled = await Promise.allSettled([submit(), submit()]);
    const accepted = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as Error] : []));
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    // A key's own unfinished verification of the address refuses its duplicate, saying which one to wait for.
    expect(HardhatError.isHardhatError(refused[0], HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_VERIFICATION_REQUEST_FAILED)).toBe(true);
    expect(refused[0]!.message).toContain(`still waiting or running (receipt ${accepted[0]!})`);
    expect(await etherscan.pollVerificationStatus(accepted[0]!, address, FQN)).toEqual({ success: true, message: 'Pass - Verified', isRetryable: true });
    expectWellFormed(proxy.requests.slice(mark));
  });

  it('a client configured for another chain gets our chain text through v3 (request failed, not "not verified")', async () => {
    const address = await deploy('elsewhere', 3n);
    const other = new Etherscan({ chainId: 1, url: baseUrl, apiUrl, apiKey });
    const wrongChain = TEXT.wrongChain('1', CHAIN_ID);
    // isVerified reads any status "0" as "not verified"; the submission then shows our text.
    expect(await other.isVerified(address)).toBe(false);
    const submission = other.verify({
      contractAddress: address,
      compilerInput: minimal,
      contractName: FQN,
      compilerVersion: COMPILER,
      constructorArguments: encodeArgs('elsewhere', 3n),
    });
    await expect(submission).rejects.toSatisfy((e: unknown) =>
      HardhatError.isHardhatError(e, HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.CONTRACT_VERIFICATION_REQUEST_FAILED),
    );
    await expect(submission).rejects.toThrow(wrongChain);
  });

  it('configured for Etherscan V2 (apiUrl <base>/v2/api): every request goes there with the chainid, and the contract verifies', async () => {
    const { address, minimal: ownMinimal } = await deployEdition('multichain', 9n);
    const v2 = await Etherscan.create(
      await Etherscan.resolveConfig({
        chainId: CHAIN_ID,
        networkName: 'solproof',
        chainDescriptors: new Map([
          [
            BigInt(CHAIN_ID),
            {
              name: 'solproof devnet',
              chainType: 'generic',
              blockExplorers: { etherscan: { name: 'solproof', url: baseUrl, apiUrl: proxy.apiUrl.replace(/\/api$/, '/v2/api') } },
            },
          ],
        ]),
        verificationProvidersConfig: { etherscan: { enabled: true, apiKey: { get: async () => apiKey } } },
      } as unknown as Parameters<typeof Etherscan.resolveConfig>[0]),
    );
    const mark = proxy.requests.length;
    expect(await v2.isVerified(address)).toBe(false);
    const guid = await v2.verify({
      contractAddress: address,
      compilerInput: ownMinimal,
      contractName: FQN,
      compilerVersion: COMPILER,
      constructorArguments: encodeArgs('multichain', 9n),
    });
    expect(await v2.pollVerificationStatus(guid, address, FQN)).toMatchObject({ success: true, message: 'Pass - Verified' });
    expect(await v2.isVerified(address)).toBe(true);
    const seen = proxy.requests.slice(mark);
    expect(seen.map((r) => r.path)).toEqual(seen.map(() => '/v2/api'));
    expectWellFormed(seen);
  });

  it("the plugin's `verify` task refuses chain ids 31337 and 1337 before it sends anything", () => {
    // verifyContract calls rejectLocalNetworks (chains.ts) first; only the client, as used above
    // or through a network connection's `verification.etherscan`, reaches a devnet explorer.
    for (const id of [31337, 1337]) {
      let thrown: unknown;
      try {
        rejectLocalNetworks('solproof', id);
      } catch (e) {
        thrown = e;
      }
      expect(HardhatError.isHardhatError(thrown, HardhatError.ERRORS.HARDHAT_VERIFY.GENERAL.NETWORK_NOT_SUPPORTED)).toBe(true);
      expect((thrown as Error).message).toContain(`with chain id "${id}" is not supported`);
    }
    expect(() => rejectLocalNetworks('solproof', 31338)).not.toThrow();
  });
});
