/**
 * Scale-out: 2 API nodes and 2 workers on PostgreSQL and Redis. One key's jobs take every job
 * slot of the cluster while nobody else waits; another key's job goes first when it arrives; a
 * worker killed mid-job leaves its jobs to the other once their lease lapses; every job passes,
 * once. The workers poll once an hour: every claim here comes from a submission's wake-up or
 * from a lease lapsing, never from a poll.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, waitForVerdict } from '../helpers/api.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';
import {
  clusterUnavailable,
  type HoldingRelay,
  type OwnChain,
  REDIS_URL,
  scrape,
  startHoldingRelay,
  startOwnChain,
  startRole,
  total,
  until,
} from './cluster.js';

const unavailable = await clusterUnavailable();

/** Submissions of the key that has many. */
const MANY = 12;
/** Job slots per worker; two workers. */
const SLOTS = 2;
/** Short, so the test waits little for the dead worker's leases to lapse. */
const LEASE_MS = 3000;

const source = (i: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Scaled${i} { uint256 public constant N = ${i}; function n() external pure returns (uint256) { return N; } }
`;

interface Submitted {
  receipt: string;
  address: string;
}

describe.skipIf(unavailable !== null)('scale-out: a key uses the whole cluster, others go first, a killed worker stalls nobody', () => {
  let database: TestDatabase;
  let chain: OwnChain;
  let relay: HoldingRelay;
  let sql: pg.Client;
  let apis: RunningService[] = [];
  let workers: RunningService[] = [];
  let keyA: string;
  let keyB: string;
  const built: { address: string; built: Built; name: string; source: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    chain = await startOwnChain();
    // Workers read the chain through a relay that can hold a job in the middle (at its eth_getCode).
    relay = await startHoldingRelay(chain.devnet.rpcUrl);
    const workerDir = await newDataDir();
    const common = { databaseUrl: database.databaseUrl!, redisUrl: REDIS_URL };
    const apiArgs = ['--rate-free', '100000'];
    const workerArgs = [
      '--job-concurrency',
      String(SLOTS),
      '--compiler-threads',
      '1',
      '--follow-chain',
      'false',
      '--job-lease-ms',
      String(LEASE_MS),
      '--job-poll-ms',
      '3600000',
    ];
    const started = await Promise.all([
      startRole('api', { ...common, rpcUrl: chain.devnet.rpcUrl, args: apiArgs }),
      startRole('api', { ...common, rpcUrl: chain.devnet.rpcUrl, args: apiArgs }),
      startRole('worker', { ...common, rpcUrl: relay.url, dataDir: workerDir, args: workerArgs }),
      startRole('worker', { ...common, rpcUrl: relay.url, dataDir: workerDir, args: workerArgs }),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
    [keyA, keyB] = await Promise.all([
      createKey(workerDir, ['--database-url', common.databaseUrl]),
      createKey(workerDir, ['--database-url', common.databaseUrl]),
    ]);
    sql = new pg.Client({ connectionString: database.databaseUrl! });
    await sql.connect();
    for (let i = 0; i <= MANY; i++) {
      const b = await build('0.8.28', standardInput({ [`S${i}.sol`]: source(i) }), `S${i}.sol`, `Scaled${i}`);
      built.push({ address: await chain.deploy(b.abi, b.bytecode), built: b, name: `Scaled${i}`, source: source(i) });
    }
  }, 300_000);

  afterAll(async () => {
    relay?.release();
    await Promise.all([...apis, ...workers].map((s) => s.stop()));
    await sql?.end();
    await relay?.close();
    await chain?.devnet.stop();
    await database?.dispose();
  });

  const submit = async (i: number, key: string): Promise<Submitted> => {
    const { address, built: b, name, source: text } = built[i]!;
    const env = await apiPost(apis[i % 2]!.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: address,
      sourceCode: text,
      contractname: name,
      compilerversion: b.compilerVersion,
    });
    expect(env.status, JSON.stringify(env)).toBe('1');
    return { receipt: env.result as string, address };
  };

  const jobs = async (receipts: string[]) =>
    (
      await sql.query<{ receipt: string; state: string; lease_owner: string | null; attempts: number }>(
        'select receipt, state, lease_owner, attempts from verification_jobs where receipt = any($1)',
        [receipts],
      )
    ).rows;
  const inState = async (receipts: string[], state: string) => (await jobs(receipts)).filter((j) => j.state === state);

  it(`${MANY} jobs of one key fill all ${2 * SLOTS} slots; another key's job runs at once; kill -9 of a worker mid-job; every job passes once`, async () => {
    relay.hold();
    const many: Submitted[] = [];
    for (let i = 0; i < MANY; i++) many.push(await submit(i, keyA));
    const receiptsA = many.map((s) => s.receipt);

    // Nobody else waits: the key's jobs hold every slot of both workers, past its share (one).
    await until('every slot running a job of the key', async () =>
      (await inState(receiptsA, 'running')).length === 2 * SLOTS && relay.held >= 2 * SLOTS ? true : undefined,
    );
    const owners = new Set((await inState(receiptsA, 'running')).map((j) => j.lease_owner));
    expect(owners.size).toBe(2);
    expect(await inState(receiptsA, 'queued')).toHaveLength(MANY - 2 * SLOTS);

    // Another key's job arrives: it runs at once, before any of the first key's waiting jobs, in
    // the place of one of that key's jobs over its share, which goes back to the queue unspent.
    const other = await submit(MANY, keyB);
    const putBack = await until('the other key running, one job of the first key put back', async () => {
      const [b] = await jobs([other.receipt]);
      const running = await inState(receiptsA, 'running');
      const queued = await inState(receiptsA, 'queued');
      return b?.state === 'running' && running.length === 2 * SLOTS - 1 && queued.length === MANY - 2 * SLOTS + 1 ? queued : undefined;
    });
    expect(putBack.every((j) => j.attempts === 0)).toBe(true);

    // kill -9 of a worker in the middle of its jobs.
    const victim = workers[0]!;
    const victimOwner = new RegExp(`^solproof-${victim.process.pid}-`);
    const orphaned = (await jobs([...receiptsA, other.receipt])).filter((j) => j.state === 'running' && victimOwner.test(j.lease_owner ?? ''));
    expect(orphaned.length).toBeGreaterThan(0);
    await victim.kill();
    relay.release();

    const all = [...many, other];
    for (const [i, s] of all.entries()) {
      const key = s === other ? keyB : keyA;
      expect((await waitForVerdict(apis[i % 2]!.apiUrl, s.receipt, key, {}, 300_000)).result).toBe('Pass - Verified');
    }
    const final = await jobs(all.map((s) => s.receipt));
    expect(final.every((j) => j.state === 'pass')).toBe(true);
    // The dead worker's jobs were run again by the other: their second attempt.
    for (const o of orphaned) expect(final.find((j) => j.receipt === o.receipt)?.attempts).toBe(2);
    // One verdict each: every record written once, by its own job, none replaced.
    const records = await sql.query<{ address: string; receipt: string }>('select address, receipt from verified_contracts where address = any($1)', [
      all.map((s) => s.address),
    ]);
    expect(new Map(records.rows.map((r) => [r.address, r.receipt]))).toEqual(new Map(all.map((s) => [s.address, s.receipt])));
    const history = await sql.query('select count(*)::int as n from verification_history where address = any($1)', [all.map((s) => s.address)]);
    expect(history.rows[0].n).toBe(0);
    expect(total(await scrape(workers[1]!), 'solproof_job_duration_seconds_count', { outcome: 'pass' })).toBe(all.length);
  }, 600_000);
});
