/**
 * API keys a visitor creates for themselves (`--self-service-keys N`): N per client address per
 * UTC day (an IPv6 client by its /64), counted and created in one step in the store, so API
 * nodes sharing it hold the limit together; shown once and stored hashed like any other key.
 */
import { clientKey } from '../limits/clientAddress.js';
import { createApiKeyWithin } from '../store/apiKeys.js';
import type { Services } from './services.js';

/** The owner a self-service key is recorded with (what `keys list` shows): the address that created it. */
export const selfServiceOwner = (client: string): string => `self-service ${client}`;

export type SelfServiceKey = { ok: true; key: string; left: number } | { ok: false; code: 'limit_reached'; resetsAt: Date };

/** Creates a free key for `client` when it has keys of the day left (`perDay`). */
export async function createSelfServiceKey(s: Pick<Services, 'store'>, client: string, perDay: number): Promise<SelfServiceKey> {
  const now = Date.now();
  const dayStart = now - (now % 86_400_000);
  const owner = selfServiceOwner(clientKey(client));
  const { created, made } = await createApiKeyWithin(s.store.db, { owner, since: dayStart, limit: perDay, tier: 'free', now });
  if (!created) return { ok: false, code: 'limit_reached', resetsAt: new Date(dayStart + 86_400_000) };
  return { ok: true, key: created.key, left: perDay - made };
}
