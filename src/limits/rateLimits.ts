/**
 * Limits on request rates. A single service process keeps them in memory (below; the maps
 * are bounded so that many client addresses cannot grow them without end); several
 * processes share them through Redis (redisRateLimits.ts). Both implement RateLimitStore.
 */

const MAX_TRACKED = 100_000;

function prune<K, V>(map: Map<K, V>): void {
  if (map.size <= MAX_TRACKED) return;
  // Maps iterate in insertion order: drop the oldest tenth.
  let drop = Math.ceil(MAX_TRACKED / 10);
  for (const key of map.keys()) {
    map.delete(key);
    if (--drop <= 0) break;
  }
}

/** One request per `intervalMs` per client: keyless reads. */
export class IntervalLimiter {
  private readonly last = new Map<string, number>();
  constructor(private readonly intervalMs: number) {}

  /** True when the request may go ahead (and records it). */
  take(client: string, now = Date.now()): boolean {
    if (this.intervalMs <= 0) return true;
    const prev = this.last.get(client);
    if (prev !== undefined && now - prev < this.intervalMs) return false;
    this.last.delete(client);
    this.last.set(client, now);
    prune(this.last);
    return true;
  }

  /** Milliseconds until `client` may go ahead again (0 when it may now). */
  waitMs(client: string, now = Date.now()): number {
    const prev = this.last.get(client);
    return prev === undefined || this.intervalMs <= 0 ? 0 : Math.max(0, prev + this.intervalMs - now);
  }
}

/** A token bucket per key: `ratePerSecond` sustained, bursts up to the same number. */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  take(id: string, ratePerSecond: number, now = Date.now()): boolean {
    return this.takeOrWait(id, ratePerSecond, now) === 0;
  }

  /** Takes a token: 0 when there was one, else the milliseconds until the bucket holds one. */
  takeOrWait(id: string, ratePerSecond: number, now = Date.now()): number {
    if (ratePerSecond <= 0) return 0;
    const bucket = this.buckets.get(id) ?? { tokens: ratePerSecond, at: now };
    bucket.tokens = Math.min(ratePerSecond, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.delete(id);
    this.buckets.set(id, bucket);
    prune(this.buckets);
    return allowed ? 0 : tokenWaitMs(bucket.tokens, ratePerSecond);
  }
}

/** Milliseconds until a bucket holding `tokens` (fewer than one) refills to one at `ratePerSecond` (at least 1). */
export function tokenWaitMs(tokens: number, ratePerSecond: number): number {
  return Math.max(1, Math.ceil(((1 - tokens) * 1000) / ratePerSecond));
}

/** Counts failures per client in a window and blocks the client for a cool-down past a threshold. */
export class FailureCounter {
  private readonly entries = new Map<string, { count: number; since: number; blockedUntil: number }>();
  constructor(
    private readonly threshold: number,
    private readonly windowMs: number,
    private readonly coolDownMs: number,
  ) {}

  isBlocked(client: string, now = Date.now()): boolean {
    const e = this.entries.get(client);
    return e !== undefined && e.blockedUntil > now;
  }

  record(client: string, now = Date.now()): void {
    let e = this.entries.get(client);
    if (!e || now - e.since > this.windowMs) e = { count: 0, since: now, blockedUntil: 0 };
    e.count += 1;
    if (e.count >= this.threshold) e.blockedUntil = now + this.coolDownMs;
    this.entries.delete(client);
    this.entries.set(client, e);
    prune(this.entries);
  }
}

/** What the invalid-key cool-down counts: `threshold` failures within `windowMs` block for `coolDownMs`. */
export interface FailurePolicy {
  threshold: number;
  windowMs: number;
  coolDownMs: number;
}

/**
 * Where the request limits keep their state. `scope` names one limiter (keyless reads,
 * keyed requests, ...), so that the same client or key id in two limiters never collide.
 * Each call is one atomic step: concurrent requests, in one process or in several sharing
 * the store, never both get the last token.
 */
export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /** One request per `intervalMs` per client; true when this one may go ahead (and it is recorded). */
  takeInterval(scope: string, client: string, intervalMs: number): Promise<boolean>;
  /** Milliseconds until `takeInterval` would let `client` go ahead (0 when it would now). */
  intervalWait(scope: string, client: string, intervalMs: number): Promise<number>;
  /** Takes a token from the bucket of `id` (`ratePerSecond` sustained, bursts up to the same); true when there was one. */
  takeToken(scope: string, id: string, ratePerSecond: number): Promise<boolean>;
  /** takeToken, answering the wait a refused request is told: 0 when a token was taken, else the milliseconds until the bucket holds one. */
  takeTokenOrWait(scope: string, id: string, ratePerSecond: number): Promise<number>;
  /** Counts a failure of `client`; true when the client is now blocked. */
  recordFailure(scope: string, client: string, policy: FailurePolicy): Promise<boolean>;
  /** True while `client` is in a cool-down started by `recordFailure`. */
  isBlocked(scope: string, client: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The limits of one process, in its memory (the default: one service process). */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory';
  private readonly intervals = new Map<string, IntervalLimiter>();
  private readonly buckets = new Map<string, TokenBucketLimiter>();
  private readonly failures = new Map<string, FailureCounter>();

  async takeInterval(scope: string, client: string, intervalMs: number): Promise<boolean> {
    const name = `${scope}/${intervalMs}`;
    let limiter = this.intervals.get(name);
    if (!limiter) this.intervals.set(name, (limiter = new IntervalLimiter(intervalMs)));
    return limiter.take(client);
  }

  async intervalWait(scope: string, client: string, intervalMs: number): Promise<number> {
    return this.intervals.get(`${scope}/${intervalMs}`)?.waitMs(client) ?? 0;
  }

  async takeToken(scope: string, id: string, ratePerSecond: number): Promise<boolean> {
    return (await this.takeTokenOrWait(scope, id, ratePerSecond)) === 0;
  }

  async takeTokenOrWait(scope: string, id: string, ratePerSecond: number): Promise<number> {
    let limiter = this.buckets.get(scope);
    if (!limiter) this.buckets.set(scope, (limiter = new TokenBucketLimiter()));
    return limiter.takeOrWait(id, ratePerSecond);
  }

  async recordFailure(scope: string, client: string, policy: FailurePolicy): Promise<boolean> {
    let counter = this.failures.get(scope);
    if (!counter) this.failures.set(scope, (counter = new FailureCounter(policy.threshold, policy.windowMs, policy.coolDownMs)));
    counter.record(client);
    return counter.isBlocked(client);
  }

  async isBlocked(scope: string, client: string): Promise<boolean> {
    return this.failures.get(scope)?.isBlocked(client) ?? false;
  }

  async close(): Promise<void> {}
}
