/**
 * Follows the chain: every contract created in a new block (by a transaction, or by a
 * factory when the node serves traces) is recorded as a deployment and checked against the
 * bytecode database, so a copy of a verified contract is verified within seconds of its
 * deployment. The position is kept in the store, so a restart resumes where the last run
 * stopped. A chain rolled back (evm_revert, anvil_rollback, a reorganisation: the block at the
 * position is another one, or the head is below it) is followed again from the highest block
 * it still shares with what was read; only the records deployed after that block are taken
 * off. A chain that restarted from genesis (another genesis hash) is a new generation: what
 * was verified on the old one stops being served, and the new chain is followed from its genesis.
 * With a log reader it also records proxies' upgrade events (`Upgraded`, `BeaconUpgraded`: one
 * eth_getLogs per round), the history an upgrade check may compare against; a rollback takes
 * off those of the blocks it removed, a restart from genesis all of them.
 */

import type { Kysely } from 'kysely';
import { knownAddress } from '../core/hex.js';
import { keccakOfHex } from '../core/keccak.js';
import type { Logger } from '../core/log.js';
import { getChainState, releaseLease, setChainState, takeLease } from '../store/chainState.js';
import type { Database } from '../store/database.js';
import { forgetDeploymentsAfter, recordDeployment } from '../store/deployments.js';
import { followedBlocksUpTo, forgetFollowedBlocks, recordFollowedBlock } from '../store/followedBlocks.js';
import { forgetProxyHistory, type ProxyHistoryRow, recordProxyHistory } from '../store/proxyHistory.js';
import { removeVerifiedContracts, verifiedDeployedAfter } from '../store/verifiedContracts.js';
import { deployedCodeFingerprint, type LogReader } from '../verify/index.js';
import {
  type ChainGeneration,
  GENERATION_STATE,
  FOLLOWER_POSITION as POSITION,
  FOLLOWER_POSITION_HASH as POSITION_HASH,
  startNewGeneration,
} from './chainGeneration.js';
import type { BlockCreation, ChainHistory } from './ports.js';
import type { CopyRecogniser } from './recogniseCopies.js';
import { UPGRADE_TOPICS, upgradeEventRows } from './upgradeEvents.js';

const LEASE = 'follower.lease';

/**
 * Waits (at most `timeoutMs`) until the follower, in this process or another one sharing the
 * store, has handled every block up to the head as it is now: then every contract deployed so
 * far is a recorded deployment. True when it caught up in time.
 */
export async function followerCaughtUp(db: Kysely<Database>, chain: { getBlockNumber(): Promise<bigint> }, timeoutMs: number): Promise<boolean> {
  const head = Number(await chain.getBlockNumber());
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const position = await getChainState(db, POSITION);
    if (position !== null && Number(position) >= head) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ChainFollowerOptions {
  db: Kysely<Database>;
  chain: ChainHistory;
  generation: ChainGeneration;
  recogniser: CopyRecogniser;
  /** Reads proxies' upgrade events into the proxy history; none recorded without it. */
  logs?: LogReader;
  logger: Logger;
  /** Who holds the follower's lease (one follower per store, however many workers). */
  holder: string;
  /** How often to look for new blocks (default 1000 ms). */
  pollMs?: number;
  /** On a first start, how many blocks before the head to begin at (default 10,000; the rest are found when read). */
  backfillBlocks?: number;
  /** Blocks handled per round before the position is saved and the head read again (default 100). */
  batchBlocks?: number;
  /** How many recent block hashes are kept to find where a rollback went back to (default 1024; deeper, it goes back to genesis). */
  rollbackWindow?: number;
}

/** What one round did (for tests and logs). */
export interface FollowRound {
  from: number;
  to: number;
  creations: number;
  verified: number;
  reset: boolean;
  /** The block the chain was rolled back to (the round then read on from the next one); null when it was not. */
  rolledBackTo: number | null;
}

export class ChainFollower {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private warnedUntraced = false;
  /** Whether this follower held the lease at its last round (one follower per store runs). */
  leading = false;
  private readonly pollMs: number;
  private readonly backfill: number;
  private readonly batch: number;
  private readonly window: number;

  constructor(private readonly o: ChainFollowerOptions) {
    this.pollMs = o.pollMs ?? 1000;
    this.backfill = o.backfillBlocks ?? 10_000;
    this.batch = o.batchBlocks ?? 100;
    this.window = Math.max(1, o.rollbackWindow ?? 1024);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops after the block being handled; resolves when it has. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Gives up the lease (when this follower holds it), so another process's follower goes on without waiting for it to lapse. */
  async releaseLease(): Promise<void> {
    this.leading = false;
    await releaseLease(this.o.db, LEASE, this.o.holder);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round()
        .then((r) => {
          // Behind the head: go on at once; else wait for the next block.
          this.schedule(r && r.to - r.from + 1 >= this.batch ? 0 : this.pollMs);
        })
        .catch((error: unknown) => {
          this.o.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'chain follower: round failed; trying again');
          this.schedule(Math.max(this.pollMs, 2000));
        });
    }, ms);
    this.timer.unref?.();
  }

  /** One round: checks for a reset or a rollback, then handles the next blocks up to the head. Null when another process follows. */
  async round(): Promise<FollowRound | null> {
    const { db, chain, logger } = this.o;
    this.leading = await takeLease(db, LEASE, this.o.holder, Math.max(15_000, this.pollMs * 10));
    if (!this.leading) return null;
    const head = Number(await chain.getBlockNumber());
    const genesis = (await chain.blockHash(0n)) ?? 'unknown';
    const storedGeneration = await getChainState(db, GENERATION_STATE);
    const storedPosition = await getChainState(db, POSITION);
    let position: number;
    let reset = false;
    let rolledBackTo: number | null = null;
    if (storedPosition === null) {
      // First start: the chain as it is now is this store's generation.
      if (storedGeneration === null) await setChainState(db, GENERATION_STATE, genesis);
      position = Math.max(-1, head - this.backfill);
      if (position >= 0) logger.info({ from: position + 1, head }, 'chain follower: first start; earlier contracts are checked when they are read');
      // Kept at once: the next round goes on from here even when this one has no block to handle.
      const hash = position >= 0 ? ((await chain.blockHash(BigInt(position))) ?? '') : '';
      if (hash) await recordFollowedBlock(db, { number: position, hash });
      await setChainState(db, POSITION_HASH, hash);
      await setChainState(db, POSITION, String(position));
    } else {
      position = Number(storedPosition);
      const positionHash = await getChainState(db, POSITION_HASH);
      const sameGenesis = storedGeneration === null || storedGeneration.split('#')[0] === genesis;
      const stillThere = head >= position && (position < 0 || !positionHash || (await chain.blockHash(BigInt(position))) === positionHash);
      if (!sameGenesis) {
        await this.reset(genesis, storedGeneration);
        position = -1;
        reset = true;
      } else if (!stillThere) {
        rolledBackTo = await this.rollBack(position, head);
        position = rolledBackTo;
      }
    }
    const from = position + 1;
    const to = Math.min(head, position + this.batch);
    let creations = 0;
    let verified = 0;
    // The logs are read once for the round; the hash of its last block, read before, tells whether they are of the chain the blocks are read from.
    const toHash = this.o.logs && to >= from ? await chain.blockHash(BigInt(to)) : null;
    const upgrades = await this.upgradeEvents(from, to);
    let handled: { number: number; hash: string } | null = null;
    for (let n = from; n <= to && !this.stopped; n++) {
      // The hash first: should the block change while it is read, the next round finds the hash changed and reads it again.
      const hash = await chain.blockHash(BigInt(n));
      if (hash === null) break;
      const found = await this.handleBlock(n);
      creations += found.creations;
      verified += found.verified;
      await recordProxyHistory(db, upgrades.get(n) ?? []);
      await recordFollowedBlock(db, { number: n, hash });
      await setChainState(db, POSITION_HASH, hash);
      await setChainState(db, POSITION, String(n));
      handled = { number: n, hash };
    }
    if (this.o.logs && handled && !(handled.number === to && handled.hash === toHash)) await this.readUpgradesAgain(from, handled);
    if (to >= from) await forgetFollowedBlocks(db, { below: to - this.window });
    return { from, to, creations, verified, reset, rolledBackTo };
  }

  /**
   * The chain no longer holds the block at `position`: it was rolled back (and may have grown
   * again). Finds the highest handled block whose hash is still the chain's (genesis when none
   * in the window is), takes off the records deployed after it (their blocks are gone; what they
   * held is recorded and recognised again as those blocks are read anew), forgets those
   * deployments, and sets the position there. Returns that block.
   */
  private async rollBack(position: number, head: number): Promise<number> {
    const { db, chain, logger } = this.o;
    const known = await followedBlocksUpTo(db, Math.min(position, head), this.window);
    // Blocks share a prefix: the blocks still matching are the lowest ones, so the last of them is found by halving.
    let ancestor = 0;
    let lo = 0;
    let hi = known.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const block = known[mid]!;
      if ((await chain.blockHash(BigInt(block.number))) === block.hash) {
        ancestor = Math.max(ancestor, block.number);
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const generation = await this.o.generation.current();
    let removed = 0;
    for (;;) {
      const batch = await verifiedDeployedAfter(db, generation, ancestor, 500);
      if (batch.length === 0) break;
      removed += await removeVerifiedContracts(db, batch, 'rolled_back');
    }
    const forgotten = await forgetDeploymentsAfter(db, generation, ancestor);
    await forgetProxyHistory(db, { above: ancestor });
    await forgetFollowedBlocks(db, { above: ancestor });
    await setChainState(db, POSITION_HASH, (await chain.blockHash(BigInt(ancestor))) ?? '');
    await setChainState(db, POSITION, String(ancestor));
    logger.warn(
      { position, head, ancestor, removed, deployments: forgotten },
      'chain follower: the chain was rolled back; following it again from the last block it shares with what was read',
    );
    return ancestor;
  }

  /**
   * The chain changed while the round read it (or the round stopped early): the upgrade events
   * recorded for `from`..`last` may be of blocks the chain no longer holds. They are read again
   * while the chain's block `last` is still the one recorded. When it is not, the next round
   * finds the position's block changed and rolls back, forgetting and reading those blocks again.
   */
  private async readUpgradesAgain(from: number, last: { number: number; hash: string }): Promise<void> {
    const { db, chain } = this.o;
    if ((await chain.blockHash(BigInt(last.number))) !== last.hash) return;
    const upgrades = await this.upgradeEvents(from, last.number);
    if ((await chain.blockHash(BigInt(last.number))) !== last.hash) return;
    await forgetProxyHistory(db, { above: from - 1 });
    await recordProxyHistory(db, [...upgrades.values()].flat());
  }

  /** The upgrade events of blocks `from`..`to` by block (one eth_getLogs, any address); none without a log reader. */
  private async upgradeEvents(from: number, to: number): Promise<Map<number, ProxyHistoryRow[]>> {
    const byBlock = new Map<number, ProxyHistoryRow[]>();
    if (!this.o.logs || to < from) return byBlock;
    const logs = await this.o.logs.getLogs({ fromBlock: BigInt(from), toBlock: BigInt(to), topic0: UPGRADE_TOPICS }, Number.MAX_SAFE_INTEGER);
    for (const row of upgradeEventRows(logs)) {
      const list = byBlock.get(row.blockNumber);
      if (list) list.push(row);
      else byBlock.set(row.blockNumber, [row]);
    }
    return byBlock;
  }

  private async handleBlock(n: number): Promise<{ creations: number; verified: number }> {
    const { chain, logger } = this.o;
    const { creations, traced } = await chain.creationsInBlock(BigInt(n));
    if (!traced && !this.warnedUntraced) {
      this.warnedUntraced = true;
      logger.warn('chain follower: the node serves no traces, so contracts created by factories are not followed; they are checked when read or submitted');
    }
    const generation = await this.o.generation.current();
    let verified = 0;
    for (const c of creations) {
      if (await this.handleCreation(c, generation)) verified++;
    }
    return { creations: creations.length, verified };
  }

  private async handleCreation(c: BlockCreation, generation: string): Promise<boolean> {
    const { db, chain, logger } = this.o;
    // The code as it is now: a contract that destroyed itself since has nothing to verify.
    const runtimeCode = await chain.getCode(c.address);
    if (runtimeCode === '0x') return false;
    await recordDeployment(db, {
      address: c.address,
      generation,
      transactionHash: c.transactionHash,
      blockNumber: Number(c.blockNumber),
      creator: c.creator,
      factory: c.factory,
      creationCodeHash: keccakOfHex(c.initCode),
      runtimeCodeHash: keccakOfHex(runtimeCode),
      runtimeFingerprint: deployedCodeFingerprint(runtimeCode.slice(2), c.initCode.slice(2)),
    });
    try {
      const outcome = await this.o.recogniser.recognise(c.address, {
        runtimeCode,
        creation: {
          creationCode: c.initCode,
          transactionHash: c.transactionHash,
          blockNumber: c.blockNumber,
          creator: knownAddress(c.factory ?? c.creator),
          byFactory: c.factory !== null,
        },
        factory: c.factory,
      });
      return outcome === 'verified';
    } catch (error) {
      logger.warn({ address: c.address, err: error instanceof Error ? error.message : String(error) }, 'chain follower: could not check a new contract');
      return false;
    }
  }

  /** The chain restarted from genesis: a new generation (startNewGeneration), followed from its genesis. */
  private async reset(genesis: string, previous: string | null): Promise<void> {
    const { generation, removed } = await startNewGeneration(this.o.db, genesis, previous);
    this.o.generation.invalidate();
    this.o.logger.warn({ previous, generation, removed }, 'chain follower: the chain restarted from genesis; records of the old chain are no longer served');
  }
}
