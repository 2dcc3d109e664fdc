import { createHash } from 'node:crypto';
import type { Config } from '../core/config.js';
import type { AccessRefusal } from '../core/refusals.js';
import { clientKey } from '../limits/clientAddress.js';
import { type FailurePolicy, MemoryRateLimitStore, type RateLimitStore } from '../limits/rateLimits.js';
import { type ApiKeyRecord, findApiKey, touchApiKeys } from '../store/apiKeys.js';
import type { Store } from '../store/openStore.js';

export type ActionClass = 'read' | 'status' | 'submit';

/** `keylessRead`: a read allowed without a valid key, under the keyless rate (Etherscan answers those with a note). */
export type AccessDecision = { allowed: true; key: ApiKeyRecord | null; keylessRead: boolean } | { allowed: false; refusal: AccessRefusal };

/** Invalid keys from one client: this many within the window start a cool-down. */
const INVALID_KEYS: FailurePolicy = { threshold: 10, windowMs: 60_000, coolDownMs: 5 * 60_000 };
/** Key lookups per second from a client in the invalid-key cool-down. */
const BLOCKED_LOOKUP_RATE = 5;
/** Keyless status polls: generous, but bounded. */
const KEYLESS_STATUS_RATE = 5;
/** A key's `last used` is written at most once per this many ms; a use in between is written when it ends. */
const TOUCH_INTERVAL_MS = 1000;
/** Valid keys kept in memory at most; past it they are all dropped and looked up again. */
const MAX_KEPT_KEYS = 10_000;

/**
 * Keys, rate limits and the keyless note, decided once per request before the action runs.
 */
export class AccessControl {
  /** Keys used since the last write of `last used`, with their latest use. */
  private readonly unwritten = new Map<string, number>();
  /** When the last write of `last used` began (epoch ms), and whether one is due or running. */
  private lastTouchAt = 0;
  private touching = false;
  /**
   * Valid keys by their sha256, under the store's `keys` version when they were read: a key is
   * served from here only while no key changed since (a revocation here or in any process
   * moves the version at its commit, see store/storeChanges.ts).
   */
  private readonly keptKeys = new Map<string, { version: number; key: ApiKeyRecord }>();

  /** `limits` holds the limiters' state: this process's memory unless a shared store is given. */
  constructor(
    private readonly store: Store,
    private readonly config: Pick<Config, 'rateFree' | 'ratePro' | 'keylessIntervalMs'>,
    private readonly limits: RateLimitStore = new MemoryRateLimitStore(),
  ) {}

  /**
   * Decides whether a request may run: a valid key within its tier's rate, or a keyless
   * request within the per-client limits. `clientAddress` is the request's address (after trusted
   * proxies), counted as `clientKey` says (an IPv6 /64 is one client). A key is checked on every request, from memory while no key changed since it was
   * read, so a revocation applies at once.
   */
  async decide(apiKey: string, clientAddress: string, actionClass: ActionClass): Promise<AccessDecision> {
    const client = clientKey(clientAddress);
    let key: ApiKeyRecord | null = null;
    if (apiKey) {
      const found = await this.lookUp(apiKey, client);
      if ('refusal' in found) return { allowed: false, refusal: found.refusal };
      key = found.key;
    }
    if (key) {
      const rate = key.tier === 'pro' ? this.config.ratePro : this.config.rateFree;
      if (!(await this.limits.takeToken('keyed', key.id, rate))) return { allowed: false, refusal: 'keyed_rate' };
      this.noteUse(key.id);
      return { allowed: true, key, keylessRead: false };
    }
    switch (actionClass) {
      case 'submit':
        return { allowed: false, refusal: 'invalid_key' };
      case 'status': {
        const allowed = await this.limits.takeToken('keyless-status', client, KEYLESS_STATUS_RATE);
        if (!allowed) return { allowed: false, refusal: 'keyless_rate' };
        return { allowed: true, key: null, keylessRead: false };
      }
      case 'read': {
        const allowed = await this.limits.takeInterval('keyless', client, this.config.keylessIntervalMs);
        if (!allowed) return { allowed: false, refusal: 'keyless_rate' };
        return { allowed: true, key: null, keylessRead: true };
      }
    }
  }

  /**
   * Records a key's use as its `last used`. Every key used since the last write is written in
   * one transaction, at most once per TOUCH_INTERVAL_MS, so the stored time is at most a second
   * behind; a write per request (or per key) would put a commit, and its sync to disk, on the
   * path of every keyed call.
   */
  private noteUse(id: string, at = Date.now()): void {
    this.unwritten.set(id, at);
    if (this.touching) return;
    this.touching = true;
    const write = (): void => {
      if (this.unwritten.size === 0) {
        this.touching = false;
        return;
      }
      const uses = new Map(this.unwritten);
      this.unwritten.clear();
      this.lastTouchAt = Date.now();
      void touchApiKeys(this.store.db, uses)
        .catch(() => undefined)
        .finally(() => setTimeout(write, TOUCH_INTERVAL_MS).unref());
    };
    const wait = this.lastTouchAt + TOUCH_INTERVAL_MS - Date.now();
    if (wait > 0) setTimeout(write, wait).unref();
    else setImmediate(write);
  }

  /**
   * The valid key `apiKey` for a submission from `clientAddress`, or why it is none. Counted as
   * decide counts keys (wrong ones start the cool-down), but no rate token is taken: the
   * submission that follows takes its own. For a body whose rest is read only once its
   * sender's key is known.
   */
  async checkKey(apiKey: string, clientAddress: string): Promise<{ key: ApiKeyRecord } | { refusal: AccessRefusal }> {
    if (!apiKey) return { refusal: 'invalid_key' };
    const found = await this.lookUp(apiKey, clientKey(clientAddress));
    if ('refusal' in found) return found;
    return found.key ? { key: found.key } : { refusal: 'invalid_key' };
  }

  /** The key's record (null when there is none), or the refusal of a client in the invalid-key cool-down. */
  private async lookUp(apiKey: string, client: string): Promise<{ key: ApiKeyRecord | null } | { refusal: AccessRefusal }> {
    if (await this.limits.isBlocked('invalid-key', client)) {
      // The cool-down is for the failures: a valid key from the same address (a shared NAT,
      // a CI runner) still works. Lookups during it are rate-limited, and a wrong key gets
      // the cool-down refusal, so guessing stays as slow as the block makes it.
      if (!(await this.limits.takeToken('invalid-key-lookup', client, BLOCKED_LOOKUP_RATE))) return { refusal: 'too_many_invalid_keys' };
      const key = await this.findKey(apiKey);
      return key ? { key } : { refusal: 'too_many_invalid_keys' };
    }
    const key = await this.findKey(apiKey);
    if (!key && (await this.limits.recordFailure('invalid-key', client, INVALID_KEYS))) return { refusal: 'too_many_invalid_keys' };
    return { key };
  }

  /** The active key `apiKey`, from memory while it is current, else from the store (and then kept). */
  private async findKey(apiKey: string): Promise<ApiKeyRecord | null> {
    const hash = createHash('sha256').update(apiKey, 'utf8').digest('hex');
    const version = this.store.changes.version('keys');
    const kept = this.keptKeys.get(hash);
    if (kept && version >= 0 && kept.version === version) return kept.key;
    const key = await findApiKey(this.store.db, apiKey);
    if (!key || version < 0 || this.store.changes.version('keys') !== version) {
      this.keptKeys.delete(hash);
      return key;
    }
    if (this.keptKeys.size >= MAX_KEPT_KEYS) this.keptKeys.clear();
    this.keptKeys.set(hash, { version, key });
    return key;
  }
}
