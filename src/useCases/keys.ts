/**
 * API keys a visitor creates for themselves (`--self-service-keys N`): N per client address per
 * UTC day, counted in the store, shown once and stored hashed like any other key.
 */
import { countKeysCreatedSince, createApiKey } from '../store/apiKeys.js';
import type { Services } from './services.js';

/** The owner a self-service key is recorded with (what `keys list` shows): the address that created it. */
export const selfServiceOwner = (client: string): string => `self-service ${client}`;

export type SelfServiceKey = { ok: true; key: string; left: number } | { ok: false; code: 'limit_reached'; resetsAt: Date };

/** One creation at a time per address, so two requests at once cannot both take the last key. */
const creating = new Map<string, Promise<unknown>>();

/** Creates a free key for `client` when it has keys of the day left (`perDay`). */
export async function createSelfServiceKey(s: Pick<Services, 'store'>, client: string, perDay: number): Promise<SelfServiceKey> {
  const previous = creating.get(client) ?? Promise.resolve();
  const turn = previous.then(async (): Promise<SelfServiceKey> => {
    const now = Date.now();
    const dayStart = now - (now % 86_400_000);
    const owner = selfServiceOwner(client);
    const made = await countKeysCreatedSince(s.store.db, owner, dayStart);
    if (made >= perDay) return { ok: false, code: 'limit_reached', resetsAt: new Date(dayStart + 86_400_000) };
    const { key } = await createApiKey(s.store.db, { owner, tier: 'free', now });
    return { ok: true, key, left: perDay - made - 1 };
  });
  const settled = turn.catch(() => undefined);
  creating.set(client, settled);
  void settled.then(() => {
    if (creating.get(client) === settled) creating.delete(client);
  });
  return turn;
}
