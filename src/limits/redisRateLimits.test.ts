import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { available } from '../../test/helpers/requirements.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rateLimits.js';
import { connectRedisRateLimitStore, probeRedis } from './redisRateLimits.js';

const REDIS_URL = process.env.SOLPROOF_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const probed = await probeRedis(REDIS_URL);
const unavailable = available('redis', probed && `no Redis at ${REDIS_URL} (${probed})`) ? null : probed;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What a full bucket of `rate` can grant during `ms`. */
const refillBound = (rate: number, ms: number) => rate + Math.ceil((rate * ms) / 1000) + 1;
const POLICY = { threshold: 3, windowMs: 2000, coolDownMs: 400 };

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

function captureLogger(): { logger: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info', base: null }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

/** A key prefix of its own, so runs and tests sharing one Redis never see each other's limits. */
const newPrefix = () => `solproof-test:${randomUUID()}:`;

const opened: RateLimitStore[] = [];
async function openRedis(prefix: string, url = REDIS_URL, extra: { commandTimeoutMs?: number } = {}) {
  const { logger, lines } = captureLogger();
  const store = await connectRedisRateLimitStore({ url, logger, keyPrefix: prefix, ...extra });
  opened.push(store);
  return { store, lines };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A TCP relay in front of the real Redis that can be cut (connections refused) or made to hang. */
interface Relay {
  url: string;
  hang: boolean;
  cut(): Promise<void>;
  restore(): Promise<void>;
}

async function startRelay(target: URL): Promise<Relay> {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const relay: Relay = {
    url: '',
    hang: false,
    cut: async () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise<void>((r) => server.close(() => r()));
    },
    restore: () => listen(),
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname);
        sockets.add(client).add(upstream);
        client.on('data', (d) => void (relay.hang || upstream.write(d)));
        upstream.on('data', (d) => void (relay.hang || client.write(d)));
        for (const [a, b] of [
          [client, upstream],
          [upstream, client],
        ] as const) {
          a.on('error', () => b.destroy());
          a.on('close', () => b.destroy());
        }
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  relay.url = `redis://127.0.0.1:${port}`;
  return relay;
}

const kinds = [
  { kind: 'memory', open: async (): Promise<RateLimitStore> => new MemoryRateLimitStore() },
  { kind: 'redis', open: async (): Promise<RateLimitStore> => (await openRedis(newPrefix())).store },
].filter((k) => k.kind === 'memory' || unavailable === null);

describe.each(kinds)('the $kind store: the limits AccessControl relies on', ({ open }) => {
  it('an interval admits one request per client, then the next once it has passed', async () => {
    const store = await open();
    expect(await store.takeInterval('keyless', '192.0.2.1', 300)).toBe(true);
    expect(await store.takeInterval('keyless', '192.0.2.1', 300)).toBe(false);
    expect(await store.takeInterval('keyless', '192.0.2.2', 300)).toBe(true);
    // Another limiter with the same client is a separate count.
    expect(await store.takeInterval('other', '192.0.2.1', 300)).toBe(true);
    await sleep(350);
    expect(await store.takeInterval('keyless', '192.0.2.1', 300)).toBe(true);
    expect(await store.takeInterval('keyless', '192.0.2.9', 0)).toBe(true);
    expect(await store.takeInterval('keyless', '192.0.2.9', 0)).toBe(true);
  });

  it('a token bucket grants a burst of its rate, then refills at the rate', async () => {
    const store = await open();
    const t0 = Date.now();
    const burst = await Promise.all(Array.from({ length: 30 }, () => store.takeToken('keyed', 'key_a', 10)));
    const granted = burst.filter(Boolean).length;
    expect(granted).toBeGreaterThanOrEqual(10);
    expect(granted).toBeLessThanOrEqual(refillBound(10, Date.now() - t0));
    expect(await store.takeToken('keyed', 'key_b', 10)).toBe(true);
    await sleep(320); // at least 3 tokens at 10/s
    const after = (await Promise.all(Array.from({ length: 10 }, () => store.takeToken('keyed', 'key_a', 10)))).filter(Boolean).length;
    expect(after).toBeGreaterThanOrEqual(2);
    // Both takes together: no more than a full bucket and what it refilled since the first.
    expect(granted + after).toBeLessThanOrEqual(refillBound(10, Date.now() - t0));
  });

  it('a refused token names its wait: at most one token interval, and a take after that wait goes ahead', async () => {
    const store = await open();
    expect(await store.takeTokenOrWait('web', '192.0.2.5', 2)).toBe(0);
    expect(await store.takeTokenOrWait('web', '192.0.2.5', 2)).toBe(0);
    const wait = await store.takeTokenOrWait('web', '192.0.2.5', 2);
    // The bucket holds less than one token: the next one comes within 1000 / 2 ms, never sooner than 1 ms.
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(500);
    // Another client's bucket is full.
    expect(await store.takeTokenOrWait('web', '192.0.2.6', 2)).toBe(0);
    await sleep(wait);
    expect(await store.takeTokenOrWait('web', '192.0.2.5', 2)).toBe(0);
    // No limit: never a wait.
    expect(await store.takeTokenOrWait('web', '192.0.2.5', 0)).toBe(0);
  });

  it('failures block a client at the threshold for the cool-down, and only that client', async () => {
    const store = await open();
    expect(await store.recordFailure('invalid-key', '192.0.2.66', POLICY)).toBe(false);
    expect(await store.recordFailure('invalid-key', '192.0.2.66', POLICY)).toBe(false);
    expect(await store.isBlocked('invalid-key', '192.0.2.66')).toBe(false);
    expect(await store.recordFailure('invalid-key', '192.0.2.66', POLICY)).toBe(true);
    expect(await store.isBlocked('invalid-key', '192.0.2.66')).toBe(true);
    expect(await store.isBlocked('invalid-key', '192.0.2.67')).toBe(false);
    await sleep(450);
    expect(await store.isBlocked('invalid-key', '192.0.2.66')).toBe(false);
  });
});

describe.skipIf(unavailable !== null)('Redis: limits shared between processes', () => {
  let admin: Redis;
  beforeAll(() => {
    admin = new Redis(REDIS_URL);
  });
  afterAll(async () => admin?.quit());

  it('two connections (two service processes) share one interval, one bucket and one failure count', async () => {
    const prefix = newPrefix();
    const [a, b] = [(await openRedis(prefix)).store, (await openRedis(prefix)).store];
    expect(await a.takeInterval('keyless', '198.51.100.7', 2000)).toBe(true);
    expect(await b.takeInterval('keyless', '198.51.100.7', 2000)).toBe(false);

    const t0 = Date.now();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).takeToken('keyed', 'key_shared', 5)));
    const granted = burst.filter(Boolean).length;
    // Kept apart, the two would grant at least 5 each: one bucket grants 5 and its refill (under
    // 10 whenever the burst takes less than 0.6 s).
    expect(granted).toBeGreaterThanOrEqual(5);
    expect(granted).toBeLessThanOrEqual(refillBound(5, Date.now() - t0));

    expect(await a.recordFailure('invalid-key', '198.51.100.8', POLICY)).toBe(false);
    expect(await b.recordFailure('invalid-key', '198.51.100.8', POLICY)).toBe(false);
    expect(await a.recordFailure('invalid-key', '198.51.100.8', POLICY)).toBe(true);
    expect(await b.isBlocked('invalid-key', '198.51.100.8')).toBe(true);
  });

  it('concurrent takes never over-grant: 200 at once from four connections against a bucket of 20', async () => {
    const prefix = newPrefix();
    const stores = await Promise.all(Array.from({ length: 4 }, async () => (await openRedis(prefix)).store));
    const t0 = Date.now();
    const burst = await Promise.all(Array.from({ length: 200 }, (_, i) => stores[i % 4]!.takeToken('keyed', 'key_hot', 20)));
    const elapsed = Date.now() - t0;
    const granted = burst.filter(Boolean).length;
    expect(granted).toBeGreaterThanOrEqual(20);
    expect(granted).toBeLessThanOrEqual(refillBound(20, elapsed));
  });

  it('every key it writes carries the prefix and a TTL', async () => {
    const prefix = newPrefix();
    const { store } = await openRedis(prefix);
    await store.takeInterval('keyless', '203.0.113.1', 5000);
    await store.takeToken('keyed', 'key_ttl', 30);
    await store.takeToken('keyless-status', '203.0.113.1', 5);
    await store.recordFailure('invalid-key', '203.0.113.1', { threshold: 10, windowMs: 60_000, coolDownMs: 300_000 });
    const keys = await admin.keys(`${prefix}*`);
    expect(keys.sort()).toEqual(
      [
        `${prefix}bucket:keyed:key_ttl`,
        `${prefix}bucket:keyless-status:203.0.113.1`,
        `${prefix}failures:invalid-key:203.0.113.1`,
        `${prefix}interval:keyless:203.0.113.1`,
      ].sort(),
    );
    for (const key of keys) {
      const ttl = await admin.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(60_000);
    }
    // A bucket lives only until it would be full again (plus a second).
    expect(await admin.pttl(`${prefix}bucket:keyed:key_ttl`)).toBeLessThanOrEqual(1100);
  });
});

describe.skipIf(unavailable !== null)('Redis: failure modes', () => {
  it('unreachable at start: connecting fails at once with a message naming the URL (without its password) and the cause', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));

    const { logger } = captureLogger();
    // A connect timeout past the test's own: failing at all is failing at the refusal, not after waiting.
    const error = await connectRedisRateLimitStore({ url: `redis://user:secret@127.0.0.1:${port}`, logger, connectTimeoutMs: 600_000 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`cannot reach Redis at redis://user:***@127.0.0.1:${port} (--redis-url, REDIS_URL): ECONNREFUSED`);
    await expect(connectRedisRateLimitStore({ url: 'http://127.0.0.1:6379', logger })).rejects.toThrow(
      '--redis-url (REDIS_URL) must be a redis:// or rediss:// URL, got http://',
    );
  });

  it('down after start: every limit allows (fails open) with one warning, and is enforced again once Redis is back', async () => {
    const relay = await startRelay(new URL(REDIS_URL));
    // A command timeout past the test's own: answers without a connection come at once or never.
    const { store, lines } = await openRedis(newPrefix(), relay.url, { commandTimeoutMs: 600_000 });
    expect(await store.takeInterval('keyless', '192.0.2.1', 60_000)).toBe(true);
    expect(await store.takeInterval('keyless', '192.0.2.1', 60_000)).toBe(false);

    await relay.cut();
    for (let i = 0; i < 20; i++) {
      expect(await store.takeInterval('keyless', '192.0.2.1', 60_000)).toBe(true);
      expect(await store.takeToken('keyed', 'key_x', 1)).toBe(true);
      expect(await store.recordFailure('invalid-key', '192.0.2.1', POLICY)).toBe(false);
      expect(await store.isBlocked('invalid-key', '192.0.2.1')).toBe(false);
    }
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toBe('Redis is unavailable: rate limits are not enforced until it is back (failing open)');

    await relay.restore();
    const deadline = Date.now() + 10_000;
    // The interval key written before the cut is still in Redis: once reconnected, it refuses again.
    while ((await store.takeInterval('keyless', '192.0.2.1', 60_000)) && Date.now() < deadline) await sleep(100);
    expect(await store.takeInterval('keyless', '192.0.2.1', 60_000)).toBe(false);
    expect(lines.some((l) => l.level === 30 && l.msg === 'Redis is reachable again: shared rate limits are enforced')).toBe(true);
    await relay.cut();
  });

  it('hanging after start: a request waits at most the command timeout, then is allowed', async () => {
    const relay = await startRelay(new URL(REDIS_URL));
    const { store, lines } = await openRedis(newPrefix(), relay.url, { commandTimeoutMs: 200 });
    expect(await store.takeToken('keyed', 'key_h', 1)).toBe(true);
    expect(await store.takeToken('keyed', 'key_h', 1)).toBe(false);
    relay.hang = true;
    // Redis never answers them: both answers come from the command timeout.
    const answers = await Promise.all([store.takeToken('keyed', 'key_h', 1), store.takeInterval('keyless', '192.0.2.5', 5000)]);
    expect(answers).toEqual([true, true]);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    await relay.cut();
  });
});
