import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodeAbiParameters } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { cleanEnv } from '../helpers/service.js';
import { installSolcForForge } from './foundry/offlineSolc.js';
import { type RecordedRequest, type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

/*
 * Foundry 1.7.1's forge and cast (npm: @foundry-rs/forge-linux-amd64, @foundry-rs/cast-linux-amd64),
 * run as a user runs them against the service, offline. What that takes (see docs/clients.md,
 * Forge without internet):
 * - forge looks for `$HOME/.svm/<x.y.z>/solc-<x.y.z>` before it builds or verifies, and would
 *   download one: a private HOME holds a solc-js stand-in there (./foundry/solcjs-as-solc.cjs);
 * - the compiler version must carry its commit, or forge fetches the release list to find it:
 *   forge labels builds with the directory names in `.svm`, so an empty
 *   `.svm/0.8.28+commit.7893614a` gives it the long version (and foundry.toml pins no `solc`);
 * - on chain 31337 forge drops `--etherscan-api-key` for the chain's configured explorer, so
 *   foundry.toml has an `[etherscan]` entry for 31337 with the service's /api URL and the key.
 * The entry points at a recording proxy in front of the service, so the tests also pin what
 * forge sends.
 */

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('clients/foundry');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const RPC_URL = inject('rpcUrl');
const { apiUrl, baseUrl, apiKey } = sharedService();
const SOLC = '0.8.28';

const require = createRequire(import.meta.url);
const binary = (pkg: string, name: string): string => join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', name);
const FORGE = binary('@foundry-rs/forge-linux-amd64', 'forge');
const CAST = binary('@foundry-rs/cast-linux-amd64', 'cast');

const GREETER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Greeter {
    string public greeting;
    uint256 public count;

    constructor(string memory _greeting, uint256 _count) {
        greeting = _greeting;
        count = _count;
    }
}
`;

// Verified through verify-contract: code no other case deploys, so it is no copy of a verified contract.
const WELCOME = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Welcome {
    string public welcome;
    uint256 public visits;

    constructor(string memory _welcome, uint256 _visits) {
        welcome = _welcome;
        visits = _visits;
    }
}
`;

// An external library function: Tripler's build has a link placeholder for MathLib.
const MATH_LIB = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library MathLib {
    function triple(uint256 x) external pure returns (uint256) { return 3 * x; }
}
`;

const TRIPLER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {MathLib} from "./MathLib.sol";

contract Tripler {
    uint256 public immutable base;

    constructor(uint256 _base) { base = _base; }

    function run(uint256 x) external view returns (uint256) { return MathLib.triple(x) + base; }
}
`;

// Verified with the wrong constructor arguments: forge must print why it failed.
const MISTAKE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Mistake {
    uint256 public immutable chosen;

    constructor(uint256 _chosen) { chosen = _chosen + 20313; }
}
`;

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Counter {
    uint256 public number;

    function increment() external { number++; }
}
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The command and everything it printed, for assertion messages. */
  transcript: string;
}

/** The environment forge and cast run in: nothing from the user's Foundry set-up or proxies. */
function foundryEnv(home: string): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const k of Object.keys(env)) {
    if (/^(FOUNDRY_|DAPP_|ETHERSCAN_|VERIFIER_|EXPLORER_|ETH_RPC_URL$|CHAIN$|XDG_)/.test(k)) delete env[k];
  }
  return { ...env, HOME: home, SOLPROOF_API_KEY: apiKey, NO_COLOR: '1' };
}

describe('Foundry (forge and cast 1.7.1) against the service', () => {
  let root: string;
  let home: string;
  let project: string;
  let proxy: RecordingProxy;

  async function run(bin: string, args: string[]): Promise<Run> {
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(bin, args, { cwd: project, env: foundryEnv(home), timeout: 100_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const ms = Date.now() - started;
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const transcript = `$ ${bin.split('/').pop()} ${args.join(' ')}\n(exit ${code}, ${ms} ms)\n--- stdout\n${stdout}--- stderr\n${stderr}`;
        resolve({ code, stdout, stderr, ms, transcript });
      });
    });
  }

  const forge = (...args: string[]) => run(FORGE, args);

  /** `forge create` (no verification): returns the deployed address. */
  async function create(contract: string, extra: string[] = [], constructorArgs: string[] = []): Promise<string> {
    const args = ['create', contract, '--rpc-url', RPC_URL, '--private-key', PRIVATE_KEY, '--broadcast', ...extra];
    // Variadic: it must come last.
    if (constructorArgs.length) args.push('--constructor-args', ...constructorArgs);
    const r = await forge(...args);
    expect(r.code, r.transcript).toBe(0);
    const address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(r.stdout)?.[1];
    expect(address, r.transcript).toBeDefined();
    return address!.toLowerCase();
  }

  /** `cast abi-encode`: the ABI-encoded constructor arguments a user passes to verify-contract. */
  async function abiEncode(signature: string, ...values: string[]): Promise<string> {
    const r = await run(CAST, ['abi-encode', signature, ...values]);
    expect(r.code, r.transcript).toBe(0);
    return r.stdout.trim();
  }

  /** `forge verify-contract` without `--watch`: returns the receipt forge printed. */
  async function verifyContract(address: string, contract: string, extra: string[]): Promise<string> {
    const r = await forge('verify-contract', address, contract, '--chain', '31337', ...extra);
    expect(r.code, r.transcript).toBe(0);
    expect(r.stdout, r.transcript).toContain('Submitted contract for verification');
    const guid = /GUID: `([a-z0-9]{50})`/.exec(r.stdout)?.[1];
    expect(guid, r.transcript).toBeDefined();
    return guid!;
  }

  /**
   * `forge verify-check`, polling every second. verify-check takes neither the verifier nor the
   * key from the foundry.toml entry: without `--etherscan-api-key` it asks sourcify.dev (with
   * `--verifier etherscan` alone it finds no URL for chain 31337); with it, it uses the entry's URL.
   */
  async function verifyCheck(guid: string): Promise<Run> {
    return forge('verify-check', guid, '--chain', '31337', '--etherscan-api-key', apiKey, '--retries', '30', '--delay', '1');
  }

  /** The verifysourcecode request forge sent for `address` (through the recording proxy). */
  function submissionFor(address: string): RecordedRequest {
    const found = proxy.requests.filter((r) => {
      const p = { ...r.query, ...r.form };
      return p.action === 'verifysourcecode' && p.contractaddress?.toLowerCase() === address;
    });
    expect(found, JSON.stringify(proxy.requests.map((r) => ({ ...r.query, ...r.form, sourceCode: undefined })))).toHaveLength(1);
    return found[0]!;
  }

  /**
   * A request's fields as the service reads them (query and body merged), checked for what
   * every forge submission has: the key sent first (the service reads a large body only then),
   * a standard JSON input, and no chainid.
   */
  function sentFields(request: RecordedRequest): Record<string, string> {
    expect(request.method).toBe('POST');
    const keyFirst = request.query.apikey !== undefined || Object.keys(request.form)[0] === 'apikey';
    expect(keyFirst, `query ${Object.keys(request.query).join(',')}; body ${Object.keys(request.form).join(',')}`).toBe(true);
    const fields = { ...request.query, ...request.form };
    expect(fields).not.toHaveProperty('chainid');
    expect(request.answer).toMatchObject({ status: '1', message: 'OK' });
    return fields;
  }

  const sentInput = (fields: Record<string, string>) =>
    JSON.parse(fields.sourceCode!) as { sources: Record<string, unknown>; settings: Record<string, unknown> & { libraries?: unknown; viaIR?: boolean } };

  async function record(address: string): Promise<Record<string, string>> {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.status).toBe('1');
    return env.result[0] as Record<string, string>;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-foundry-'));
    home = join(root, 'home');
    project = join(root, 'project');
    proxy = await startRecordingProxy(apiUrl);

    // The solc forge finds, and the directory that tells it the commit.
    await installSolcForForge(home, SOLC);

    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src', 'Greeter.sol'), GREETER);
    writeFileSync(join(project, 'src', 'Welcome.sol'), WELCOME);
    writeFileSync(join(project, 'src', 'MathLib.sol'), MATH_LIB);
    writeFileSync(join(project, 'src', 'Tripler.sol'), TRIPLER);
    writeFileSync(join(project, 'src', 'Counter.sol'), COUNTER);
    writeFileSync(join(project, 'src', 'Mistake.sol'), MISTAKE);
    writeFileSync(
      join(project, 'foundry.toml'),
      [
        '[profile.default]',
        'src = "src"',
        'out = "out"',
        'libs = []',
        'optimizer = true',
        'optimizer_runs = 200',
        '',
        '[etherscan]',
        `devnet = { key = "\${SOLPROOF_API_KEY}", chain = 31337, url = "${proxy.apiUrl}" }`,
        '',
      ].join('\n'),
    );

    // One build shared by the cases (the library and viaIR cases rebuild what they change).
    const build = await forge('build');
    expect(build.code, build.transcript).toBe(0);
  });

  afterAll(async () => {
    await proxy?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  // forge create --verify polls like --watch (15 s after a `Pending in queue`, whatever
  // --retries/--delay say); its first check waits for the verdict. The others submit and then verify-check.
  it('forge create --verify with constructor arguments reaches Pass - Verified', async () => {
    const r = await forge(
      'create',
      'src/Greeter.sol:Greeter',
      '--rpc-url',
      RPC_URL,
      '--private-key',
      PRIVATE_KEY,
      '--broadcast',
      '--verify',
      '--constructor-args',
      'hello forge',
      '7',
    );
    expect(r.code, r.transcript).toBe(0);
    expect(r.stdout, r.transcript).toContain('Pass - Verified');
    expect(r.stdout, r.transcript).toContain('Contract successfully verified');
    const address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(r.stdout)![1]!.toLowerCase();

    const args = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['hello forge', 7n]).slice(2);
    const sent = sentFields(submissionFor(address));
    expect(sent).toMatchObject({
      codeformat: 'solidity-standard-json-input',
      contractname: 'src/Greeter.sol:Greeter',
      compilerversion: 'v0.8.28+commit.7893614a',
      constructorArguements: args,
      constructorArguments: args,
    });
    const rec = await record(address);
    expect(rec.MatchKind).toBe('full');
    expect(rec.ContractName).toBe('Greeter');
    expect(rec.ConstructorArguments).toBe(args);
  });

  it('forge verify-contract --constructor-args, then forge verify-check reports the pass', async () => {
    const address = await create('src/Welcome.sol:Welcome', [], ['hi', '3']);
    const args = await abiEncode('constructor(string,uint256)', 'hi', '3');
    const guid = await verifyContract(address, 'src/Welcome.sol:Welcome', ['--constructor-args', args]);
    const check = await verifyCheck(guid);
    expect(check.code, check.transcript).toBe(0);
    expect(check.stdout, check.transcript).toContain('Pass - Verified');
    expect(check.stdout, check.transcript).toContain('Contract successfully verified');
    expect(sentFields(submissionFor(address))).toMatchObject({ constructorArguements: args.slice(2), compilerversion: 'v0.8.28+commit.7893614a' });

    const rec = await record(address);
    expect(rec.MatchKind).toBe('full');
    expect(rec.ConstructorArguments).toBe(args.slice(2));

    // Foundry's own getsourcecode parser reads the record back.
    const source = await run(CAST, [
      'source',
      address,
      '--chain',
      '31337',
      '--etherscan-api-key',
      apiKey,
      '--explorer-api-url',
      proxy.apiUrl,
      '--explorer-url',
      baseUrl,
    ]);
    expect(source.code, source.transcript).toBe(0);
    expect(source.stdout, source.transcript).toContain('contract Welcome {');
  });

  it('a failed verification: forge verify-check prints the reason and the diagnosis (forge sends no chainid)', async () => {
    const address = await create('src/Mistake.sol:Mistake', [], ['4']);
    const wrong = await abiEncode('constructor(uint256)', '5');
    const guid = await verifyContract(address, 'src/Mistake.sol:Mistake', ['--constructor-args', wrong]);
    const check = await verifyCheck(guid);
    expect(check.code, check.transcript).not.toBe(0);
    const printed = `${check.stdout}\n${check.stderr}`;
    expect(printed, check.transcript).toMatch(/Fail - Unable to verify\. \S/);
    // The diagnosis names the arguments the creation transaction really carries.
    expect(printed, check.transcript).toContain(`0x${(4).toString(16).padStart(64, '0')}`);
    // Decoded with the constructor's types, and the receipt page where the whole diagnosis is.
    expect(printed, check.transcript).toMatch(/\(uint256( \w+)? = 4\)/);
    expect(printed, check.transcript).toMatch(new RegExp(`Diagnosis: http://127\\.0\\.0\\.1:\\d+/receipt/${guid}`));
    const checks = proxy.requests.filter((r) => ({ ...r.query, ...r.form }).action === 'checkverifystatus' && { ...r.query, ...r.form }.guid === guid);
    expect(checks.length).toBeGreaterThan(0);
    for (const r of checks) {
      expect(r.method).toBe('POST');
      expect({ ...r.query, ...r.form }.chainid).toBeUndefined();
    }
  });

  it('a copy of the verified Greeter is a similar match: forge verify-contract finds it verified and skips', async () => {
    // The first case verified a Greeter with forge create --verify.
    const copy = await create('src/Greeter.sol:Greeter', [], ['copy', '2']);
    const args = await abiEncode('constructor(string,uint256)', 'copy', '2');
    const r = await forge('verify-contract', copy, 'src/Greeter.sol:Greeter', '--chain', '31337', '--constructor-args', args);
    expect(r.code, r.transcript).toBe(0);
    expect(r.stdout, r.transcript).toContain('is already verified. Skipping verification.');
    const rec = await record(copy);
    expect(rec.ContractName).toBe('Greeter');
    expect(rec.SimilarMatch).toMatch(/^0x[0-9a-f]{40}$/);
    expect(rec.ConstructorArguments).toBe(args.slice(2));
  });

  it('forge verify-contract --libraries (the library deployed first) passes', async () => {
    const lib = await create('src/MathLib.sol:MathLib');
    const libraries = `src/MathLib.sol:MathLib:${lib}`;
    const address = await create('src/Tripler.sol:Tripler', ['--libraries', libraries], ['5']);
    const args = await abiEncode('constructor(uint256)', '5');
    const guid = await verifyContract(address, 'src/Tripler.sol:Tripler', ['--libraries', libraries, '--constructor-args', args]);
    const check = await verifyCheck(guid);
    expect(check.code, check.transcript).toBe(0);
    expect(check.stdout, check.transcript).toContain('Pass - Verified');
    // Forge sends the addresses in the input's settings.libraries, not as libraryname/libraryaddress fields.
    const sent = sentFields(submissionFor(address));
    expect(Object.keys(sent).filter((k) => k.startsWith('library'))).toEqual([]);
    expect(sentInput(sent).settings.libraries).toEqual({ 'src/MathLib.sol': { MathLib: expect.stringMatching(new RegExp(`^${lib}$`, 'i')) } });

    const rec = await record(address);
    expect(rec.MatchKind).toBe('full');
    expect(rec.Library).toBe(`MathLib:${lib}`);
    expect(rec.ConstructorArguments).toBe(args.slice(2));
  });

  it('forge verify-contract --via-ir passes', async () => {
    const address = await create('src/Counter.sol:Counter', ['--via-ir']);
    const guid = await verifyContract(address, 'src/Counter.sol:Counter', ['--via-ir']);
    const check = await verifyCheck(guid);
    expect(check.code, check.transcript).toBe(0);
    expect(check.stdout, check.transcript).toContain('Pass - Verified');
    const sent = sentFields(submissionFor(address));
    expect(sent.viaIR).toBe('true');
    expect(sentInput(sent).settings.viaIR).toBe(true);

    const rec = await record(address);
    expect(rec.MatchKind).toBe('full');
    expect(JSON.parse(rec.SourceCode!.slice(1, -1)).settings.viaIR).toBe(true);
  });
});
