/**
 * In-process limits on request rates. A single service process keeps them in memory;
 * their maps are bounded so that many client addresses cannot grow them without end.
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
}

/** A token bucket per key: `ratePerSecond` sustained, bursts up to the same number. */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  take(id: string, ratePerSecond: number, now = Date.now()): boolean {
    if (ratePerSecond <= 0) return true;
    const bucket = this.buckets.get(id) ?? { tokens: ratePerSecond, at: now };
    bucket.tokens = Math.min(ratePerSecond, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.delete(id);
    this.buckets.set(id, bucket);
    prune(this.buckets);
    return allowed;
  }
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
