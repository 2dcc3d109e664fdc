import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, waitForVerdict } from '../helpers/api.js';
import { build, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';
import {
  clusterUnavailable,
  type HoldingRelay,
  type OwnChain,
  REDIS_URL,
  readiness,
  scrape,
  startHoldingRelay,
  startOwnChain,
  startRole,
  total,
  until,
} from './cluster.js';

const unavailable = await clusterUnavailable();

const source = (i: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Drained${i} { uint256 public constant N = ${i}; function n() external pure returns (uint256) { return N; } }
`;

describe.skipIf(unavailable !== null)('workers that die or drain: jobs are finished or handed on, never lost or run twice', () => {
  let database: TestDatabase;
  let chain: OwnChain;
  let relay: HoldingRelay;
  let api: RunningService;
  let sql: pg.Client;
  let key: string;
  let workerDir: string;
  const running: RunningService[] = [];
  let next = 0;

  const worker = async (args: string[]) => {
    const w = await startRole('worker', {
      databaseUrl: database.databaseUrl!,
      redisUrl: REDIS_URL,
      rpcUrl: relay.url,
      dataDir: workerDir,
      args: ['--follow-chain', 'false', '--job-concurrency', '1', '--compiler-threads', '1', ...args],
    });
    running.push(w);
    return w;
  };

  /** Deploys a fresh contract and submits it through the API node; returns the receipt and address. */
  const submit = async () => {
    const i = next++;
    const built = await build('0.8.28', standardInput({ [`D${i}.sol`]: source(i) }), `D${i}.sol`, `Drained${i}`);
    const address = await chain.deploy(built.abi, built.bytecode);
    const env = await apiPost(api.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: address,
      sourceCode: source(i),
      contractname: `Drained${i}`,
      compilerversion: built.compilerVersion,
    });
    expect(env.status, JSON.stringify(env)).toBe('1');
    return { receipt: env.result as string, address };
  };

  const job = async (receipt: string) =>
    (
      await sql.query<{ state: string; lease_owner: string | null; lease_until: string | null; attempts: number }>(
        'select state, lease_owner, lease_until, attempts from verification_jobs where receipt = $1',
        [receipt],
      )
    ).rows[0]!;

  /** Waits until the job runs and its worker is held in the middle of it; returns the worker. */
  const heldRunning = async (receipt: string) => {
    const owner = await until('the job running', async () => {
      const row = await job(receipt);
      return row.state === 'running' && relay.held > 0 ? row.lease_owner! : undefined;
    });
    const pid = Number(/^solproof-(\d+)-/.exec(owner)?.[1]);
    const w = running.find((r) => r.process.pid === pid);
    if (!w) throw new Error(`no worker of this test holds the job (${owner})`);
    return w;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    chain = await startOwnChain();
    relay = await startHoldingRelay(chain.devnet.rpcUrl);
    workerDir = await newDataDir();
    api = await startRole('api', { databaseUrl: database.databaseUrl!, redisUrl: REDIS_URL, rpcUrl: chain.devnet.rpcUrl, args: ['--rate-free', '1000'] });
    key = await createKey(workerDir, ['--database-url', database.databaseUrl!]);
    sql = new pg.Client({ connectionString: database.databaseUrl! });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    relay?.release();
    await Promise.all([api, ...running].filter(Boolean).map((s) => s.stop()));
    await sql?.end();
    await relay?.close();
    await chain?.devnet.stop();
    await database?.dispose();
  });

  it('kill -9 of a worker in the middle of a job: the other finishes it, verified once', async () => {
    const args = ['--job-lease-ms', '3000'];
    const [w1, w2] = await Promise.all([worker(args), worker(args)]);
    relay.hold();
    const { receipt, address } = await submit();
    const victim = await heldRunning(receipt);
    await victim.kill();
    relay.release();
    expect((await waitForVerdict(api.apiUrl, receipt, key, {}, 120_000)).result).toBe('Pass - Verified');
    const row = await job(receipt);
    expect(row.state).toBe('pass');
    expect(row.attempts).toBe(2);
    const records = await sql.query('select count(*)::int as n from verified_contracts where address = $1', [address]);
    expect(records.rows[0].n).toBe(1);
    const survivor = victim === w1 ? w2 : w1;
    expect(total(await scrape(survivor), 'solproof_job_duration_seconds_count', { outcome: 'pass' })).toBe(1);
    await survivor.stop();
  }, 180_000);

  it('SIGTERM with a job running past the grace period: the job is released at once, not after its lease', async () => {
    // A lease of ten minutes: nothing in this test can wait for it to lapse.
    const w = await worker(['--drain-seconds', '1', '--job-lease-ms', '600000']);
    relay.hold();
    const { receipt, address } = await submit();
    expect(await heldRunning(receipt)).toBe(w);
    await w.stop();
    expect(w.process.exitCode).toBe(0);
    const released = await job(receipt);
    expect(released).toMatchObject({ state: 'queued', lease_owner: null, lease_until: null, attempts: 0 });
    relay.release();
    // Another worker takes it at once and finishes it.
    const other = await worker(['--job-lease-ms', '600000']);
    expect((await waitForVerdict(api.apiUrl, receipt, key, {}, 120_000)).result).toBe('Pass - Verified');
    expect((await job(receipt)).attempts).toBe(1);
    const records = await sql.query('select count(*)::int as n from verified_contracts where address = $1', [address]);
    expect(records.rows[0].n).toBe(1);
    await other.stop();
  }, 180_000);

  it('SIGTERM with a job running: the worker stops claiming, says it is draining, finishes the job within the grace period and exits', async () => {
    const w = await worker(['--drain-seconds', '120', '--job-lease-ms', '600000']);
    relay.hold();
    const first = await submit();
    expect(await heldRunning(first.receipt)).toBe(w);
    const exited = new Promise<number | null>((resolve) => w.process.once('exit', (code) => resolve(code)));
    w.process.kill('SIGTERM');
    const draining = await until('draining', async () => {
      const r = await readiness(w);
      return r.status === 503 ? r.body : undefined;
    });
    expect(draining.status).toBe('draining');
    // Submitted while it drains: not claimed by it.
    const second = await submit();
    relay.release();
    expect(await exited).toBe(0);
    expect(await job(first.receipt)).toMatchObject({ state: 'pass', attempts: 1 });
    expect(await job(second.receipt)).toMatchObject({ state: 'queued', attempts: 0 });
    // The next worker finishes what was left.
    await worker([]);
    expect((await waitForVerdict(api.apiUrl, second.receipt, key, {}, 120_000)).result).toBe('Pass - Verified');
  }, 240_000);
});
