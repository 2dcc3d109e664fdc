/**
 * forge (Foundry 1.7.1) verifying a Vyper contract against the service, offline: forge builds
 * with the Vyper compiler of `.vyper/` (foundry.toml's `[profile.default.vyper] path`), deploys
 * with `forge create`, and `forge verify-contract` sends it as Etherscan's `vyper-json`. A
 * recording proxy in front of the service pins what forge sends. Offline, forge still looks for
 * a solc of the Vyper release's number in `$HOME/.svm` before it verifies: an empty stand-in
 * (never run) and the directory named with the long version keep it from asking solc-bin. The
 * second contract, verified with `--verifier sourcify`, goes through Sourcify's v2 API.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { cleanEnv } from '../helpers/service.js';
import { VYPER_DIR, vyperAvailable } from '../helpers/vyper.js';
import { installSolcForForge } from './foundry/offlineSolc.js';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

const ACCOUNT = deployerAccount('clients/foundryVyper');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const RPC_URL = inject('rpcUrl');
const { apiUrl, apiKey, baseUrl } = sharedService();
const ready = vyperAvailable();

const require = createRequire(import.meta.url);
const FORGE = join(dirname(require.resolve('@foundry-rs/forge-linux-amd64/package.json')), 'bin', 'forge');

const VAULT = `# pragma version ~=0.4.3
# SPDX-License-Identifier: MIT
OWNER: public(immutable(address))
cap: public(uint256)

@deploy
def __init__(cap: uint256):
    OWNER = msg.sender
    self.cap = cap

@external
def raise_cap(by: uint256):
    assert msg.sender == OWNER
    self.cap += by
`;

/** Another contract (no copy of the vault's code), verified through Sourcify's API. */
const GAUGE = `# pragma version ~=0.4.3
# SPDX-License-Identifier: MIT
KEEPER: public(immutable(address))
level: public(uint256)

@deploy
def __init__(level: uint256):
    KEEPER = msg.sender
    self.level = level

@external
def lower(by: uint256):
    assert msg.sender == KEEPER
    self.level -= by
`;

interface Run {
  code: number | null;
  stdout: string;
  transcript: string;
}

describe.skipIf(!ready)('forge verify-contract with a Vyper contract', () => {
  let root: string;
  let home: string;
  let project: string;
  let proxy: RecordingProxy;
  /** A project without an [etherscan] entry (forge would use Etherscan's verifier with one), behind a proxy in front of /sourcify. */
  let sourcifyProject: string;
  let sourcifyProxy: RecordingProxy;

  function forge(...args: string[]): Promise<Run> {
    return forgeIn(project, ...args);
  }

  function forgeIn(cwd: string, ...args: string[]): Promise<Run> {
    const env = cleanEnv();
    for (const k of Object.keys(env)) if (/^(FOUNDRY_|DAPP_|ETHERSCAN_|VERIFIER_|EXPLORER_|ETH_RPC_URL$|CHAIN$|XDG_)/.test(k)) delete env[k];
    return new Promise((resolve) => {
      execFile(
        FORGE,
        args,
        { cwd, env: { ...env, HOME: home, SOLPROOF_API_KEY: apiKey, NO_COLOR: '1' }, timeout: 100_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          resolve({ code, stdout, transcript: `$ forge ${args.join(' ')}\n(exit ${code})\n--- stdout\n${stdout}--- stderr\n${stderr}` });
        },
      );
    });
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-forge-vyper-'));
    home = join(root, 'home');
    project = join(root, 'project');
    proxy = await startRecordingProxy(apiUrl);
    await installSolcForForge(home, '0.8.28');
    // forge reads a version's commit from the names in .svm (or asks solc-bin's list, which is offline).
    mkdirSync(join(home, '.svm', '0.4.3+commit.bff19ea2'), { recursive: true });
    mkdirSync(join(home, '.svm', '0.4.3'), { recursive: true });
    writeFileSync(join(home, '.svm', '0.4.3', 'solc-0.4.3'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src', 'Vault.vy'), VAULT);
    writeFileSync(
      join(project, 'foundry.toml'),
      [
        '[profile.default]',
        'src = "src"',
        'out = "out"',
        'libs = []',
        '',
        '[profile.default.vyper]',
        `path = "${join(VYPER_DIR, '0.4.3', 'bin', 'vyper')}"`,
        '',
        '[etherscan]',
        `devnet = { key = "\${SOLPROOF_API_KEY}", chain = 31337, url = "${proxy.apiUrl}" }`,
        '',
      ].join('\n'),
    );
    const build = await forge('build');
    expect(build.code, build.transcript).toBe(0);

    sourcifyProxy = await startRecordingProxy(`${baseUrl}/sourcify/`);
    sourcifyProject = join(root, 'sourcify-project');
    mkdirSync(join(sourcifyProject, 'src'), { recursive: true });
    writeFileSync(join(sourcifyProject, 'src', 'Gauge.vy'), GAUGE);
    writeFileSync(
      join(sourcifyProject, 'foundry.toml'),
      [
        '[profile.default]',
        'src = "src"',
        'out = "out"',
        'libs = []',
        '',
        '[profile.default.vyper]',
        `path = "${join(VYPER_DIR, '0.4.3', 'bin', 'vyper')}"`,
        '',
      ].join('\n'),
    );
    const built = await forgeIn(sourcifyProject, 'build');
    expect(built.code, built.transcript).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await sourcifyProxy?.close();
  });

  it('forge create, then verify-contract: sent as vyper-json with vyper:0.4.3 and path:Name, verified', async () => {
    const created = await forge('create', 'src/Vault.vy:Vault', '--rpc-url', RPC_URL, '--private-key', PRIVATE_KEY, '--broadcast', '--constructor-args', '500');
    expect(created.code, created.transcript).toBe(0);
    const address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(created.stdout)?.[1]?.toLowerCase();
    expect(address, created.transcript).toBeDefined();

    const verified = await forge(
      'verify-contract',
      address!,
      'src/Vault.vy:Vault',
      '--chain',
      '31337',
      '--watch',
      '--constructor-args',
      `0x${(500).toString(16).padStart(64, '0')}`,
    );
    const sentFields = proxy.requests.map((r) => ({ ...r.query, ...r.form, sourceCode: ({ ...r.query, ...r.form }.sourceCode ?? '').slice(0, 300) }));
    expect(verified.code, `${verified.transcript}\n${JSON.stringify(sentFields)}`).toBe(0);
    expect(verified.stdout, verified.transcript).toContain('Contract successfully verified');

    const sent = proxy.requests.find((r) => ({ ...r.query, ...r.form }).action === 'verifysourcecode');
    const fields = { ...sent!.query, ...sent!.form };
    expect(fields, JSON.stringify({ ...fields, sourceCode: undefined })).toMatchObject({ codeformat: 'vyper-json', contractname: 'src/Vault.vy:Vault' });
    expect(fields.compilerversion).toBe('vyper:0.4.3');
    // forge keys the sources by their absolute paths and names the contract by its path in the project.
    expect(Object.keys((JSON.parse(fields.sourceCode!) as { sources: Record<string, unknown> }).sources)).toEqual([join(project, 'src', 'Vault.vy')]);

    const record = (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: address!, apikey: apiKey })).result[0];
    expect(record).toMatchObject({ ContractName: 'Vault', CompilerVersion: 'vyper:0.4.3+commit.bff19ea2', CompilerType: 'vyper', MatchKind: 'full' });
  });

  it('forge verify-contract --verifier sourcify: Vyper standard JSON through Sourcify v2, an exact match', async () => {
    const created = await forgeIn(
      sourcifyProject,
      'create',
      'src/Gauge.vy:Gauge',
      '--rpc-url',
      RPC_URL,
      '--private-key',
      PRIVATE_KEY,
      '--broadcast',
      '--constructor-args',
      '90',
    );
    expect(created.code, created.transcript).toBe(0);
    const address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(created.stdout)?.[1]?.toLowerCase();
    expect(address, created.transcript).toBeDefined();

    const flags = ['--chain', '31337', '--verifier', 'sourcify', '--verifier-url', sourcifyProxy.apiUrl];
    const submit = await forgeIn(sourcifyProject, 'verify-contract', address!, 'src/Gauge.vy:Gauge', ...flags);
    const post = sourcifyProxy.requests.find((r) => r.method === 'POST');
    const sentBody = JSON.stringify(post?.json ?? null).slice(0, 2000);
    expect(submit.code, `${submit.transcript}\n${sentBody}\n${JSON.stringify(post?.answer ?? null)}`).toBe(0);
    const id = /Verification Job ID: `([a-z0-9]{50})`/.exec(submit.stdout)?.[1];
    expect(id, submit.transcript).toBeDefined();
    const check = await forgeIn(sourcifyProject, 'verify-check', id!, ...flags, '--retries', '60', '--delay', '1');
    expect(check.code, check.transcript).toBe(0);
    expect(check.stdout, check.transcript).toContain('Status: `exact_match`');

    // What forge sent: Vyper's standard JSON input keyed by absolute paths, the release without
    // its commit (its one commit is used), the identifier relative to the project.
    expect(post!.json, sentBody).toMatchObject({
      stdJsonInput: { language: 'Vyper', sources: { [join(sourcifyProject, 'src', 'Gauge.vy')]: { content: GAUGE } } },
      compilerVersion: '0.4.3',
      contractIdentifier: 'src/Gauge.vy:Gauge',
    });
    const contract = await fetch(`${baseUrl}/sourcify/v2/contract/31337/${address}?fields=compilation`);
    expect(await contract.json()).toMatchObject({
      match: 'exact_match',
      compilation: { language: 'Vyper', compiler: 'vyper', compilerVersion: '0.4.3+commit.bff19ea2', name: 'Gauge' },
    });
  });
});
