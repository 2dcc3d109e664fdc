import type { Kysely } from 'kysely';
import { type JobResult, storedError } from '../core/jobResults.js';
import type { Logger } from '../core/log.js';
import type { ServiceMetrics } from '../core/metrics.js';
import type { Database } from '../store/database.js';
import {
  claimNextJob,
  type FinalJobState,
  finishJob,
  keysOverShare,
  LeaseLostError,
  nextDueAt,
  releaseJob,
  renewLease,
  retryJob,
  type VerificationJob,
} from '../store/verificationJobs.js';

/** What a handler decided: a final state, or "try again later" for passing trouble. */
export type JobOutcome =
  /** `result`: codes and facts only (core/jobResults.ts); the texts are worded when the receipt is read. */
  | { state: FinalJobState; result?: JobResult }
  /** `error`: the error as `storedError` keeps it. */
  | { retry: true; delayMs: number; error: string };

export interface JobHandlerContext {
  /** Aborted when the runner lost the job's lease, put the job back for another key's (its key is over its share), or gave up waiting for it at stop(). */
  signal: AbortSignal;
}

/**
 * Runs one job. Throwing is allowed: an error with `retryable: true` (SolproofError's
 * flag) puts the job back in the queue with backoff, anything else fails it.
 */
export type JobHandler = (job: VerificationJob, context: JobHandlerContext) => Promise<JobOutcome>;

export interface JobRunnerOptions {
  db: Kysely<Database>;
  handler: JobHandler;
  /** Jobs run at the same time by this runner. */
  concurrency: number;
  /**
   * A key's share: its jobs running at once across every runner of the store (default: no
   * limit). Past it a key's jobs take only slots that no other key's job waits for; when one
   * waits and this runner is full, the newest of its jobs over a key's share is put back in the
   * queue (not counted as an attempt) and the waiting job runs in its place.
   */
  perKeyRunning?: number | undefined;
  /** How long a claim holds a job; renewed every leaseMs/3 while the handler runs. */
  leaseMs: number;
  /** How often to look for due jobs when nobody calls wake() (a job's retry time or a lapsing lease is also waited for, when sooner). */
  pollMs: number;
  /** This runner's name in the lease column; unique per process. */
  owner: string;
  logger: Logger;
  /** Claims per job before it fails for good (default 5). */
  maxAttempts?: number;
  /** First delay after a thrown retryable error, doubled per attempt up to 5 min (default 5000). */
  retryDelayMs?: number;
  /** How long stop() waits for running handlers before it releases their jobs (default 30000). */
  stopTimeoutMs?: number;
  /** Counts jobs and their durations by outcome. */
  metrics?: Pick<ServiceMetrics, 'jobDone'>;
  /**
   * Called after each round of claims with the receipts of the jobs this runner runs now, and
   * when (performance.now()) the round's last look at the queue began: a job queued before that
   * and not among them was left to others, or to wait.
   */
  onClaimed?: (running: ReadonlySet<string>, lookedAt: number) => void;
}

export interface JobRunner {
  /**
   * Stops claiming and waits for running handlers; those still running after `stopTimeoutMs`
   * are stopped and their jobs put back in the queue at once (another runner may claim them
   * right away, without waiting for the lease to lapse).
   */
  stop(): Promise<void>;
  /** Jobs running now (not counting those put back in the queue whose handlers are still stopping). */
  running(): number;
  /** Looks for due jobs now instead of at the next poll (call after inserting one). */
  wake(): void;
}

const MAX_RETRY_DELAY_MS = 5 * 60_000;
const MAX_HANDLER_RETRY_DELAY_MS = 60_000;

/** A job that ends without a verdict of its own, with its last error. */
function unfinished(code: string, message: string): JobResult {
  return { outcome: 'unfinished', document: { error: { code, message } } };
}

/** The wait before attempt `attempts + 1` of a job that asked to be retried: doubling from `baseMs`, at most a minute. */
export function retryDelay(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_HANDLER_RETRY_DELAY_MS);
}

/**
 * Starts taking jobs from the durable queue and running them with `handler`, at most
 * `concurrency` at once. Every claimed job ends up recorded: the handler's outcome, a
 * retry for retryable errors, or 'fail' for anything unexpected, so no job stays
 * 'running' after its handler returns.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, handler, owner, logger } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const leaseMs = Math.max(1, options.leaseMs);
  const pollMs = Math.max(1, options.pollMs);
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const retryDelayMs = Math.max(0, options.retryDelayMs ?? 5_000);
  const stopTimeoutMs = Math.max(0, options.stopTimeoutMs ?? 30_000);
  const perKey = options.perKeyRunning ? Math.max(1, Math.floor(options.perKeyRunning)) : undefined;

  interface Running {
    promise: Promise<void>;
    controller: AbortController;
    job: VerificationJob;
    /** Put back in the queue: whatever its handler does next is not recorded. */
    released: boolean;
    /** Order of start, to put back the newest first. */
    order: number;
  }
  const running = new Map<number, Running>();
  let nextRunId = 0;
  let stopped = false;
  /** True while a claim loop runs; its promise lets stop() wait for it. */
  let filling = false;
  let fillDone: Promise<void> = Promise.resolve();
  let fillAgain = false;
  let dueTimer: NodeJS.Timeout | undefined;

  /** The jobs whose outcome this runner still records. */
  const active = (): Running[] => [...running.values()].filter((r) => !r.released);

  /** Claims due jobs until the runner is full or the queue is empty. */
  function fill(): void {
    if (stopped) return;
    if (filling) {
      // A job inserted while a claim was in flight may have been invisible to it.
      fillAgain = true;
      return;
    }
    filling = true;
    fillDone = claimUntilFull().finally(() => {
      filling = false;
      // Asked again after the last look at the queue: look once more.
      if (fillAgain) fill();
    });
  }

  async function claimUntilFull(): Promise<void> {
    let lookedAt = performance.now();
    try {
      do {
        fillAgain = false;
        lookedAt = performance.now();
        while (!stopped && active().length < concurrency) {
          const job = await claimNextJob(db, { owner, leaseMs, perKeyRunning: perKey });
          if (!job) break;
          if (stopped) {
            await retryJob(db, job.receipt, { delayMs: 0, error: 'runner stopped before starting', owner });
            break;
          }
          start(job);
        }
        if (!stopped && perKey !== undefined && active().length >= concurrency) await makeRoom(perKey);
      } while (fillAgain && !stopped);
      claimed(lookedAt);
      await wakeWhenDue();
    } catch (err) {
      claimed(lookedAt);
      // The database is unreachable or failing: try again shortly.
      logger.error({ err, owner }, 'claiming a verification job failed');
      wakeIn(Math.min(pollMs, 1000));
    }
  }

  function claimed(lookedAt: number): void {
    options.onClaimed?.(new Set(active().map((r) => r.job.receipt)), lookedAt);
  }

  /**
   * Full, while a job of a key within its share waits: one of this runner's jobs of a key over
   * its share (the newest) goes back to the queue and the waiting job runs instead. The
   * waiting job is claimed first, so that of two full runners only the one that got it puts a
   * job back.
   */
  async function makeRoom(share: number): Promise<void> {
    while (!stopped) {
      const keyed = active().filter((r) => r.job.apiKeyId !== null);
      if (keyed.length === 0) return;
      const over = await keysOverShare(db, [...new Set(keyed.map((r) => r.job.apiKeyId!))], share);
      if (over.size === 0) return;
      const job = await claimNextJob(db, { owner, leaseMs, perKeyRunning: share, withinShare: true });
      if (!job) return;
      const victim = active()
        .filter((r) => r.job.apiKeyId !== null && r.job.apiKeyId !== job.apiKeyId && over.has(r.job.apiKeyId))
        .sort((a, b) => b.order - a.order)[0];
      if (victim) {
        logger.info(
          { receipt: victim.job.receipt, key: victim.job.apiKeyId, for: job.receipt },
          "a job over its key's share was put back in the queue for another key's job",
        );
        await putBack(victim, "put back for another key's job");
      }
      start(job);
    }
  }

  /** Releases a running job at once (another runner may claim it right away) and stops its handler. */
  async function putBack(r: Running, why: string): Promise<void> {
    r.released = true;
    try {
      if (await releaseJob(db, r.job.receipt, owner)) options.metrics?.jobDone(r.job.kind, 'released', 0);
    } catch (err) {
      logger.warn({ err, receipt: r.job.receipt }, 'could not put a running job back in the queue; it is taken again when its lease lapses');
    }
    r.controller.abort(new Error(why));
  }

  /** With room left, looks again when the next job is due (a retry's time, a lapsing lease), when that is sooner than the next poll. */
  async function wakeWhenDue(): Promise<void> {
    if (stopped || active().length >= concurrency) return;
    const at = await nextDueAt(db);
    if (at !== null) wakeIn(Math.max(0, at - Date.now()) + 1);
  }

  function wakeIn(ms: number): void {
    if (stopped || ms >= pollMs) return;
    clearTimeout(dueTimer);
    dueTimer = setTimeout(fill, ms);
    dueTimer.unref?.();
  }

  function start(job: VerificationJob): void {
    const id = nextRunId++;
    const controller = new AbortController();
    const entry: Running = { promise: Promise.resolve(), controller, job, released: false, order: id };
    entry.promise = runJob(job, controller, entry)
      .catch((err) => logger.error({ err, receipt: job.receipt }, 'recording a job outcome failed'))
      .finally(() => {
        running.delete(id);
        fill();
      });
    running.set(id, entry);
  }

  async function runJob(job: VerificationJob, controller: AbortController, entry: { released: boolean }): Promise<void> {
    const log = logger.child({ receipt: job.receipt, kind: job.kind, address: job.address, attempt: job.attempts });
    if (job.attempts > maxAttempts) {
      // Claimed again after its lease lapsed too often: its handler keeps killing workers.
      log.warn('verification job abandoned after too many attempts');
      await record(job, { state: 'fail', result: unfinished('attempts_exhausted', job.lastError ?? 'lease expired repeatedly') });
      return;
    }

    let leaseLost = false;
    const loseLease = (): void => {
      if (leaseLost || entry.released) return;
      leaseLost = true;
      log.warn('lease on a running verification job was lost');
      controller.abort(new Error('lease lost'));
    };
    const renewEvery = Math.max(10, Math.floor(leaseMs / 3));
    const renewTimer = setInterval(() => {
      renewLease(db, job.receipt, { owner, leaseMs }).then(
        (held) => {
          if (!held) loseLease();
        },
        (err) => log.warn({ err }, 'renewing a job lease failed'),
      );
    }, renewEvery);

    let outcome: JobOutcome;
    const startedAt = Date.now();
    try {
      outcome = await handler(job, { signal: controller.signal });
    } catch (err) {
      if (err instanceof LeaseLostError) loseLease();
      outcome = outcomeOfError(job, err);
      if (!('retry' in outcome) && !leaseLost && !entry.released) log.error({ err }, 'verification job failed unexpectedly');
    } finally {
      clearInterval(renewTimer);
    }
    if (leaseLost || entry.released) return; // Another runner owns the job now (or may): its attempt decides.

    if ('retry' in outcome && job.attempts >= maxAttempts) {
      log.warn({ error: outcome.error }, 'verification job failed after its last attempt');
      outcome = { state: 'fail', result: unfinished('attempts_exhausted', outcome.error) };
    }
    await record(job, outcome);
    const ended = 'retry' in outcome ? 'retry' : outcome.state;
    options.metrics?.jobDone(job.kind, ended, (Date.now() - startedAt) / 1000);
    log.info({ ms: Date.now() - startedAt, sinceQueuedMs: Date.now() - job.createdAt, outcome: ended }, 'verification job done');
  }

  function outcomeOfError(job: VerificationJob, err: unknown): JobOutcome {
    const message = storedError(err);
    if (typeof err === 'object' && err !== null && (err as { retryable?: unknown }).retryable === true) {
      const delayMs = Math.min(retryDelayMs * 2 ** Math.max(0, job.attempts - 1), MAX_RETRY_DELAY_MS);
      return { retry: true, delayMs, error: message };
    }
    const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : 'internal';
    return { state: 'fail', result: unfinished(code, message.slice(0, 2000)) };
  }

  async function record(job: VerificationJob, outcome: JobOutcome): Promise<void> {
    // A short database hiccup should not leave the job to wait out its lease.
    for (let attempt = 1; ; attempt++) {
      try {
        const changed =
          'retry' in outcome
            ? await retryJob(db, job.receipt, { delayMs: outcome.delayMs, error: outcome.error, owner })
            : await finishJob(db, job.receipt, {
                state: outcome.state,
                result: outcome.result,
                owner,
              });
        if (!changed) logger.warn({ receipt: job.receipt }, 'job outcome not recorded: lease held by another runner');
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  const pollTimer = setInterval(fill, pollMs);
  fill();

  return {
    wake: fill,
    running: () => active().length,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(pollTimer);
      clearTimeout(dueTimer);
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timeout = setTimeout(() => resolve('timeout'), stopTimeoutMs);
      });
      try {
        await Promise.race([fillDone, timedOut]);
        const done = Promise.all([...running.values()].map((r) => r.promise));
        if ((await Promise.race([done, timedOut])) === 'timeout') {
          logger.warn({ owner, running: running.size }, 'stopping with verification jobs still running: putting them back in the queue');
          // Released first, then stopped: whatever the handler does after this is not recorded.
          await Promise.all(active().map((r) => putBack(r, 'runner stopped')));
        }
      } finally {
        clearTimeout(timeout);
      }
    },
  };
}
