import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { CLI, cleanEnv } from '../helpers/service.js';
import { HARDHAT_CLI, IGNITION_DEPLOYED, writeIgnitionProject } from './ignition/ignitionProject.js';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

/*
 * Hardhat Ignition (@nomicfoundation/hardhat-ignition 0.15.16 with Hardhat 2.29, the Hardhat of
 * the other Hardhat 2 tests), run as a user runs it against the service, offline:
 * `hardhat ignition deploy … --verify`, `hardhat ignition verify <deployment>` of a deployment
 * made without --verify, and `solproof publish` of another one. The module deploys a library
 * and the contract linked to it, a contract with constructor arguments, a factory and (in a
 * call) its child; Ignition's record holds the four it deployed itself.
 */

const ACCOUNT = deployerAccount('clients/hardhatIgnition');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const { baseUrl, apiUrl, apiKey } = sharedService();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  transcript: string;
}

function run(bin: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, bin, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, transcript: `$ ${bin.slice(1).join(' ')}\n(exit ${code})\n--- stdout\n${stdout}--- stderr\n${stderr}` });
    });
  });
}

describe('Hardhat Ignition (Hardhat 2) against the service', () => {
  let root: string;
  let proxy: RecordingProxy;
  let env: NodeJS.ProcessEnv;

  function project(name: string, flavour: number): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeIgnitionProject(dir, flavour);
    return dir;
  }

  const hardhat = (dir: string, ...args: string[]) => run([HARDHAT_CLI, ...args], dir, env);
  const deploy = (dir: string, ...extra: string[]) => hardhat(dir, 'ignition', 'deploy', 'ignition/modules/Deployment.cjs', '--network', 'devnet', ...extra);

  /** Ignition's record of the deployment: contract name → address (lower case). */
  function deployed(dir: string): Map<string, string> {
    const record = JSON.parse(readFileSync(join(dir, 'ignition', 'deployments', 'chain-31337', 'deployed_addresses.json'), 'utf8')) as Record<string, string>;
    return new Map(Object.entries(record).map(([future, address]) => [future.split('#')[1]!, address.toLowerCase()]));
  }

  async function record(address: string): Promise<Record<string, string>> {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.status).toBe('1');
    return env.result[0] as Record<string, string>;
  }

  async function expectVerified(dir: string): Promise<void> {
    const addresses = deployed(dir);
    expect([...addresses.keys()].sort()).toEqual([...IGNITION_DEPLOYED].sort());
    for (const [name, address] of addresses) {
      const rec = await record(address);
      expect({ name, contract: rec.ContractName, match: rec.MatchKind }).toEqual({ name, contract: name, match: 'full' });
    }
  }

  async function expectUnverified(dir: string): Promise<void> {
    for (const [name, address] of deployed(dir)) expect((await record(address)).SourceCode, name).toBe('');
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-ignition-'));
    for (const d of ['tmp', 'xdg-config', 'xdg-data', 'xdg-cache']) mkdirSync(join(root, d));
    proxy = await startRecordingProxy(apiUrl);
    env = {
      ...cleanEnv(),
      CI: 'true',
      HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
      TMPDIR: join(root, 'tmp'),
      XDG_CONFIG_HOME: join(root, 'xdg-config'),
      XDG_DATA_HOME: join(root, 'xdg-data'),
      XDG_CACHE_HOME: join(root, 'xdg-cache'),
      IGNITION_TEST_RPC_URL: inject('rpcUrl'),
      IGNITION_TEST_PRIVATE_KEY: PRIVATE_KEY,
      IGNITION_TEST_API_URL: proxy.apiUrl,
      IGNITION_TEST_BROWSER_URL: baseUrl,
      IGNITION_TEST_API_KEY: apiKey,
    };
    delete env.NO_PROXY;
    delete env.no_proxy;
  });

  afterAll(async () => {
    await proxy?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('ignition deploy --verify deploys the module and verifies every contract it deployed', async () => {
    const dir = project('deploy-verify', 720_001);
    const r = await deploy(dir, '--verify');
    expect(r.code, r.transcript).toBe(0);
    expect(r.stdout, r.transcript).toContain('Verifying deployed contracts');
    for (const name of IGNITION_DEPLOYED) expect(r.stdout, r.transcript).toContain(`Successfully verified contract "contracts/${name}.sol:${name}"`);
    expect(r.stdout.match(/Successfully verified contract/g), r.transcript).toHaveLength(IGNITION_DEPLOYED.length);
    await expectVerified(dir);
  });

  it('ignition verify <deployment> verifies a deployment made earlier without --verify', async () => {
    const dir = project('verify-later', 720_002);
    const deployedRun = await deploy(dir);
    expect(deployedRun.code, deployedRun.transcript).toBe(0);
    await expectUnverified(dir);
    const r = await hardhat(dir, 'ignition', 'verify', 'chain-31337');
    expect(r.code, r.transcript).toBe(0);
    expect(r.stdout.match(/Successfully verified contract/g), r.transcript).toHaveLength(IGNITION_DEPLOYED.length);
    await expectVerified(dir);
  });

  it('solproof publish --deployment ignition/deployments/chain-31337 verifies a deployment made without --verify', async () => {
    const dir = project('publish', 720_003);
    const deployedRun = await deploy(dir);
    expect(deployedRun.code, deployedRun.transcript).toBe(0);
    await expectUnverified(dir);
    const r = await run([CLI, 'publish', '--url', baseUrl, '--key', apiKey, '--deployment', 'ignition/deployments/chain-31337'], dir, cleanEnv());
    expect(r.code, r.transcript).toBe(0);
    // One line per contract of the record: address, name, verdict, reason.
    for (const [name, address] of deployed(dir)) expect(r.stdout, r.transcript).toContain(`${address}  ${name}  verified  full match`);
    expect(r.stdout, r.transcript).toContain(`All ${IGNITION_DEPLOYED.length} contracts are verified.`);
    await expectVerified(dir);
  });
});
