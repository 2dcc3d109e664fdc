import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodeAbiParameters, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { cleanEnv } from '../helpers/service.js';
import { installSolcForForge } from './foundry/offlineSolc.js';
import { type RecordedRequest, type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

/*
 * Foundry 1.7.1's forge against the service's Sourcify API, as a user runs it without an
 * Etherscan key for the chain: `--verifier sourcify --verifier-url <base>/sourcify/`. The
 * offline set-up is the one test/clients/foundry.test.ts uses (a solc-js stand-in in a private
 * HOME's .svm, the long version from a directory name), but foundry.toml names no explorer for
 * chain 31337: with one, forge would take the Etherscan verifier whatever --verifier says. A
 * recording proxy in front of /sourcify pins what forge sends.
 */

const ACCOUNT = deployerAccount('clients/foundrySourcify');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const RPC_URL = inject('rpcUrl');
const { apiUrl, baseUrl, apiKey } = sharedService();
const SOLC = '0.8.28';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(require.resolve('solc/package.json')), '..', '..');
const FORGE = join(dirname(require.resolve('@foundry-rs/forge-linux-amd64/package.json')), 'bin', 'forge');

// Code no other test deploys: neither is a copy of a contract verified elsewhere.
const BEACON = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Beacon {
    string public signal;
    uint256 public strength;
    address public immutable keeper;

    constructor(string memory _signal, uint256 _strength) {
        signal = _signal;
        strength = _strength;
        keeper = msg.sender;
    }

    function boost() external { strength += 11; }
}
`;

const LANTERN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Lantern {
    uint256 public lumens;

    constructor(uint256 _lumens) { lumens = _lumens * 3 + 17; }

    function dim() external { lumens -= 1; }
}
`;

// Deployed from one source, verified with another (a changed constant): a failure.
const FLARE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Flare {
    uint256 public constant BURN = 90210;
    function burn() external pure returns (uint256) { return BURN; }
}
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  transcript: string;
}

function foundryEnv(home: string): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const k of Object.keys(env)) {
    if (/^(FOUNDRY_|DAPP_|ETHERSCAN_|VERIFIER_|EXPLORER_|ETH_RPC_URL$|CHAIN$|XDG_)/.test(k)) delete env[k];
  }
  return { ...env, HOME: home, NO_COLOR: '1' };
}

describe('Foundry (forge 1.7.1) against the Sourcify API', () => {
  let root: string;
  let home: string;
  let project: string;
  let proxy: RecordingProxy;
  let verifierUrl: string;

  async function forge(...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(FORGE, args, { cwd: project, env: foundryEnv(home), timeout: 150_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, transcript: `$ forge ${args.join(' ')}\n(exit ${code})\n--- stdout\n${stdout}--- stderr\n${stderr}` });
      });
    });
  }

  async function create(contract: string, constructorArgs: string[] = [], extra: string[] = []): Promise<{ run: Run; address: string }> {
    const args = ['create', contract, '--rpc-url', RPC_URL, '--private-key', PRIVATE_KEY, '--broadcast', ...extra];
    if (constructorArgs.length) args.push('--constructor-args', ...constructorArgs);
    const run = await forge(...args);
    expect(run.code, run.transcript).toBe(0);
    const address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(run.stdout)?.[1];
    expect(address, run.transcript).toBeDefined();
    return { run, address: address!.toLowerCase() };
  }

  const sourcifyFlags = () => ['--chain', '31337', '--verifier', 'sourcify', '--verifier-url', verifierUrl];

  /** The requests forge sent about `address` (its path names it in any letter case). */
  const requestsFor = (address: string): RecordedRequest[] => proxy.requests.filter((r) => r.path.toLowerCase().includes(address));

  async function record(address: string): Promise<Record<string, string>> {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.status).toBe('1');
    return env.result[0] as Record<string, string>;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-forge-sourcify-'));
    home = join(root, 'home');
    project = join(root, 'project');
    proxy = await startRecordingProxy(`${baseUrl}/sourcify/`);
    verifierUrl = proxy.apiUrl;
    expect(verifierUrl).toMatch(/\/sourcify\/$/);

    await installSolcForForge(home, SOLC);

    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src', 'Beacon.sol'), BEACON);
    writeFileSync(join(project, 'src', 'Lantern.sol'), LANTERN);
    writeFileSync(join(project, 'src', 'Flare.sol'), FLARE);
    // No [etherscan] entry for 31337: forge then verifies through the Sourcify verifier it is given.
    writeFileSync(
      join(project, 'foundry.toml'),
      ['[profile.default]', 'src = "src"', 'out = "out"', 'libs = []', 'optimizer = true', 'optimizer_runs = 200', ''].join('\n'),
    );
    const built = await forge('build');
    expect(built.code, built.transcript).toBe(0);
  });

  afterAll(async () => {
    await proxy?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('forge verify-contract --verifier sourcify submits, forge verify-check reports the match; getsourcecode and getabi serve it', async () => {
    const { address } = await create('src/Beacon.sol:Beacon', ['north', '5']);
    const submit = await forge('verify-contract', address, 'src/Beacon.sol:Beacon', ...sourcifyFlags());
    expect(submit.code, submit.transcript).toBe(0);
    expect(submit.stdout, submit.transcript).toContain('Submitted contract for verification');
    const id = /Verification Job ID: `([a-z0-9]{50})`/.exec(submit.stdout)?.[1];
    expect(id, submit.transcript).toBeDefined();
    const check = await forge('verify-check', id!, ...sourcifyFlags(), '--retries', '60', '--delay', '1');
    expect(check.code, check.transcript).toBe(0);
    expect(check.stdout, check.transcript).toContain('Contract successfully verified');
    expect(check.stdout, check.transcript).toContain('Status: `exact_match`');

    // What forge sent: a lookup first (404: not verified), then the job, with a checksummed
    // address, the version without `v`, the identifier relative to the project, no creation
    // transaction and no User-Agent.
    const seen = requestsFor(address).filter((r) => !r.path.includes(id!));
    expect(seen.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /sourcify/v2/contract/31337/${getAddress(address)} 404`,
      `POST /sourcify/v2/verify/31337/${getAddress(address)} 202`,
    ]);
    const post = seen[1]!;
    expect(Object.keys(post.json as object).sort()).toEqual(['compilerVersion', 'contractIdentifier', 'stdJsonInput']);
    expect(post.json).toMatchObject({ compilerVersion: '0.8.28+commit.7893614a', contractIdentifier: 'src/Beacon.sol:Beacon' });
    expect(post.headers['user-agent']).toBeUndefined();
    expect(proxy.requests.filter((r) => r.path === `/sourcify/v2/verify/${id}`).at(-1)!.answer).toMatchObject({
      isJobCompleted: true,
      contract: { match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match' },
    });

    const rec = await record(address);
    expect(rec).toMatchObject({ ContractName: 'Beacon', MatchKind: 'full', CreationMatch: 'full', RuntimeMatch: 'full', ContractFileName: 'src/Beacon.sol' });
    expect(rec.ConstructorArguments).toBe(encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['north', 5n]).slice(2));
    const abi = await apiGet(apiUrl, { module: 'contract', action: 'getabi', address, apikey: apiKey });
    expect(JSON.parse(abi.result).map((e: { name?: string }) => e.name)).toContain('boost');

    // Verified exactly in both parts: a second run looks it up and stops there.
    const mark = proxy.requests.length;
    const again = await forge('verify-contract', address, 'src/Beacon.sol:Beacon', ...sourcifyFlags());
    expect(again.code, again.transcript).toBe(0);
    expect(again.stdout, again.transcript).toContain('is already verified. Skipping verification.');
    expect(proxy.requests.slice(mark).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200']);
  });

  it('forge create --verify --verifier sourcify deploys and verifies in one go', async () => {
    const { run, address } = await create('src/Lantern.sol:Lantern', ['40'], ['--verify', '--verifier', 'sourcify', '--verifier-url', verifierUrl]);
    expect(run.stdout, run.transcript).toContain('Contract successfully verified');
    expect(run.stdout, run.transcript).toContain('Status: `exact_match`');
    const rec = await record(address);
    expect(rec).toMatchObject({ ContractName: 'Lantern', MatchKind: 'full' });
    expect(rec.ConstructorArguments).toBe(encodeAbiParameters([{ type: 'uint256' }], [40n]).slice(2));
  });

  it('a failed verification: forge verify-check prints the reason', async () => {
    const { address } = await create('src/Flare.sol:Flare');
    writeFileSync(join(project, 'src', 'Flare.sol'), FLARE.replace('90210', '90211'));
    try {
      const submit = await forge('verify-contract', address, 'src/Flare.sol:Flare', ...sourcifyFlags());
      expect(submit.code, submit.transcript).toBe(0);
      const id = /Verification Job ID: `([a-z0-9]{50})`/.exec(submit.stdout)![1]!;
      const check = await forge('verify-check', id, ...sourcifyFlags(), '--retries', '60', '--delay', '1');
      expect(check.code, check.transcript).not.toBe(0);
      expect(check.stderr, check.transcript).toContain('Error Code: `no_match`');
      // Sourcify's sentence, then the service's reason: where the codes first differ.
      expect(check.stderr, check.transcript).toContain(
        "Message: `The deployed and recompiled bytecode don't match. Compiled contract deployment bytecode does NOT match",
      );
      expect(check.stderr, check.transcript).toContain('PUSH3 0x016062');
    } finally {
      writeFileSync(join(project, 'src', 'Flare.sol'), FLARE);
    }
    const rec = await record(address);
    expect(rec.ContractName).toBe('');
  });

  it("the README's [etherscan] entry with SOLPROOF_API_KEY unset stops forge on the Sourcify route, as the README says", async () => {
    const { address } = await create('src/Beacon.sol:Beacon', ['south', '6']);
    const toml = join(project, 'foundry.toml');
    const plain = readFileSync(toml, 'utf8');
    // The entry of the README's Foundry section, in a shell where the variable is not set.
    writeFileSync(toml, `${plain}\n[etherscan]\ndevnet = { key = "\${SOLPROOF_API_KEY}", chain = 31337, url = "${apiUrl}" }\n`);
    try {
      const mark = proxy.requests.length;
      const stopped = await forge('verify-contract', address, 'src/Beacon.sol:Beacon', ...sourcifyFlags());
      expect(stopped.code, stopped.transcript).not.toBe(0);
      expect(stopped.stderr, stopped.transcript).toContain('SOLPROOF_API_KEY');
      expect(proxy.requests.length).toBe(mark);
      // The clients guide says so (lines wrapped anywhere).
      const guide = readFileSync(join(ROOT, 'docs', 'clients.md'), 'utf8').replace(/\s+/g, ' ');
      expect(guide).toContain('with `SOLPROOF_API_KEY` unset, forge stops before it sends anything');
    } finally {
      writeFileSync(toml, plain);
    }
    // Without the entry the same command verifies.
    const again = await forge('verify-contract', address, 'src/Beacon.sol:Beacon', ...sourcifyFlags());
    expect(again.code, again.transcript).toBe(0);
  });
});
