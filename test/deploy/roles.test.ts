import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, type Envelope, waitForVerdict } from '../helpers/api.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService } from '../helpers/service.js';
import { createTestDatabase, PG_TEST_URL, type TestDatabase } from '../helpers/testDatabase.js';
import {
  clusterUnavailable,
  type OwnChain,
  REDIS_URL,
  type Relay,
  readiness,
  type Sample,
  scrape,
  startOwnChain,
  startRelay,
  startRole,
  throughRelay,
  total,
  until,
} from './cluster.js';

const unavailable = await clusterUnavailable();

/**
 * Submissions spread over the two API nodes. The figure is 50; each is a real
 * deployment and a real compile, so on two shared cores 50 take a minute or two.
 */
const SUBMISSIONS = Number(process.env.SOLPROOF_DEPLOY_SUBMISSIONS ?? 50);
/** The daily quota leaves room for this many more, so the quota check can run past it. */
const QUOTA_ROOM = 4;
const FREE_RATE = 5;

const source = (i: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Spread${i} { uint256 public constant N = ${i}; function n() external pure returns (uint256) { return N; } }
`;

describe.skipIf(unavailable !== null)('2 api + 2 worker processes on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let chain: OwnChain;
  let pgRelay: Relay;
  let redisRelay: Relay;
  let nodeRelay: Relay;
  let apis: RunningService[] = [];
  let workers: RunningService[] = [];
  let common: { databaseUrl: string; redisUrl: string; rpcUrl: string };
  let workerDir: string;
  let proKey: string;
  let freeKey: string;
  const verified: { address: string; built: Built; name: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    chain = await startOwnChain();
    const pg = new URL(PG_TEST_URL);
    const redis = new URL(REDIS_URL);
    const node = new URL(chain.devnet.rpcUrl);
    [pgRelay, redisRelay, nodeRelay] = await Promise.all([
      startRelay(pg.hostname, Number(pg.port || 5432)),
      startRelay(redis.hostname, Number(redis.port || 6379)),
      startRelay(node.hostname, Number(node.port)),
    ]);
    common = {
      databaseUrl: throughRelay(database.databaseUrl!, pgRelay),
      redisUrl: throughRelay(REDIS_URL, redisRelay),
      rpcUrl: throughRelay(chain.devnet.rpcUrl, nodeRelay),
    };
    // The two workers share one data dir, so one compiler cache on this host.
    workerDir = await newDataDir();
    const apiArgs = [
      '--rate-free',
      String(FREE_RATE),
      '--rate-pro',
      '100000',
      '--key-queued-jobs',
      '0',
      '--daily-verify-quota',
      String(SUBMISSIONS + QUOTA_ROOM),
      '--access-log',
      'true',
    ];
    const workerArgs = ['--job-concurrency', '2', '--compiler-threads', '1', '--follow-poll-ms', '200', '--job-lease-ms', '10000'];
    // All four start at once on an empty schema: their migrations meet under PostgreSQL's lock.
    const started = await Promise.all([
      startRole('api', { ...common, args: apiArgs }),
      startRole('api', { ...common, args: apiArgs }),
      startRole('worker', { ...common, dataDir: workerDir, args: workerArgs }),
      startRole('worker', { ...common, dataDir: workerDir, args: workerArgs }),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
    proKey = await createKey(workerDir, ['--database-url', common.databaseUrl, '--tier', 'pro']);
    freeKey = await createKey(workerDir, ['--database-url', common.databaseUrl]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((s) => s.stop()));
    await Promise.all([pgRelay?.close(), redisRelay?.close(), nodeRelay?.close()]);
    await chain?.devnet.stop();
    await database?.dispose();
  });

  it('migrated once although four processes started at once on an empty schema', async () => {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: database.databaseUrl! });
    await client.connect();
    try {
      const { rows } = await client.query('select name, count(*)::int as n from kysely_migration group by name');
      expect(rows.length).toBeGreaterThanOrEqual(11);
      expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('a worker serves only health and metrics; an API node serves the API', async () => {
    const res = await fetch(`${workers[0]!.baseUrl}/api?module=contract&action=getabi&address=0x0000000000000000000000000000000000000001`);
    expect(res.status).toBe(404);
    expect((await fetch(`${workers[0]!.baseUrl}/health`)).status).toBe(200);
    expect((await readiness(workers[0]!)).status).toBe(200);
    const api = await apiGet(apis[0]!.apiUrl, { module: 'contract', action: 'getabi', address: '0x0000000000000000000000000000000000000001', apikey: proKey });
    expect(api.status).toBe('0');
  });

  it(`${SUBMISSIONS} submissions spread over both API nodes all reach their verdicts, compiled by the workers only; both nodes serve the records`, async () => {
    const submitted: { receipt: string; address: string; at: number }[] = [];
    for (let i = 0; i < SUBMISSIONS; i++) {
      const built = await build('0.8.28', standardInput({ [`S${i}.sol`]: source(i) }), `S${i}.sol`, `Spread${i}`);
      const address = await chain.deploy(built.abi, built.bytecode);
      const at = i % 2;
      const env = await apiPost(apis[at]!.apiUrl, {
        module: 'contract',
        action: 'verifysourcecode',
        apikey: proKey,
        contractaddress: address,
        sourceCode: source(i),
        contractname: `Spread${i}`,
        compilerversion: built.compilerVersion,
      });
      expect(env.status, JSON.stringify(env)).toBe('1');
      submitted.push({ receipt: env.result, address, at });
      verified.push({ address, built, name: `Spread${i}` });
    }
    for (const { receipt, address, at } of submitted) {
      // The verdict and the record are read from the other node than the one submitted to.
      const other = apis[1 - at]!;
      expect((await waitForVerdict(other.apiUrl, receipt, proKey, {}, 300_000)).result).toBe('Pass - Verified');
      for (const api of apis) {
        const record = await apiGet(api.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: proKey });
        expect(record.result[0].ContractName).toMatch(/^Spread\d+$/);
      }
    }
    const [a0, a1, w0, w1] = await Promise.all([...apis, ...workers].map(scrape));
    // API nodes never compile or run jobs; the workers ran every one.
    for (const api of [a0!, a1!]) {
      expect(total(api, 'solproof_compile_duration_seconds_count')).toBe(0);
      expect(total(api, 'solproof_job_duration_seconds_count')).toBe(0);
      expect(total(api, 'solproof_http_requests_total', { action: 'contract.verifysourcecode', status: '200' })).toBeGreaterThanOrEqual(
        Math.floor(SUBMISSIONS / 2),
      );
      expect(total(api, 'solproof_http_requests_total', { action: 'contract.getsourcecode', status: '200' })).toBeGreaterThanOrEqual(SUBMISSIONS);
    }
    expect(
      total(w0!, 'solproof_job_duration_seconds_count', { outcome: 'pass' }) + total(w1!, 'solproof_job_duration_seconds_count', { outcome: 'pass' }),
    ).toBe(SUBMISSIONS);
    expect(total(w0!, 'solproof_compile_duration_seconds_count') + total(w1!, 'solproof_compile_duration_seconds_count')).toBeGreaterThanOrEqual(SUBMISSIONS);
  }, 900_000);

  it('the daily quota holds across both API nodes', async () => {
    const extra = QUOTA_ROOM + 2;
    const fields: Record<string, string>[] = [];
    for (let i = 0; i < extra; i++) {
      const n = 1000 + i;
      const built = await build('0.8.28', standardInput({ [`S${n}.sol`]: source(n) }), `S${n}.sol`, `Spread${n}`);
      const address = await chain.deploy(built.abi, built.bytecode);
      fields.push({
        module: 'contract',
        action: 'verifysourcecode',
        apikey: proKey,
        contractaddress: address,
        sourceCode: source(n),
        contractname: `Spread${n}`,
        compilerversion: built.compilerVersion,
      });
    }
    const answers = await Promise.all(fields.map((f, i) => apiPost(apis[i % 2]!.apiUrl, f)));
    const accepted = answers.filter((a) => a.status === '1');
    const refused = answers.filter((a) => a.status === '0');
    expect(accepted).toHaveLength(QUOTA_ROOM);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.result).toMatch(new RegExp(`^Daily limit of ${SUBMISSIONS + QUOTA_ROOM} source code verifications reached`));
    for (const a of accepted) expect((await waitForVerdict(apis[0]!.apiUrl, a.result, proKey, {}, 120_000)).result).toBe('Pass - Verified');
    const refusals = (await Promise.all(apis.map(scrape))).reduce((sum, s) => sum + total(s, 'solproof_refusals_total', { reason: 'quota' }), 0);
    expect(refusals).toBe(2);
  }, 300_000);

  it("a free key's rate holds across both API nodes (one bucket in Redis)", async () => {
    const address = verified[0]!.address;
    const startedAt = Date.now();
    const answers: Envelope[] = await Promise.all(
      Array.from({ length: 24 }, (_, i) => apiGet(apis[i % 2]!.apiUrl, { module: 'contract', action: 'getabi', address, apikey: freeKey })),
    );
    const span = Date.now() - startedAt;
    const allowed = answers.filter((a) => a.status === '1').length;
    const limited = answers.filter((a) => a.result === 'Max rate limit reached').length;
    expect(allowed + limited).toBe(answers.length);
    // Two buckets of their own would let through 2 × FREE_RATE at once; one shared bucket lets
    // through its burst plus what it refilled while the answers were given.
    expect(allowed).toBeGreaterThanOrEqual(1);
    expect(allowed).toBeLessThanOrEqual(FREE_RATE + Math.ceil((FREE_RATE * span) / 1000) + 1);
    expect(limited).toBeGreaterThan(0);
    const refused = (await Promise.all(apis.map(scrape))).map((s) => total(s, 'solproof_refusals_total', { reason: 'rate_limit' }));
    expect(refused[0]! + refused[1]!).toBe(limited);
  });

  it('exactly one worker follows the chain; when it is killed the other takes over and verifies copies', async () => {
    const leading = async () => {
      const samples = await Promise.all(workers.map(scrape));
      return samples.map((s) => total(s, 'solproof_follower_leading'));
    };
    const first = await until('one follower', async () => {
      const l = await leading();
      return l.filter((x) => x === 1).length === 1 ? l.indexOf(1) : undefined;
    });
    for (let i = 0; i < 5; i++) {
      expect((await leading()).filter((x) => x === 1)).toHaveLength(1);
      await chain.mine(1);
      await new Promise((r) => setTimeout(r, 200));
    }
    // API nodes run no follower.
    for (const api of apis) expect((await scrape(api)).some((s) => s.name === 'solproof_follower_leading')).toBe(false);

    await workers[first]!.kill();
    const survivor = workers[1 - first]!;
    await until('the other follower', async () => (total(await scrape(survivor), 'solproof_follower_leading') === 1 ? true : undefined), 90_000);
    // A copy of a verified contract deployed now is verified by the new follower, with nothing submitted.
    const { built, name } = verified[1]!;
    const copy = await chain.deploy(built.abi, built.bytecode, [], 1);
    // Found by the follower, not by a read (a read of an unverified address looks for copies too).
    await until(
      'the follower to verify the copy',
      async () => (total(await scrape(survivor), 'solproof_similar_matches_total') >= 1 ? true : undefined),
      60_000,
    );
    const record = await until(
      'the copy verified',
      async () => {
        const env = await apiGet(apis[0]!.apiUrl, { module: 'contract', action: 'getsourcecode', address: copy, apikey: proKey });
        return env.result[0]?.ContractName === name ? env : undefined;
      },
      60_000,
    );
    expect(record.result[0].SimilarMatch).toBe(verified[1]!.address);
    // A replacement worker joins without taking the lease from the one following.
    workers[first] = await startRole('worker', { ...common, dataDir: workerDir, args: ['--follow-poll-ms', '200'] });
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 300));
      expect(await leading()).toEqual(first === 0 ? [0, 1] : [1, 0]);
    }
  }, 180_000);

  it('SIGTERM of the worker that follows the chain gives its lease up at once; another worker follows on', async () => {
    const leaderIndex = await until('one follower', async () => {
      const l = await Promise.all(workers.map(async (w) => total(await scrape(w), 'solproof_follower_leading')));
      return l.filter((x) => x === 1).length === 1 ? l.indexOf(1) : undefined;
    });
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: database.databaseUrl! });
    await client.connect();
    try {
      const lease = async () => (await client.query<{ value: string }>("select value from chain_state where name = 'follower.lease'")).rows[0]?.value ?? null;
      const held = JSON.parse((await lease())!) as { holder: string; until: number };
      await workers[leaderIndex]!.stop();
      expect(workers[leaderIndex]!.process.exitCode).toBe(0);
      // Right after the exit, well before the lease would have lapsed: given up, or already another's.
      const after = await lease();
      expect(after === null || (JSON.parse(after) as { holder: string }).holder !== held.holder).toBe(true);
      const other = workers[1 - leaderIndex]!;
      await until('the other worker to follow', async () => (total(await scrape(other), 'solproof_follower_leading') === 1 ? true : undefined), 60_000);
    } finally {
      await client.end();
    }
    workers[leaderIndex] = await startRole('worker', { ...common, dataDir: workerDir, args: ['--follow-poll-ms', '200'] });
  }, 120_000);

  it('/metrics parses as Prometheus text and its counters move with requests', async () => {
    const api = apis[1]!;
    const before: Sample[] = await scrape(api);
    const getabi = { action: 'contract.getabi', status: '200' };
    await apiGet(api.apiUrl, { module: 'contract', action: 'getabi', address: verified[2]!.address, apikey: proKey });
    const after = await scrape(api);
    expect(total(after, 'solproof_http_requests_total', getabi) - total(before, 'solproof_http_requests_total', getabi)).toBe(1);
    expect(total(after, 'solproof_http_request_duration_seconds_count', getabi)).toBe(total(after, 'solproof_http_requests_total', getabi));
    // Node's own metrics and the queue's gauges are there.
    expect(after.some((s) => s.name === 'solproof_process_cpu_user_seconds_total')).toBe(true);
    expect(total(after, 'solproof_queue_jobs', { state: 'pass' })).toBeGreaterThanOrEqual(SUBMISSIONS);
    expect(after.find((s) => s.name === 'solproof_queue_oldest_job_age_seconds')).toBeDefined();
    expect(after.every((s) => s.labels.role === 'api')).toBe(true);
  });

  it('the access log names method, route, status, time and the key id, never the key', async () => {
    const api = apis[0]!;
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: database.databaseUrl! });
    await client.connect();
    const proKeyId = (await client.query<{ id: string }>("select id from api_keys where tier = 'pro'").finally(() => client.end())).rows[0]!.id;
    // The only getabi this node answers with the pro key.
    await apiGet(api.apiUrl, { module: 'contract', action: 'getabi', address: verified[3]!.address, apikey: proKey });
    const line = await until('the access log line of this request', async () => {
      const found = api
        .output()
        .split('\n')
        .find((l) => l.includes('"log":"access"') && l.includes('"action":"contract.getabi"') && l.includes(proKeyId));
      return found ? (JSON.parse(found) as Record<string, unknown>) : undefined;
    });
    expect(line).toMatchObject({ method: 'GET', route: '/api', status: 200, keyId: proKeyId });
    expect(typeof line.ms).toBe('number');
    expect(api.output()).not.toContain(proKey);
  });

  for (const dependency of ['store', 'node', 'redis'] as const) {
    it(`/health/ready fails while the ${dependency} is out of reach and recovers; /health stays up`, async () => {
      const relay = { store: pgRelay, node: nodeRelay, redis: redisRelay }[dependency];
      // Ready first (each check has 2 s: on a loaded machine one may miss it now and then).
      for (const service of [apis[0]!, workers[0]!])
        await until('ready before the cut', async () => ((await readiness(service)).status === 200 ? true : undefined));
      await relay.cut();
      try {
        for (const service of [apis[0]!, workers[0]!]) {
          const down = await until(`not ready without the ${dependency}`, async () => {
            const r = await readiness(service);
            return r.status === 503 ? r : undefined;
          });
          expect(down.body.status).toBe('unready');
          expect(down.body.checks[dependency]!.ok).toBe(false);
          expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
        }
      } finally {
        await relay.restore();
      }
      for (const service of [apis[0]!, workers[0]!]) {
        const up = await until(`ready again with the ${dependency}`, async () => {
          const r = await readiness(service);
          return r.status === 200 ? r : undefined;
        });
        expect(up.body.checks[dependency]!.ok).toBe(true);
      }
    }, 120_000);
  }
});
