import { randomInt } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { probeRedis } from '../../src/limits/redisRateLimits.js';
import type { Envelope } from '../helpers/api.js';
import { available } from '../helpers/requirements.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, probePostgres, type TestDatabase } from '../helpers/testDatabase.js';
import { timed, tooClose } from '../helpers/timedAnswers.js';

const REDIS_URL = process.env.SOLPROOF_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ZERO = '0x0000000000000000000000000000000000000000';
const KEYLESS_NOTE = 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied';
const MAX_RATE_KEYLESS = 'Max rate limit reached, please use API Key for higher rate limit';
const MAX_RATE_KEYED = 'Max rate limit reached';
const TOO_MANY_INVALID = 'Too many invalid api key attempts, please try again later';
const FAILING_OPEN = 'Redis is unavailable: rate limits are not enforced until it is back (failing open)';

const [pgUnavailable, redisUnavailable] = await Promise.all([probePostgres(), probeRedis(REDIS_URL)]);
const skipReason = [pgUnavailable && `no PostgreSQL (${pgUnavailable})`, redisUnavailable && `no Redis at ${REDIS_URL} (${redisUnavailable})`]
  .filter(Boolean)
  .join(', ');
available('postgres', pgUnavailable);
available('redis', redisUnavailable && `no Redis at ${REDIS_URL} (${redisUnavailable})`);

/** What a token bucket of `rate` (full at the start) can grant during a burst lasting `ms`. */
const refillBound = (rate: number, ms: number) => rate + Math.ceil((rate * ms) / 1000) + 1;

/**
 * A client address of this run's own: the services trust 127.0.0.1 as a proxy, so each test
 * speaks for a fresh address and never meets limits left in the shared Redis by another run.
 */
const freshClient = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

async function read(service: RunningService, client: string, params: Record<string, string> = {}): Promise<Envelope> {
  const url = new URL(service.apiUrl);
  for (const [k, v] of Object.entries({ module: 'contract', action: 'getsourcecode', address: ZERO, ...params })) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { 'x-forwarded-for': client } });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}

/** A TCP relay to Redis that can be cut, to take Redis away from one process only. */
async function startRelay(target: URL): Promise<{ url: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe.skipIf(skipReason !== '')('scaled mode: two service processes, one PostgreSQL, one Redis', () => {
  let database: TestDatabase;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let a: RunningService;
  let b: RunningService;
  let free: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    relay = await startRelay(new URL(REDIS_URL));
    const rpcUrl = inject('rpcUrl');
    const common = ['--database-url', database.databaseUrl!, '--trusted-proxies', '127.0.0.1'];
    // B reaches the same Redis through a relay, so the last test can take Redis away from B alone.
    [a, b] = await Promise.all([
      startService({ rpcUrl, args: [...common, '--redis-url', REDIS_URL] }),
      startService({ rpcUrl, dataDir: await newDataDir(), args: [...common, '--redis-url', relay.url] }),
    ]);
    free = await createKey(a.dataDir, ['--database-url', database.databaseUrl!, '--tier', 'free']);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await relay?.cut();
    await database?.dispose();
  });

  it('a keyless burst spread over both processes: the keyless note once, then the rate-limit text from either', async () => {
    const client = freshClient();
    const first = await timed(() => read(a, client));
    const rest = await Promise.all(Array.from({ length: 8 }, (_, i) => timed(() => read(i % 2 ? a : b, client))));
    expect(first.answer).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    // The rest are refused by either process, unless 5 s had passed since the last read let through.
    const reads = [first, ...rest];
    const letThrough = reads.filter((r) => r.answer.status === '1');
    for (const r of letThrough) expect(r.answer).toMatchObject({ message: KEYLESS_NOTE });
    for (const r of reads.filter((r) => r.answer.status !== '1')) expect(r.answer).toEqual({ status: '0', message: 'NOTOK', result: MAX_RATE_KEYLESS });
    expect(tooClose(letThrough, 5000)).toEqual([]);
  });

  it('a free key bursting over both processes gets about 5 requests in total, not 5 from each', async () => {
    const client = freshClient();
    const t0 = Date.now();
    const targets = Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b));
    const burst = await Promise.all(targets.map((s) => read(s, client, { apikey: free })));
    const elapsed = Date.now() - t0;
    const accepted = burst.filter((e) => e.status === '1' && e.message === 'OK').length;
    const refused = burst.map((e, i) => ({ e, s: targets[i] })).filter(({ e }) => e.status === '0' && e.result === MAX_RATE_KEYED);
    console.log(`free key burst of 30 over two processes: ${accepted} accepted in ${elapsed} ms`);
    expect(accepted).toBeGreaterThanOrEqual(5);
    expect(accepted).toBeLessThanOrEqual(refillBound(5, elapsed));
    expect(refused).toHaveLength(30 - accepted);
    // Both processes refused part of it: each enforces the one shared bucket.
    expect(refused.some(({ s }) => s === a)).toBe(true);
    expect(refused.some(({ s }) => s === b)).toBe(true);
  });

  it('invalid keys sent to both processes add up to one cool-down, which both enforce', async () => {
    const client = freshClient();
    const attempts: Envelope[] = [];
    for (let i = 0; i < 10; i++) attempts.push(await read(i % 2 ? a : b, client, { apikey: `WRONGKEY${i}` }));
    // Before the cool-down an invalid key reads like no key at all.
    expect(attempts[0]).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    expect(attempts.slice(1, 9).map((e) => e.result)).toEqual(Array(8).fill(MAX_RATE_KEYLESS));
    expect(attempts[9]).toEqual({ status: '0', message: 'NOTOK', result: TOO_MANY_INVALID });
    expect(await read(a, client, { apikey: 'WRONGKEYAGAIN' })).toMatchObject({ result: TOO_MANY_INVALID });
    expect(await read(b, client, { apikey: 'WRONGKEYAGAIN2' })).toMatchObject({ result: TOO_MANY_INVALID });
    // Only the failures are locked out: a valid key from the same client is served by both
    // (once the key's own bucket, emptied by the burst above, has tokens again).
    await new Promise((r) => setTimeout(r, 1100));
    expect(await read(a, client, { apikey: free })).toMatchObject({ status: '1', message: 'OK' });
    expect(await read(b, client, { apikey: free })).toMatchObject({ status: '1', message: 'OK' });
  });

  it('Redis gone from one process: it keeps answering and allows (fails open) with one warning; the other still enforces', async () => {
    await relay.cut();
    const client = freshClient();
    const answers: Envelope[] = [];
    for (let i = 0; i < 5; i++) answers.push(await read(b, client));
    for (const env of answers) expect(env).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    expect(await read(a, client)).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    expect(await read(a, client)).toMatchObject({ status: '0', result: MAX_RATE_KEYLESS });
    expect(b.process.exitCode).toBeNull();
    expect((await b.outputWith(FAILING_OPEN)).split(FAILING_OPEN).length - 1).toBe(1);
  });
});

describe('--redis-url pointing at no Redis', () => {
  it('start fails with a message naming the URL', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const url = `redis://127.0.0.1:${port}`;
    const error = await startService({ rpcUrl: inject('rpcUrl'), seedCompilers: false, args: ['--redis-url', url] }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    // startService's error carries the process's output: the exit code and what it printed.
    expect((error as Error).message).toMatch(/^service exited with 1:/);
    expect((error as Error).message).toContain(`solproof: cannot reach Redis at ${url} (--redis-url, REDIS_URL): ECONNREFUSED`);
  });
});
