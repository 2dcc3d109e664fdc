import { knownAddress } from '../core/hex.js';
import type { Logger } from '../core/log.js';
import type { Address, Hex } from '../core/types.js';
import type { CopyRecogniser } from './recogniseCopies.js';

/** Reads of an unverified address ask this first: it may be a copy of a verified contract. */
export interface CopyLookup {
  /** True when `address` is verified now (as a copy); false when it is not, or the check did not finish in time. */
  tryVerify(address: Address, runtimeCode?: Hex): Promise<boolean>;
  /**
   * True when `address` is verified now as an exact copy: one of the stored compilations of the
   * metadata its code pins is a full match. What a submission waits for: a partial copy is
   * left to the chain follower and to reads, and the submission's own job may better it.
   */
  tryVerifyExact(address: Address, runtimeCode: Hex): Promise<boolean>;
}

export interface CopyLookupOptions {
  recogniser: CopyRecogniser;
  logger: Logger;
  /** The longest a read waits for the check (default 3000 ms); the check goes on after that. */
  waitMs?: number;
  /** How long "not a copy" is remembered per address (default 10 s; an address with no code, 2 s). */
  negativeTtlMs?: number;
  /** At most this many addresses remembered (default 10,000). */
  maxRemembered?: number;
}

/**
 * Checks unverified addresses on read, once at a time per address, remembering for a few
 * seconds those that are not copies (wallets ask for the ABI of every address they see).
 */
export function createCopyLookup(options: CopyLookupOptions): CopyLookup {
  const waitMs = options.waitMs ?? 3000;
  const negativeTtl = options.negativeTtlMs ?? 10_000;
  const max = options.maxRemembered ?? 10_000;
  const notCopies = new Map<string, number>();
  const inFlight = new Map<string, Promise<boolean>>();

  const remember = (address: string, ms: number): void => {
    if (notCopies.size >= max) notCopies.delete(notCopies.keys().next().value!);
    notCopies.set(address, Date.now() + ms);
  };

  const withinWait = async (check: Promise<boolean>): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    try {
      return await Promise.race([check, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  const failedCheck = (address: string) => (error: unknown) => {
    options.logger.warn({ address, err: error instanceof Error ? error.message : String(error) }, 'could not check whether an address is a copy');
    return false;
  };

  return {
    tryVerifyExact(address, runtimeCode) {
      const key = address.toLowerCase();
      const check = options.recogniser
        .recognise(knownAddress(key), { runtimeCode, ownMetadataOnly: true })
        .then((outcome) => outcome === 'verified' || outcome === 'already_verified')
        .catch(failedCheck(key));
      return withinWait(check);
    },
    async tryVerify(address, runtimeCode) {
      const key = address.toLowerCase();
      const until = notCopies.get(key);
      if (until !== undefined) {
        if (until > Date.now()) return false;
        notCopies.delete(key);
      }
      let check = inFlight.get(key);
      if (!check) {
        check = options.recogniser
          .recognise(knownAddress(key), runtimeCode ? { runtimeCode } : {})
          .then((outcome) => {
            if (outcome === 'verified' || outcome === 'already_verified') return true;
            remember(key, outcome === 'no_code' ? Math.min(2000, negativeTtl) : negativeTtl);
            return false;
          })
          .catch(failedCheck(key))
          .finally(() => inFlight.delete(key));
        inFlight.set(key, check);
      }
      return withinWait(check);
    },
  };
}
