import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAddress, keccak256, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('clients/ozUpgrades');
const { apiUrl, baseUrl, apiKey } = sharedService();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROJECT = join(root, 'test', 'clients', 'oz-project');
const HARDHAT_CLI = join(root, 'node_modules', 'hardhat', 'internal', 'cli', 'cli.js');
const require = createRequire(import.meta.url);

/**
 * The plugin verifies its proxies from its own precompiled build (upgrades-core's
 * build-info-v5.json), made with this solc; the `solc-0.8.29` npm alias provides it.
 */
const PLUGIN_SOLC = '0.8.29+commit.ab55807c';

/** The suite's setup seeds every installed solc (0.8.29 included) into the shared service's cache. */
function checkPluginCompiler(): void {
  const buildInfo = require('@openzeppelin/upgrades-core/artifacts/build-info-v5.json') as { solcLongVersion: string };
  expect(buildInfo.solcLongVersion, 'the upgrades plugin now ships proxies built with another solc: install that one').toBe(PLUGIN_SOLC);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Deployed {
  uups: string;
  uupsImplementation: string;
  transparent: string;
  transparentImplementation: string;
  beacon: string;
  beaconProxy: string;
  beaconImplementation: string;
  value: string;
}

const LINKED = 'Successfully linked proxy to implementation.';

async function record(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  expect(env.status).toBe('1');
  return env.result[0] as Record<string, string>;
}

/** The one `RESULT {...}` line a fixture script prints. */
function resultOf<T>(run: Run): T {
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no RESULT line:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('RESULT '.length)) as T;
}

describe("OpenZeppelin's upgrades plugin (Hardhat 2) against the service", () => {
  let outDir: string;
  let recorder: RecordingProxy;
  let env: NodeJS.ProcessEnv;
  let deployed: Deployed;

  /** Runs the real Hardhat CLI in the fixture project, as a user would from a terminal. */
  function hardhat(args: string[], extraEnv: Record<string, string> = {}, timeoutMs = 60_000): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [HARDHAT_CLI, ...args], { cwd: PROJECT, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`hardhat ${args.join(' ')} timed out after ${timeoutMs} ms:\n${stdout}\n${stderr}`));
      }, timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Fails with everything the run printed, so a plugin error is readable in the test output. */
  function expectSuccess(run: Run, what: string): void {
    expect(run.code, `${what} failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
  }

  beforeAll(async () => {
    expect(inject('chainId')).toBe(31337);
    outDir = mkdtempSync(join(tmpdir(), 'solproof-oz-'));
    for (const d of ['tmp', 'xdg-config', 'xdg-data', 'xdg-cache']) mkdirSync(join(outDir, d));
    checkPluginCompiler();
    recorder = await startRecordingProxy(apiUrl);
    const account = devnetAccounts(ACCOUNT + 1)[ACCOUNT]!;
    env = { ...process.env };
    for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY']) delete env[k];
    Object.assign(env, {
      CI: 'true',
      HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
      // Hardhat's global files and the plugin's manifests for dev networks (kept under the
      // OS temp dir, one per anvil instance) stay inside this run's directory.
      TMPDIR: join(outDir, 'tmp'),
      XDG_CONFIG_HOME: join(outDir, 'xdg-config'),
      XDG_DATA_HOME: join(outDir, 'xdg-data'),
      XDG_CACHE_HOME: join(outDir, 'xdg-cache'),
      OZ_TEST_OUT_DIR: outDir,
      OZ_TEST_RPC_URL: inject('rpcUrl'),
      OZ_TEST_PRIVATE_KEY: account.privateKey,
      OZ_TEST_API_URL: recorder.apiUrl,
      OZ_TEST_BROWSER_URL: baseUrl,
      OZ_TEST_API_KEY: apiKey,
    });

    const compiled = await hardhat(['compile']);
    expectSuccess(compiled, 'hardhat compile');
    expect(compiled.stdout).toMatch(/Compiled \d+ Solidity files successfully/);
    // The local solc-js build compiled it: Hardhat's downloader never ran.
    expect(compiled.stdout + compiled.stderr).not.toMatch(/Downloading compiler/i);

    const deploy = await hardhat(['run', '--network', 'devnet', 'scripts/deployProxies.cjs']);
    expectSuccess(deploy, 'deploy script');
    deployed = resultOf<Deployed>(deploy);
    expect(deployed.value).toBe('42');
  }, 120_000);

  afterAll(async () => {
    await recorder?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('UUPS: `hardhat verify` verifies the implementation and the ERC1967Proxy and links them; after upgradeProxy it links the new implementation', async () => {
    const { uups: proxy, uupsImplementation: impl1 } = deployed;

    const mark = recorder.requests.length;
    const first = await hardhat(['verify', '--network', 'devnet', proxy]);
    expectSuccess(first, 'hardhat verify (V1)');
    const seen = recorder.requests.slice(mark);
    expect(seen.filter((r) => r.status !== 200)).toEqual([]);
    // The plugin's own calls (module=logs, the proxy link) are POSTs with every parameter in the
    // query string and no body; with a per-network key hardhat-verify has no chain id, so `chainid` is empty.
    const pluginCalls = seen.filter((r) => r.query.module === 'logs' || /proxy/.test(r.query.action ?? ''));
    expect(pluginCalls.length).toBeGreaterThan(0);
    for (const r of pluginCalls) {
      expect(r.method).toBe('POST');
      expect(r.form).toEqual({});
      expect(r.query).toMatchObject({ apikey: apiKey, chainid: '' });
    }
    // It finds the proxy's creation transaction by its Upgraded(address) event.
    expect(pluginCalls.filter((r) => r.query.module === 'logs').map((r) => r.query.topic0)).toContain(keccak256(toHex('Upgraded(address)')));
    const linkCall = pluginCalls.find((r) => r.query.action === 'verifyproxycontract');
    expect(linkCall?.query.address).toBe(proxy);
    expect(getAddress(linkCall!.query.expectedimplementation!)).toBe(getAddress(impl1));
    expect(first.stdout).toContain(`Verifying implementation: ${impl1}`);
    expect(first.stdout).toContain(`Successfully verified contract ERC1967Proxy at ${proxy}.`);
    expect(first.stdout).toContain(LINKED);
    expect(first.stdout).toContain('Proxy fully verified.');

    const implRecord = await record(impl1);
    expect(implRecord.ContractName).toBe('BoxV1');
    expect(implRecord.CompilerVersion).toBe('v0.8.28+commit.7893614a');
    const proxyRecord = await record(proxy);
    expect(proxyRecord.ContractName).toBe('ERC1967Proxy');
    expect(proxyRecord.Proxy).toBe('1');
    expect(getAddress(proxyRecord.Implementation!)).toBe(getAddress(impl1));

    const upgrade = await hardhat(['run', '--network', 'devnet', 'scripts/upgradeBox.cjs'], { OZ_TEST_PROXY: proxy });
    expectSuccess(upgrade, 'upgrade script');
    const upgraded = resultOf<{ implementation: string; version: string; value: string }>(upgrade);
    expect(upgraded).toMatchObject({ version: '2', value: '42' });
    const impl2 = upgraded.implementation;
    expect(getAddress(impl2)).not.toBe(getAddress(impl1));

    const second = await hardhat(['verify', '--network', 'devnet', proxy]);
    expectSuccess(second, 'hardhat verify (V2)');
    expect(second.stdout).toContain(`Verifying implementation: ${impl2}`);
    expect(second.stdout).toContain(`Contract at ${proxy} already verified.`);
    expect(second.stdout).toContain(LINKED);

    expect((await record(impl2)).ContractName).toBe('BoxV2');
    const relinked = await record(proxy);
    expect(relinked.Proxy).toBe('1');
    expect(getAddress(relinked.Implementation!)).toBe(getAddress(impl2));

    // The upgrade check on what the plugin deployed and verified: back from BoxV2 to BoxV1 keeps
    // the storage (the plugin found BoxV1 to BoxV2 safe), and the ABI loses increment().
    const check = await apiGet(apiUrl, { module: 'contract', action: 'checkupgrade', proxy, implementation: impl1, apikey: apiKey });
    expect(check.status, JSON.stringify(check)).toBe('1');
    const verdict = check.result as {
      compatible: boolean;
      errors: unknown[];
      currentImplementation: { address: string; contractName: string };
      abiDiff: { removed: unknown[] };
    };
    expect(verdict).toMatchObject({ compatible: true, errors: [], currentImplementation: { contractName: 'BoxV2' } });
    expect(getAddress(verdict.currentImplementation.address)).toBe(getAddress(impl2));
    expect(verdict.abiDiff.removed).toEqual([{ kind: 'function', signature: 'increment()' }]);
  }, 120_000);

  it('transparent proxy: implementation, TransparentUpgradeableProxy and its ProxyAdmin verified, proxy linked', async () => {
    const { transparent: proxy, transparentImplementation: impl } = deployed;
    const run = await hardhat(['verify', '--network', 'devnet', proxy]);
    expectSuccess(run, 'hardhat verify (transparent)');
    expect(run.stdout).toContain(`Successfully verified contract TransparentUpgradeableProxy at ${proxy}.`);
    expect(run.stdout).toContain(LINKED);
    expect(run.stdout).toMatch(/Successfully verified contract ProxyAdmin at 0x[0-9a-fA-F]{40}\./);

    expect((await record(impl)).ContractName).toBe('Counter');
    const proxyRecord = await record(proxy);
    expect(proxyRecord.ContractName).toBe('TransparentUpgradeableProxy');
    expect(proxyRecord.Proxy).toBe('1');
    expect(getAddress(proxyRecord.Implementation!)).toBe(getAddress(impl));
  }, 120_000);

  it("beacon proxy: UpgradeableBeacon and BeaconProxy verified, proxy linked to the beacon's implementation", async () => {
    const { beaconProxy: proxy, beacon, beaconImplementation: impl } = deployed;
    const run = await hardhat(['verify', '--network', 'devnet', proxy]);
    expectSuccess(run, 'hardhat verify (beacon proxy)');
    expect(run.stdout).toContain(`Successfully verified contract UpgradeableBeacon at ${beacon}.`);
    expect(run.stdout).toContain(`Successfully verified contract BeaconProxy at ${proxy}.`);
    expect(run.stdout).toContain(LINKED);

    expect((await record(beacon)).ContractName).toBe('UpgradeableBeacon');
    const proxyRecord = await record(proxy);
    expect(proxyRecord.ContractName).toBe('BeaconProxy');
    expect(proxyRecord.Proxy).toBe('1');
    expect(getAddress(proxyRecord.Implementation!)).toBe(getAddress(impl));
  }, 120_000);
});
