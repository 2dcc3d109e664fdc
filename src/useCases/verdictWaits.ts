/**
 * The status check's long poll. Clients check a job's status right after submitting it and,
 * when it is still pending, sleep before the next check: forge a fixed 15 s, hardhat-verify
 * and OpenZeppelin's plugin 3 s. A verdict usually comes well under a second after the
 * submission, so a check of a young job that is still running waits for it, briefly, and the
 * client reads the verdict on its first check instead of sleeping.
 *
 * The wait is bounded well below every timeout on the way: the service closes a socket idle
 * for 30 s (IDLE_TIMEOUT_MS), reverse proxies commonly after 60 s, and the clients wait far
 * longer (forge: no timeout; hardhat-verify 2, OpenZeppelin: undici's 300 s; Hardhat 3: 300 s).
 * Only checks made within WAIT_WINDOW_MS of the submission wait (a job queued behind a long
 * backlog is answered at once, as before), at most MAX_WAITING at a time per process, and none
 * once the service is shutting down.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { finishedAmong } from '../store/verificationJobs.js';

/** Checks of a job made this long after its submission wait; later ones are answered at once. */
export const WAIT_WINDOW_MS = 120_000;
/** Checks waiting at once in one process: past this, a check is answered at once. */
export const MAX_WAITING = 256;
/** How often the states of the jobs being waited on are read (one query for all of them). */
const POLL_MS = 50;

export interface VerdictWaitOptions {
  /** The longest one check waits (0: never). */
  waitMs: number;
  windowMs?: number;
  maxWaiting?: number;
  pollMs?: number;
  now?: () => number;
}

export class VerdictWaits {
  private readonly waiters = new Map<string, Set<() => void>>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly windowMs: number;
  private readonly maxWaiting: number;
  private readonly pollMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: VerdictWaitOptions,
  ) {
    this.windowMs = options.windowMs ?? WAIT_WINDOW_MS;
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING;
    this.pollMs = options.pollMs ?? POLL_MS;
    this.now = options.now ?? Date.now;
  }

  /** How long a check of a job queued at `createdAt` may wait now (0: answer at once). */
  allowance(createdAt: number): number {
    if (this.stopped || this.options.waitMs <= 0 || this.count >= this.maxWaiting) return 0;
    const age = this.now() - createdAt;
    return age >= 0 && age < this.windowMs ? this.options.waitMs : 0;
  }

  /** Resolves once the job has its final state, or after `waitMs`, or when the service stops waiting. */
  wait(receipt: string, waitMs: number): Promise<void> {
    if (waitMs <= 0 || this.stopped) return Promise.resolve();
    this.count++;
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(receipt);
      if (!set) this.waiters.set(receipt, (set = new Set()));
      const waiters = set;
      const done = () => {
        clearTimeout(deadline);
        if (!waiters.delete(done)) return;
        if (waiters.size === 0 && this.waiters.get(receipt) === waiters) this.waiters.delete(receipt);
        this.count--;
        resolve();
      };
      const deadline = setTimeout(done, waitMs);
      waiters.add(done);
      this.schedule();
    });
  }

  /** Answers every waiting check now and waits no more (the service is shutting down). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const receipt of [...this.waiters.keys()]) this.release(receipt);
  }

  /** Checks waiting now. */
  waiting(): number {
    return this.count;
  }

  private release(receipt: string): void {
    for (const done of [...(this.waiters.get(receipt) ?? [])]) done();
  }

  private schedule(): void {
    if (this.timer || this.waiters.size === 0 || this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), this.pollMs);
  }

  private async poll(): Promise<void> {
    try {
      const finished = await finishedAmong(this.db, [...this.waiters.keys()]);
      for (const receipt of finished) this.release(receipt);
    } catch {
      // A failed read only delays the answer: the check ends at its deadline and reads the job itself.
    } finally {
      this.timer = null;
      this.schedule();
    }
  }
}
