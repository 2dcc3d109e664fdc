import type { Config } from '../core/config.js';
import { findApiKey, touchApiKey, type ApiKeyRecord } from '../store/apiKeys.js';
import type { Store } from '../store/openStore.js';
import { FailureCounter, IntervalLimiter, TokenBucketLimiter } from './rateLimits.js';

export type ActionClass = 'read' | 'status' | 'submit';

export type AccessDecision =
  | { allowed: true; key: ApiKeyRecord | null; okMessage: string }
  | { allowed: false; text: string };

/** Invalid keys from one client: this many within the window start a cool-down. */
const INVALID_KEY_THRESHOLD = 10;
const INVALID_KEY_WINDOW_MS = 60_000;
const INVALID_KEY_COOLDOWN_MS = 5 * 60_000;
/** Keyless status polls: generous, but bounded. */
const KEYLESS_STATUS_RATE = 5;
/** `last used` is a listing aid: writing it once a minute per key is plenty. */
const TOUCH_INTERVAL_MS = 60_000;
/** Addresses are at most 45 characters (IPv6); anything longer is cut so it cannot bloat the limiters. */
const MAX_CLIENT_LENGTH = 64;

/**
 * Keys, rate limits and the keyless note, decided once per request before the action runs.
 */
export class AccessControl {
  private readonly keyless: IntervalLimiter;
  private readonly keyed = new TokenBucketLimiter();
  private readonly keylessStatus = new TokenBucketLimiter();
  private readonly invalidKeys = new FailureCounter(INVALID_KEY_THRESHOLD, INVALID_KEY_WINDOW_MS, INVALID_KEY_COOLDOWN_MS);
  private readonly touched = new IntervalLimiter(TOUCH_INTERVAL_MS);
  private readonly texts: { okKeyless: string; maxRateKeyless: string; maxRateKeyed: string; tooManyInvalid: string; invalidKey: string };

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    texts: AccessControl['texts'],
  ) {
    this.keyless = new IntervalLimiter(config.keylessIntervalMs);
    this.texts = texts;
  }

  /**
   * Decides whether a request may run: a valid key within its tier's rate, or a keyless
   * request within the per-address limits. `client` is the request's address (after trusted
   * proxies). Revoked keys are looked up per request, so a revocation applies at once.
   */
  async decide(apiKey: string, clientAddress: string, actionClass: ActionClass): Promise<AccessDecision> {
    const client = clientAddress.slice(0, MAX_CLIENT_LENGTH);
    let key: ApiKeyRecord | null = null;
    if (apiKey) {
      if (this.invalidKeys.isBlocked(client)) return { allowed: false, text: this.texts.tooManyInvalid };
      key = await findApiKey(this.store.db, apiKey);
      if (!key) {
        this.invalidKeys.record(client);
        if (this.invalidKeys.isBlocked(client)) return { allowed: false, text: this.texts.tooManyInvalid };
      }
    }
    if (key) {
      const rate = key.tier === 'pro' ? this.config.ratePro : this.config.rateFree;
      if (!this.keyed.take(key.id, rate)) return { allowed: false, text: this.texts.maxRateKeyed };
      // A write per request would serialise every keyed call on the database's write lock.
      if (this.touched.take(key.id)) void touchApiKey(this.store.db, key.id).catch(() => undefined);
      return { allowed: true, key, okMessage: 'OK' };
    }
    switch (actionClass) {
      case 'submit':
        return { allowed: false, text: this.texts.invalidKey };
      case 'status':
        if (!this.keylessStatus.take(client, KEYLESS_STATUS_RATE)) return { allowed: false, text: this.texts.maxRateKeyless };
        return { allowed: true, key: null, okMessage: 'OK' };
      case 'read':
        if (!this.keyless.take(client)) return { allowed: false, text: this.texts.maxRateKeyless };
        return { allowed: true, key: null, okMessage: this.texts.okKeyless };
    }
  }
}
