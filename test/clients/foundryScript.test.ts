import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { DEPLOYED, deployedAddresses, FORGE, type ForgeRun, foundryEnv, runFoundry, writeDeployProject } from './foundry/deployProject.js';
import { installSolcForForge } from './foundry/offlineSolc.js';
import { type ReleaseListStandIn, startReleaseListStandIn } from './foundry/releaseListStandIn.js';
import { type RecordedRequest, type RecordingProxy, startRecordingProxy } from './recordingProxy.js';

/*
 * Whole deployments, as users verify them with Foundry 1.7.1: `forge script … --broadcast
 * --verify` with the Etherscan verifier (`/api`) and the Sourcify one (`/sourcify/`), and
 * `--resume --verify` of a deployment broadcast earlier (here through Etherscan's V2 path,
 * `/v2/api?chainid=31337`). The script (./foundry/deployProject.ts) deploys six contracts: a
 * library forge links, a CREATE2 contract, one with constructor arguments, a factory and the
 * child it creates inside a script call.
 *
 * Offline as in foundry.test.ts (a solc-js stand-in in a private HOME's .svm), and one more
 * thing: forge knows the compiler of a script's contracts only as `0.8.28` and looks its
 * commit up in binaries.soliditylang.org/bin/list.txt, which a local stand-in serves
 * (./foundry/releaseListStandIn.ts). A recording proxy in front of the service shows what
 * forge asked and what it was answered.
 */

const ACCOUNT = deployerAccount('clients/foundryScript');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const RPC_URL = inject('rpcUrl');
const { baseUrl, apiUrl, apiKey } = sharedService();

const fieldsOf = (r: RecordedRequest): Record<string, string> => ({ ...r.query, ...r.form });

describe('forge script --broadcast --verify: whole deployments (forge 1.7.1)', () => {
  let root: string;
  let home: string;
  let proxy: RecordingProxy;
  let releases: ReleaseListStandIn;
  /** The service's origin through the recording proxy. */
  let origin: string;

  const forge = (project: string, ...args: string[]): Promise<ForgeRun> =>
    runFoundry(FORGE, args, { cwd: project, env: foundryEnv(home, { ...releases.env, SOLPROOF_API_KEY: apiKey }) });

  function project(name: string, options: Parameters<typeof writeDeployProject>[1]): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeDeployProject(dir, options);
    return dir;
  }

  const script = (dir: string, ...extra: string[]) =>
    forge(dir, 'script', 'script/Deploy.s.sol:Deploy', '--rpc-url', RPC_URL, '--private-key', PRIVATE_KEY, '--broadcast', ...extra);

  async function record(address: string): Promise<Record<string, string>> {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.status).toBe('1');
    return env.result[0] as Record<string, string>;
  }

  /** Every contract of the deployment is verified with a full match, under its own name. */
  async function expectAllVerified(dir: string): Promise<string[]> {
    const addresses = deployedAddresses(dir);
    expect(addresses).toHaveLength(DEPLOYED.length);
    const names: string[] = [];
    for (const address of addresses) {
      const rec = await record(address);
      expect(rec.MatchKind, `${address} ${rec.ContractName}`).toBe('full');
      names.push(rec.ContractName!);
    }
    expect(names.sort()).toEqual([...DEPLOYED].sort());
    return addresses;
  }

  /** The status answers forge read for each receipt, in order. */
  function statusAnswers(since: number): Map<string, unknown[]> {
    const byReceipt = new Map<string, unknown[]>();
    for (const r of proxy.requests.slice(since)) {
      const f = fieldsOf(r);
      const etherscan = f.action === 'checkverifystatus' ? f.guid : undefined;
      const sourcify = /^\/sourcify\/v2\/verify\/([a-z0-9]{50})$/.exec(r.path)?.[1];
      const receipt = etherscan ?? sourcify;
      if (!receipt) continue;
      byReceipt.set(receipt, [...(byReceipt.get(receipt) ?? []), r.answer]);
    }
    return byReceipt;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-forge-script-'));
    home = join(root, 'home');
    await installSolcForForge(home, '0.8.28');
    proxy = await startRecordingProxy(`${baseUrl}/`);
    origin = proxy.apiUrl.replace(/\/$/, '');
    releases = await startReleaseListStandIn();
  });

  afterAll(async () => {
    await proxy?.close();
    await releases?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('with the Etherscan verifier (--verifier-url <base>/api): all six verified, each verdict read at the first status check', async () => {
    const dir = project('etherscan', { flavour: 710_001, etherscanUrl: `${origin}/api` });
    const mark = proxy.requests.length;
    const run = await script(dir, '--verify', '--verifier-url', `${origin}/api`);
    expect(run.code, run.transcript).toBe(0);
    expect(run.stdout, run.transcript).toContain(`All (${DEPLOYED.length}) contracts were verified!`);
    // forge sleeps 15 s after a `Pending in queue`: it never had to.
    expect(run.stdout + run.stderr, run.transcript).not.toContain('Verification is still pending');
    const answers = statusAnswers(mark);
    expect(answers.size, run.transcript).toBe(DEPLOYED.length);
    for (const [receipt, seen] of answers) expect(seen, receipt).toEqual([expect.objectContaining({ status: '1', result: 'Pass - Verified' })]);
    // The commit came from the release list's stand-in. The only other host forge asked for is
    // sourcify.dev, to name the contracts of its traces (foundry's ExternalIdentifier, 1 s
    // timeout, never fatal), which the stand-in refuses: nothing left the machine.
    expect(
      releases.connects.filter((c) => c !== 'sourcify.dev:443'),
      run.transcript,
    ).toEqual(releases.connects.filter((c) => c.startsWith('binaries.')));
    expect(releases.paths).toContain('/bin/list.txt');

    const addresses = await expectAllVerified(dir);
    // The library forge linked is named in the record of the contract that calls it.
    const abacus = (await Promise.all(addresses.map(record))).find((r) => r.ContractName === 'Abacus')!;
    expect(abacus.Library).toMatch(/^Tally:0x[0-9a-f]{40}$/);
    expect(addresses).toContain(abacus.Library!.split(':')[1]);
  });

  it('with the Sourcify verifier (<base>/sourcify/): all six verified, each verdict read at the first status check', async () => {
    // No [etherscan] entry: with one, forge takes the Etherscan verifier whatever --verifier says.
    const dir = project('sourcify', { flavour: 710_002 });
    const mark = proxy.requests.length;
    const run = await script(dir, '--verify', '--verifier', 'sourcify', '--verifier-url', `${origin}/sourcify/`);
    expect(run.code, run.transcript).toBe(0);
    expect(run.stdout, run.transcript).toContain(`All (${DEPLOYED.length}) contracts were verified!`);
    expect(run.stdout + run.stderr, run.transcript).not.toContain('Verification is still pending');
    const answers = statusAnswers(mark);
    expect(answers.size, run.transcript).toBe(DEPLOYED.length);
    for (const [receipt, seen] of answers) {
      expect(seen, receipt).toEqual([expect.objectContaining({ isJobCompleted: true, contract: expect.objectContaining({ match: 'exact_match' }) })]);
    }
    await expectAllVerified(dir);
  });

  it('--resume --verify, through Etherscan V2 (/v2/api?chainid=31337), verifies a deployment broadcast earlier without --verify', async () => {
    const v2 = `${origin}/v2/api?chainid=31337`;
    const dir = project('resume', { flavour: 710_003, etherscanUrl: v2 });
    const deployed = await script(dir);
    expect(deployed.code, deployed.transcript).toBe(0);
    for (const address of deployedAddresses(dir)) expect((await record(address)).MatchKind ?? '', address).not.toBe('full');

    const mark = proxy.requests.length;
    const resumed = await script(dir, '--resume', '--verify', '--verifier-url', v2);
    expect(resumed.code, resumed.transcript).toBe(0);
    expect(resumed.stdout, resumed.transcript).toContain(`All (${DEPLOYED.length}) contracts were verified!`);
    // Every request went to the V2 path, with the chain id, and was answered as /api answers.
    const sent = proxy.requests.slice(mark);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      expect(r.path).toBe('/v2/api');
      expect(r.query.chainid).toBe('31337');
    }
    await expectAllVerified(dir);
  });
});
