import type { Kysely } from 'kysely';
import { getChainState, setChainState } from '../store/chainState.js';
import type { Database } from '../store/database.js';
import { forgetFollowedBlocks } from '../store/followedBlocks.js';
import { forgetProxyHistory } from '../store/proxyHistory.js';
import { removeVerifiedContracts, verifiedOutsideGeneration } from '../store/verifiedContracts.js';
import type { ChainHistory } from './ports.js';

/** The chain_state entry naming the chain generation the store follows. */
export const GENERATION_STATE = 'chain.generation';
/** The chain_state entries of the follower's position: the last block it handled, and that block's hash. */
export const FOLLOWER_POSITION = 'follower.block';
export const FOLLOWER_POSITION_HASH = 'follower.blockHash';

/**
 * The chain restarted from genesis (`genesis` is its genesis hash now; `previous` the generation
 * stored before): a new generation. Every record verified on the old one is taken off the list
 * (kept in the history, its receipts still answer) and the follower starts again before
 * genesis (its proxy history forgotten); whatever is deployed again is verified again through the database. Whoever notices
 * calls it (the follower, or a read when nobody follows the chain) and then invalidates its
 * ChainGeneration. Returns the new generation and how many records were taken off.
 */
export async function startNewGeneration(db: Kysely<Database>, genesis: string, previous: string | null): Promise<{ generation: string; removed: number }> {
  const generation = previous !== null && previous.split('#')[0] === genesis ? `${genesis}#${Date.now()}` : genesis;
  await setChainState(db, GENERATION_STATE, generation);
  await setChainState(db, FOLLOWER_POSITION, '-1');
  await setChainState(db, FOLLOWER_POSITION_HASH, '');
  await forgetFollowedBlocks(db);
  // The old chain's upgrade events describe proxies that are gone.
  await forgetProxyHistory(db);
  let removed = 0;
  for (;;) {
    const batch = await verifiedOutsideGeneration(db, generation, 500);
    if (batch.length === 0) break;
    removed += await removeVerifiedContracts(db, batch, 'chain_reset');
  }
  return { generation, removed };
}

/**
 * Which chain the store's deployments belong to: the node's genesis block hash when first
 * seen, renewed by the chain follower when it sees the chain restart (a devnet restarted from
 * genesis: what was deployed before is gone). Read from the store at most every `ttlMs`.
 */
export class ChainGeneration {
  private cached: { value: string; at: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly chain: Pick<ChainHistory, 'blockHash'>,
    private readonly ttlMs = 1000,
  ) {}

  async current(): Promise<string> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.value;
    this.pending ??= (async () => {
      try {
        let value = await getChainState(this.db, GENERATION_STATE);
        if (value === null) {
          // Nobody follows the chain yet: its genesis names it until the follower says otherwise.
          const genesis = await this.chain.blockHash(0n);
          value = genesis ?? 'unknown';
          await this.db
            .insertInto('chainState')
            .values({ name: GENERATION_STATE, value })
            .onConflict((oc) => oc.column('name').doNothing())
            .execute();
          value = (await getChainState(this.db, GENERATION_STATE)) ?? value;
        }
        this.cached = { value, at: Date.now() };
        return value;
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }

  /** Forget the cached value (the follower just renewed it). */
  invalidate(): void {
    this.cached = null;
  }
}
