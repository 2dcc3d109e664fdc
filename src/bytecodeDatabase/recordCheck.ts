/**
 * A record is served only while its address holds the code it describes. On a devnet anyone
 * can change that code (anvil_setCode, anvil_reset, evm_revert, with the public dev keys), and
 * anvil_setCode mines no block: so reads compare the code at the address with the record's
 * deployment, at most once per window per address, and a record that no longer matches is
 * taken off (kept in the history). When nobody follows the chain, reads also notice a chain
 * restarted from genesis.
 */

import type { Kysely } from 'kysely';
import { knownAddress } from '../core/hex.js';
import { keccakOfHex } from '../core/keccak.js';
import type { Logger } from '../core/log.js';
import type { Address } from '../core/types.js';
import { getChainState } from '../store/chainState.js';
import type { Database, HistoryReason } from '../store/database.js';
import { getRecordedCode, takeOffRecord } from '../store/verifiedContracts.js';
import { type ChainGeneration, GENERATION_STATE, startNewGeneration } from './chainGeneration.js';
import type { ChainHistory } from './ports.js';

/** What reads ask before serving a record. */
export interface RecordCheck {
  /**
   * Takes the record at `address` off when the address no longer holds the code it describes.
   * Resolves once settled, or after a short wait (the check goes on); never throws. True when
   * this check took the record off. A node that cannot be asked leaves the record served.
   */
  check(address: Address): Promise<boolean>;
  /**
   * The same for the rows of a list page, within a budget of node reads per second (rows past
   * it are shown as stored and checked when read). True when a row was taken off. With `wait`
   * false the checks are started and not waited for (a long export must not wait on the node):
   * what they take off is gone from the next read.
   */
  checkListed(addresses: readonly Address[], options?: { wait?: boolean }): Promise<boolean>;
}

export interface RecordCheckOptions {
  db: Kysely<Database>;
  chain: Pick<ChainHistory, 'getCode' | 'blockHash'>;
  generation: ChainGeneration;
  logger: Logger;
  /** An address is compared at most once per this many ms (default 2000; 0: at every read). */
  windowMs?: number;
  /** Nobody follows the chain (--follow-chain false): reads notice a chain restarted from genesis. */
  watchResets: boolean;
  /** The longest a read waits for a check (default 1000 ms). */
  waitMs?: number;
  /** At most this many addresses remembered as checked (default 10,000). */
  maxRemembered?: number;
  /** Node reads per second that list pages may start (default 100). */
  listChecksPerSecond?: number;
}

export function createRecordCheck(o: RecordCheckOptions): RecordCheck {
  const windowMs = Math.max(0, o.windowMs ?? 2000);
  const waitMs = o.waitMs ?? 1000;
  const max = o.maxRemembered ?? 10_000;
  const listRate = o.listChecksPerSecond ?? 100;
  const checkedUntil = new Map<string, number>();
  const inFlight = new Map<string, Promise<boolean>>();
  let watchedUntil = 0;
  let watching: Promise<void> | null = null;
  let warnedAt = 0;
  let listTokens = listRate;
  let listRefilledAt = Date.now();

  const nodeFailed = (error: unknown): void => {
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    o.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'could not compare verified records with the code on the chain (the node did not answer): they are served unchecked until it does',
    );
  };

  /** The genesis hash now, when it is not the stored generation's; null when it is (or nothing is stored yet). */
  const restartedGenesis = async (): Promise<{ genesis: string; previous: string } | null> => {
    const previous = await getChainState(o.db, GENERATION_STATE);
    if (previous === null) return null;
    const genesis = await o.chain.blockHash(0n);
    return genesis !== null && previous.split('#')[0] !== genesis ? { genesis, previous } : null;
  };

  /** Once per window (or at once when `now`), when nobody follows the chain: a restarted chain is a new generation. Null when not due. */
  const watchResets = (now = false): Promise<void> | null => {
    if (!o.watchResets || (!now && Date.now() < watchedUntil && !watching)) return null;
    watching ??= (async () => {
      try {
        const restarted = await restartedGenesis();
        if (!restarted) return;
        const { generation, removed } = await startNewGeneration(o.db, restarted.genesis, restarted.previous);
        o.generation.invalidate();
        o.logger.warn(
          { previous: restarted.previous, generation, removed },
          'the chain restarted from genesis (noticed on a read); records of the old chain are no longer served',
        );
      } catch (error) {
        nodeFailed(error);
      } finally {
        watchedUntil = Date.now() + windowMs;
        watching = null;
      }
    })();
    return watching;
  };

  const settle = async (address: Address): Promise<boolean> => {
    const recorded = await getRecordedCode(o.db, address);
    if (!recorded) return false;
    let code: `0x${string}`;
    try {
      code = await o.chain.getCode(address);
    } catch (error) {
      nodeFailed(error);
      return false;
    }
    // A record from before the bytecode database names no code: it stands while the address holds any.
    const stands = recorded.runtimeCodeHash === null ? code !== '0x' : keccakOfHex(code) === recorded.runtimeCodeHash;
    if (stands) return false;
    let reason: HistoryReason = 'code_changed';
    try {
      if (await restartedGenesis()) {
        reason = 'chain_reset';
        if (o.watchResets) {
          // Nobody follows the chain: this read starts the new generation, which takes every old record off.
          await watchResets(true);
          if (!(await getRecordedCode(o.db, address))) return true;
        }
      }
    } catch {
      // the node answered getCode a moment ago: the code did change
    }
    const taken = await takeOffRecord(o.db, address, recorded.deploymentId, reason);
    if (taken) o.logger.warn({ address, reason }, 'a verified record no longer describes the code at its address: taken off the list');
    return taken;
  };

  const remember = (key: string): void => {
    if (windowMs === 0) return;
    if (checkedUntil.size >= max) checkedUntil.delete(checkedUntil.keys().next().value!);
    checkedUntil.delete(key);
    checkedUntil.set(key, Date.now() + windowMs);
  };

  const isFresh = (key: string): boolean => {
    const until = checkedUntil.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    checkedUntil.delete(key);
    return false;
  };

  const start = (key: string): Promise<boolean> => {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = (async () => {
        await watchResets();
        return settle(knownAddress(key));
      })()
        .catch((error: unknown) => {
          o.logger.warn({ address: key, err: error instanceof Error ? error.message : String(error) }, 'could not check a verified record against the chain');
          return false;
        })
        .finally(() => {
          inFlight.delete(key);
          remember(key);
        });
      inFlight.set(key, pending);
    }
    return pending;
  };

  const waited = async (checks: Promise<boolean>[]): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    try {
      return await Promise.race([Promise.all(checks).then((taken) => taken.some(Boolean)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async check(address) {
      const key = address.toLowerCase();
      if (isFresh(key)) {
        const watch = watchResets();
        return watch ? waited([watch.then(() => false)]) : false;
      }
      return waited([start(key)]);
    },

    async checkListed(addresses, options = {}) {
      const now = Date.now();
      listTokens = Math.min(listRate, listTokens + ((now - listRefilledAt) * listRate) / 1000);
      listRefilledAt = now;
      const watch = watchResets();
      const checks: Promise<boolean>[] = watch ? [watch.then(() => false)] : [];
      for (const address of new Set(addresses.map((a) => a.toLowerCase()))) {
        if (isFresh(address)) continue;
        if (!inFlight.has(address)) {
          if (listTokens < 1) continue;
          listTokens -= 1;
        }
        checks.push(start(address));
      }
      if (options.wait === false) return false;
      return checks.length > 0 ? waited(checks) : false;
    },
  };
}
