import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEPLOYED, deployedAddresses, FORGE, foundryEnv, runFoundry, writeDeployProject } from '../clients/foundry/deployProject.js';
import { installSolcForForge } from '../clients/foundry/offlineSolc.js';
import { type ReleaseListStandIn, startReleaseListStandIn } from '../clients/foundry/releaseListStandIn.js';
import { type RecordingProxy, startRecordingProxy } from '../clients/recordingProxy.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { CLI, cleanEnv } from '../helpers/service.js';

/*
 * `solproof publish`, run in a Foundry project whose script was broadcast without --verify
 * (forge 1.7.1, offline as in test/clients/foundryScript.test.ts): the project's build-info
 * files go through verifybuild, and the deployment record's contracts are reported one line
 * each. Bad input is refused before anything is sent, or, for a contract that does not match,
 * named while the others are verified. The Ignition case is in test/clients/hardhatIgnition.test.ts.
 */

const ACCOUNT = deployerAccount('cli/publish');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const RPC_URL = inject('rpcUrl');
const { baseUrl, apiUrl, apiKey } = sharedService();
const RECORD = 'broadcast/Deploy.s.sol/31337/run-latest.json';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  transcript: string;
}

function publish(project: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'publish', ...args], { cwd: project, env: cleanEnv(), timeout: 300_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr, transcript: `$ solproof publish ${args.join(' ')}\n(exit ${code})\n--- stdout\n${stdout}--- stderr\n${stderr}` });
    });
  });
}

describe('solproof publish, in a Foundry project deployed without --verify', () => {
  let root: string;
  let home: string;
  let releases: ReleaseListStandIn;
  let proxy: RecordingProxy;

  const forge = (dir: string, ...args: string[]) => runFoundry(FORGE, args, { cwd: dir, env: foundryEnv(home, releases.env) });

  /** A project whose script is broadcast (no --verify); its build-info files are forge's default, without inputs. */
  async function deployedProject(name: string, flavour: number): Promise<string> {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeDeployProject(dir, { flavour });
    const r = await forge(dir, 'script', 'script/Deploy.s.sol:Deploy', '--rpc-url', RPC_URL, '--private-key', PRIVATE_KEY, '--broadcast');
    expect(r.code, r.transcript).toBe(0);
    return dir;
  }

  async function buildInfo(dir: string): Promise<void> {
    const r = await forge(dir, 'build', '--build-info');
    expect(r.code, r.transcript).toBe(0);
  }

  async function record(address: string): Promise<Record<string, string>> {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.status).toBe('1');
    return env.result[0] as Record<string, string>;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-publish-'));
    home = join(root, 'home');
    await installSolcForForge(home, '0.8.28');
    releases = await startReleaseListStandIn();
    proxy = await startRecordingProxy(`${baseUrl}/`);
  });

  afterAll(async () => {
    await proxy?.close();
    await releases?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('verifies every contract of the broadcast record: one line each, address, name, verdict and reason', async () => {
    const dir = await deployedProject('whole', 740_001);
    await buildInfo(dir);
    const addresses = deployedAddresses(dir);
    for (const address of addresses) expect((await record(address)).SourceCode).toBe('');

    const r = await publish(dir, ['--url', baseUrl, '--key', apiKey, '--deployment', RECORD]);
    expect(r.code, r.transcript).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => /^0x[0-9a-f]{40} {2}/.test(l));
    expect(lines.map((l) => l.split('  ')[0]).sort(), r.transcript).toEqual([...addresses].sort());
    for (const l of lines) expect(l, r.transcript).toMatch(/^0x[0-9a-f]{40} {2}(Tally|Abacus|Vault|Greeting|Hatchery|Hatchling) {2}verified {2}full match$/);
    expect(r.stdout, r.transcript).toContain(`All ${DEPLOYED.length} contracts are verified.`);
    for (const address of addresses) expect((await record(address)).MatchKind, address).toBe('full');

    // Run again: nothing is lost or doubted, every contract still verified.
    const again = await publish(dir, ['--url', `${baseUrl}/api`, '--key', apiKey, '--deployment', RECORD]);
    expect(again.code, again.transcript).toBe(0);
    expect(again.stdout, again.transcript).toContain(`All ${DEPLOYED.length} contracts are verified.`);
  });

  it('a record of another chain is refused before anything is sent', async () => {
    const dir = join(root, 'whole');
    const other = join(dir, 'broadcast', 'other-chain.json');
    const text = JSON.parse(readFileSync(join(dir, RECORD), 'utf8')) as Record<string, unknown>;
    writeFileSync(other, JSON.stringify({ ...text, chain: 11155111 }));
    const mark = proxy.requests.length;
    const r = await publish(dir, ['--url', proxy.apiUrl, '--key', apiKey, '--deployment', 'broadcast/other-chain.json']);
    expect(r.code, r.transcript).toBe(1);
    expect(r.stderr, r.transcript).toContain(
      `solproof: broadcast/other-chain.json is a deployment on chain 11155111, but ${proxy.apiUrl.replace(/\/$/, '')} serves chain 31337: nothing was sent`,
    );
    expect(proxy.requests.slice(mark).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /health']);
  });

  it('without full build-info files it says how to write them, and sends nothing', async () => {
    const dir = await deployedProject('partial', 740_002);
    const mark = proxy.requests.length;
    const r = await publish(dir, ['--url', proxy.apiUrl, '--key', apiKey, '--deployment', RECORD]);
    expect(r.code, r.transcript).toBe(1);
    expect(r.stderr, r.transcript).toMatch(
      /^solproof: out\/build-info: its 1 file\(s\) hold no compiler input \(forge writes full build-info files only with `forge build --build-info`/,
    );
    expect(proxy.requests.length).toBe(mark);
    for (const address of deployedAddresses(dir)) expect((await record(address)).SourceCode).toBe('');
  });

  it('a contract whose code no build holds is named with the reason; the others are verified', async () => {
    const dir = join(root, 'partial');
    // Greeting's source changed after the deployment: the build-info no longer holds its code.
    const greeting = join(dir, 'src', 'Greeting.sol');
    writeFileSync(greeting, readFileSync(greeting, 'utf8').replace('return 740002;', 'return 740902;'));
    await buildInfo(dir);
    const r = await publish(dir, ['--url', baseUrl, '--key', apiKey, '--deployment', RECORD]);
    expect(r.code, r.transcript).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => /^0x[0-9a-f]{40} {2}/.test(l));
    expect(lines, r.transcript).toHaveLength(DEPLOYED.length);
    const failed = lines.filter((l) => !l.includes('  verified  full match'));
    expect(failed, r.transcript).toEqual([
      expect.stringMatching(/^0x[0-9a-f]{40} {2}Greeting {2}not verified {2}no contract of the build-info files has the code deployed here/),
    ]);
    expect(r.stdout, r.transcript).toContain(`1 of ${DEPLOYED.length} contracts are not verified.`);
    for (const address of deployedAddresses(dir)) {
      const rec = await record(address);
      if (failed[0]!.startsWith(address)) expect(rec.SourceCode).toBe('');
      else expect(rec.MatchKind, address).toBe('full');
    }
  });

  it('bad command lines get a clear error', async () => {
    const dir = join(root, 'whole');
    const cases: [string[], string][] = [
      [['--key', apiKey], '--url is required'],
      [['--url', baseUrl, '--key', apiKey, '--deployment', 'broadcast/none.json'], 'the deployment record broadcast/none.json does not exist'],
      [['--url', 'ftp://example', '--key', apiKey], 'is not an http(s) URL'],
    ];
    for (const [args, text] of cases) {
      const r = await publish(dir, args);
      expect(r.code, r.transcript).toBe(1);
      expect(r.stderr, r.transcript).toContain(text);
    }
    copyFileSync(join(dir, 'foundry.toml'), join(dir, 'broadcast', 'not-a-record.json'));
    const r = await publish(dir, ['--url', baseUrl, '--key', apiKey, '--deployment', 'broadcast/not-a-record.json']);
    expect(r.stderr, r.transcript).toContain('is not readable JSON');
  });
});
