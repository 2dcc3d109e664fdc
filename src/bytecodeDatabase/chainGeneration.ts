import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { getChainState } from '../store/chainState.js';
import type { ChainHistory } from './ports.js';

/** The chain_state entry naming the chain generation the store follows. */
export const GENERATION_STATE = 'chain.generation';

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
          await this.db.insertInto('chainState').values({ name: GENERATION_STATE, value }).onConflict((oc) => oc.column('name').doNothing()).execute();
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
