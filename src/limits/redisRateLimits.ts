/**
 * Request limits kept in Redis, so that every service process sharing one Redis enforces one
 * limit. Each limiter is one atomic step on the server: a SET NX PX, or a small Lua script
 * (sent once, then run by its SHA). Every key has a TTL, so Redis holds only live limits.
 *
 * When Redis fails after start the limits fail open: requests are allowed and a warning is
 * logged (at most once a minute). Refusing every request, or answering errors, because a
 * rate-limit store is down would turn its outage into an outage of the whole service.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../core/log.js';
import type { FailurePolicy, RateLimitStore } from './rateLimits.js';

/**
 * A token bucket: `rate` tokens sustained per second, up to `rate` at once. The server's
 * clock is used, so processes with skewed clocks still share one bucket fairly. Floats go
 * back to Redis as strings: Lua numbers handed to redis.call are cut to integers. Answers 0
 * when a token was taken, else the milliseconds until the bucket holds one (at least 1).
 */
const TAKE_TOKEN_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local rate = tonumber(ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local tokens = rate
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if saved[1] and saved[2] then
  tokens = math.min(rate, tonumber(saved[1]) + math.max(0, now - tonumber(saved[2])) * rate / 1000)
end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) * 1000 / rate))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
-- Once the bucket would be full again, a missing key means the same thing.
redis.call('PEXPIRE', KEYS[1], math.ceil((rate - tokens) * 1000 / rate) + 1000)
return wait
`;

/**
 * Failures counted in a window that starts at the first one; at the threshold the key is
 * marked blocked and lives for the cool-down, after which the count starts afresh.
 */
const RECORD_FAILURE_LUA = `
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if count >= tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'blocked', '1')
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
`;

interface LimitScripts {
  solproofTakeToken(key: string, ratePerSecond: string): Promise<number>;
  solproofRecordFailure(key: string, threshold: string, windowMs: string, coolDownMs: string): Promise<number>;
}

type ScriptedRedis = Redis & LimitScripts;

export interface RedisRateLimitOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` (TLS). */
  url: string;
  logger: Logger;
  /** Put before every key, so several deployments or tests can share one Redis (default `solproof:`). */
  keyPrefix?: string;
  /** A command not answered within this is treated as Redis being down (default 500 ms). */
  commandTimeoutMs?: number;
  /** How long start may wait for Redis (default 5000 ms). */
  connectTimeoutMs?: number;
  /** At most one "Redis unavailable" warning per this many ms (default 60000). */
  warnIntervalMs?: number;
}

/** The URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? (error.message || error.name);
  return String(error);
}

/**
 * Connects to Redis and checks that it answers. Rejects, with a message naming the
 * (password-redacted) URL and the cause, when it does not within `connectTimeoutMs`.
 */
export async function connectRedisRateLimitStore(options: RedisRateLimitOptions): Promise<RedisRateLimitStore> {
  const where = redactRedisUrl(options.url);
  let protocol: string;
  try {
    protocol = new URL(options.url).protocol;
  } catch {
    throw new Error(`--redis-url (REDIS_URL) is not a URL: ${where}`);
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new Error(`--redis-url (REDIS_URL) must be a redis:// or rediss:// URL, got ${protocol}//`);
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const client = new Redis(options.url, {
    lazyConnect: true,
    // Queued commands would hold requests while Redis is away; failing at once lets them fail open.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  }) as ScriptedRedis;
  client.defineCommand('solproofTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN_LUA });
  client.defineCommand('solproofRecordFailure', { numberOfKeys: 1, lua: RECORD_FAILURE_LUA });

  let lastError: unknown;
  const collect = (error: unknown): void => {
    lastError = error;
  };
  client.on('error', collect);
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    });
    await Promise.race([client.connect().then(() => client.ping()), timeout]);
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot reach Redis at ${where} (--redis-url, REDIS_URL): ${reasonOf(lastError ?? error)}`);
  } finally {
    clearTimeout(timer);
    client.off('error', collect);
  }
  return new RedisRateLimitStore(client, options);
}

/** The limits shared through Redis. Made by `connectRedisRateLimitStore`. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis';
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly warnIntervalMs: number;
  private failing = false;
  private lastWarning = 0;
  private suppressed = 0;

  constructor(
    private readonly client: ScriptedRedis,
    options: RedisRateLimitOptions,
  ) {
    this.prefix = options.keyPrefix ?? 'solproof:';
    this.logger = options.logger;
    this.warnIntervalMs = options.warnIntervalMs ?? 60_000;
    // Reconnection attempts report here; without a listener ioredis would print each one.
    client.on('error', (error: unknown) => this.unavailable(error));
  }

  takeInterval(scope: string, client: string, intervalMs: number): Promise<boolean> {
    if (intervalMs <= 0) return Promise.resolve(true);
    return this.guard(true, async () => {
      const set = await this.client.set(`${this.prefix}interval:${scope}:${client}`, '1', 'PX', intervalMs, 'NX');
      return set === 'OK';
    });
  }

  async intervalWait(scope: string, client: string, intervalMs: number): Promise<number> {
    if (intervalMs <= 0) return 0;
    try {
      const left = await this.client.pttl(`${this.prefix}interval:${scope}:${client}`);
      return left > 0 ? Math.min(left, intervalMs) : 0;
    } catch (error) {
      this.unavailable(error);
      return 0;
    }
  }

  async takeToken(scope: string, id: string, ratePerSecond: number): Promise<boolean> {
    return (await this.takeTokenOrWait(scope, id, ratePerSecond)) === 0;
  }

  takeTokenOrWait(scope: string, id: string, ratePerSecond: number): Promise<number> {
    if (ratePerSecond <= 0) return Promise.resolve(0);
    return this.guard(0, () => this.client.solproofTakeToken(`${this.prefix}bucket:${scope}:${id}`, String(ratePerSecond)));
  }

  recordFailure(scope: string, client: string, policy: FailurePolicy): Promise<boolean> {
    return this.guard(false, async () => {
      const blocked = await this.client.solproofRecordFailure(
        `${this.prefix}failures:${scope}:${client}`,
        String(policy.threshold),
        String(Math.max(1, policy.windowMs)),
        String(Math.max(1, policy.coolDownMs)),
      );
      return blocked === 1;
    });
  }

  isBlocked(scope: string, client: string): Promise<boolean> {
    return this.guard(false, async () => (await this.client.hexists(`${this.prefix}failures:${scope}:${client}`, 'blocked')) === 1);
  }

  /** Asks Redis for an answer now (readiness); rejects when it is out of reach. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** Runs a Redis step; when Redis fails, answers `failOpen` (allow) instead. */
  private async guard<T>(failOpen: T, step: () => Promise<T>): Promise<T> {
    try {
      const answer = await step();
      if (this.failing) {
        this.failing = false;
        this.logger.info({ suppressedWarnings: this.suppressed }, 'Redis is reachable again: shared rate limits are enforced');
        this.suppressed = 0;
        this.lastWarning = 0;
      }
      return answer;
    } catch (error) {
      this.unavailable(error);
      return failOpen;
    }
  }

  private unavailable(error: unknown): void {
    this.failing = true;
    const now = Date.now();
    if (now - this.lastWarning < this.warnIntervalMs) {
      this.suppressed += 1;
      return;
    }
    this.logger.warn(
      { reason: reasonOf(error), suppressedWarnings: this.suppressed },
      'Redis is unavailable: rate limits are not enforced until it is back (failing open)',
    );
    this.lastWarning = now;
    this.suppressed = 0;
  }
}

/** Null when Redis answers at `url`, else why not (tests use it to skip with a message). */
export async function probeRedis(url: string, timeoutMs = 2000): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
  });
  let lastError: unknown;
  client.on('error', (error: unknown) => (lastError = error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return reasonOf(lastError ?? error);
  } finally {
    client.disconnect();
  }
}
