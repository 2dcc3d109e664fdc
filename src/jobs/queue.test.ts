import { pino } from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { proxyJob, sourceJob } from '../../test/helpers/jobs.js';
import { SolproofError } from '../core/errors.js';
import type { JobResult } from '../core/jobResults.js';
import type { Address } from '../core/types.js';
import { claimNextJob, countJobs, getJob, insertJob, LeaseLostError, type VerificationJob } from '../store/verificationJobs.js';
import { proxyStatusText, verifyStatusText } from '../texts/index.js';
import { type JobRunner, type JobRunnerOptions, startJobRunner } from './queue.js';

/** The number a test job carries (in its optimizer runs). */
const runsOf = (job: VerificationJob): number => (job.request?.kind === 'source' && 'runs' in job.request.submission ? job.request.submission.runs : -1);
/** Whether a test job is one that recovers (marked by viaIR). */
const recovers = (job: VerificationJob): boolean => job.request?.kind === 'source' && 'viaIR' in job.request.submission && job.request.submission.viaIR;

/** A pass that names the job's number, to tell whose result was recorded. */
const passedWithRuns = (runs: number): JobResult => ({
  outcome: 'source_pass',
  document: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full', metadataSettingsFromCode: [{ setting: 'runs', from: '200', to: String(runs) }] },
});

const logger = pino({ level: 'silent' });
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

describeOnDialects('job runner', (dialect) => {
  const stores = useTestStores(dialect);
  let runner: JobRunner | undefined;
  beforeEach(async () => {
    await stores.store.db.deleteFrom('verificationJobs').execute();
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });

  function run(options: Partial<JobRunnerOptions> & Pick<JobRunnerOptions, 'handler'>): JobRunner {
    runner = startJobRunner({ db: stores.store.db, concurrency: 2, leaseMs: 5_000, pollMs: 50, owner: 'test-runner', logger, ...options });
    return runner;
  }
  const finished = (receipt: string) =>
    waitFor(async () => {
      const job = await getJob(stores.store.db, receipt);
      return job && job.state !== 'queued' && job.state !== 'running' ? job : null;
    });

  it('runs every job once, never more at a time than its concurrency', async () => {
    const receipts: string[] = [];
    for (let i = 0; i < 12; i++) {
      receipts.push((await insertJob(stores.store.db, { request: sourceJob(addr(i), { runs: i }) })).receipt);
    }
    let now = 0;
    let peak = 0;
    const seen: number[] = [];
    run({
      concurrency: 3,
      handler: async (job) => {
        peak = Math.max(peak, ++now);
        seen.push(runsOf(job));
        await sleep(30);
        now--;
        return { state: 'pass', result: passedWithRuns(runsOf(job)) };
      },
    });

    for (const r of receipts) await finished(r);
    expect(peak).toBe(3);
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    expect(await countJobs(stores.store.db)).toMatchObject({ pass: 12, queued: 0, running: 0 });
    expect(await getJob(stores.store.db, receipts[4]!)).toMatchObject({
      state: 'pass',
      resultText: null,
      result: passedWithRuns(4),
      attempts: 1,
      leaseOwner: null,
    });
  });

  it('starts a job right away on wake(), without waiting for the poll', async () => {
    // The next poll is past the test's end: only wake() can start the job.
    run({ pollMs: 600_000, handler: async () => ({ state: 'pass' }) });
    await sleep(50); // the first, empty poll is over
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(1)) });
    runner!.wake();
    expect(await finished(job.receipt)).toMatchObject({ state: 'pass' });
  });

  it('retries a job after the delay its handler asked for', async () => {
    const starts: number[] = [];
    run({
      handler: async (job) => {
        starts.push(Date.now());
        return job.attempts === 1 ? { retry: true, delayMs: 300, error: 'RPC node unreachable' } : { state: 'pass' };
      },
    });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(2)) });
    runner!.wake();
    const waiting = await waitFor(async () => {
      const j = await getJob(stores.store.db, job.receipt);
      return j?.lastError ? j : null;
    });
    expect(waiting).toMatchObject({ state: 'queued', lastError: 'RPC node unreachable', attempts: 1 });
    const done = await finished(job.receipt);
    expect(done).toMatchObject({ state: 'pass', attempts: 2 });
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(300);
  });

  it('fails a job whose handler throws, and words it with the generic text for its kind', async () => {
    run({
      handler: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    const source = await insertJob(stores.store.db, { request: sourceJob(addr(3)) });
    const proxy = await insertJob(stores.store.db, { request: proxyJob(addr(4)) });
    runner!.wake();
    const failedSource = await finished(source.receipt);
    expect(failedSource).toMatchObject({
      state: 'fail',
      resultText: null,
      result: { outcome: 'unfinished', document: { error: { code: 'internal', message: 'cannot read properties of undefined' } } },
      attempts: 1,
    });
    // The unexpected error's own text stays in the logs.
    expect(verifyStatusText(failedSource!, true)).toEqual({
      ok: false,
      text: 'Fail - Unable to verify. The verification could not be completed; please try again later.',
    });
    expect(verifyStatusText(failedSource!, false)).toEqual({ ok: false, text: 'Fail - Unable to verify' });
    const failedProxy = await finished(proxy.receipt);
    expect(failedProxy).toMatchObject({ state: 'fail', resultText: null });
    expect(proxyStatusText(failedProxy!)).toEqual({ ok: false, text: 'The proxy could not be checked; please try again later.' });
  });

  it('retries a thrown retryable error and gives up after maxAttempts', async () => {
    const calls = new Map<string, number>();
    run({
      maxAttempts: 3,
      retryDelayMs: 20,
      handler: async (job) => {
        calls.set(job.receipt, (calls.get(job.receipt) ?? 0) + 1);
        if (recovers(job) && job.attempts === 2) {
          return { state: 'pass' };
        }
        throw new SolproofError(
          'chain_unavailable',
          { method: 'eth_getCode', reason: 'unreachable', nodeMessage: 'RPC node unreachable' },
          { retryable: true },
        );
      },
    });
    const recovering = await insertJob(stores.store.db, { request: sourceJob(addr(5), { viaIR: true }) });
    const never = await insertJob(stores.store.db, { request: sourceJob(addr(6)) });
    runner!.wake();
    expect(await finished(recovering.receipt)).toMatchObject({ state: 'pass', attempts: 2 });
    expect(await finished(never.receipt)).toMatchObject({
      state: 'fail',
      resultText: null,
      attempts: 3,
      result: {
        outcome: 'unfinished',
        document: { error: { code: 'attempts_exhausted', message: expect.stringContaining('"nodeMessage":"RPC node unreachable"') } },
      },
    });
    expect(calls.get(never.receipt)).toBe(3);
  });

  it('keeps the lease alive while a slow handler runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    run({
      leaseMs: 150,
      handler: async () => {
        await gate;
        return { state: 'pass' };
      },
    });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(7)) });
    runner!.wake();
    await waitFor(async () => (await getJob(stores.store.db, job.receipt))?.state === 'running');
    await sleep(500); // more than three lease lengths
    expect(await claimNextJob(stores.store.db, { owner: 'intruder', leaseMs: 1_000 })).toBeNull();
    release();
    expect(await finished(job.receipt)).toMatchObject({ state: 'pass', attempts: 1 });
  });

  it('picks up a job left running by a dead worker once its lease expires', async () => {
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(8)) });
    await claimNextJob(stores.store.db, { owner: 'dead-worker', leaseMs: 200 });
    const seen: VerificationJob[] = [];
    run({
      handler: async (j) => {
        seen.push(j);
        return { state: 'pass' };
      },
    });
    expect(await finished(job.receipt)).toMatchObject({ state: 'pass', attempts: 2 });
    expect(seen.map((j) => j.leaseOwner)).toEqual(['test-runner']);
  });

  it('stop() waits for running handlers to finish', async () => {
    let started = false;
    run({
      handler: async () => {
        started = true;
        await sleep(200);
        return { state: 'pass' };
      },
    });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(9)) });
    runner!.wake();
    // The handler itself, not the claim: a claim seen committed by another connection may not
    // have reached the runner yet, and a runner stopped then puts the job back unstarted.
    await waitFor(async () => started);
    await runner!.stop();
    expect(await getJob(stores.store.db, job.receipt)).toMatchObject({ state: 'pass' });
  });

  it('stop() gives up on a stuck handler after its bound, puts its job back in the queue at once and aborts it', async () => {
    let signal: AbortSignal | undefined;
    run({
      stopTimeoutMs: 100,
      handler: (_job, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(10)) });
    runner!.wake();
    // The claim marks the job running a moment before the handler is called: wait for the handler.
    await waitFor(async () => signal !== undefined);
    // The handler never settles: stop() returning at all is it giving up.
    await runner!.stop();
    expect(signal?.aborted).toBe(true);
    // Released, not left leased: another runner claims it now, not when the lease lapses; the attempt is not counted.
    expect(await getJob(stores.store.db, job.receipt)).toMatchObject({ state: 'queued', leaseOwner: null, leaseUntil: null, attempts: 0 });
  });

  it("full, it puts back its newest job over a key's share for another key's job, which runs at once; every job passes once", async () => {
    const started: string[] = [];
    const stoppedBy = new Map<string, unknown>();
    const gates = new Map<string, () => void>();
    run({
      concurrency: 2,
      perKeyRunning: 1,
      pollMs: 600_000,
      handler: (job, ctx) =>
        new Promise((resolve) => {
          started.push(job.receipt);
          gates.set(job.receipt, () => resolve({ state: 'pass' }));
          ctx.signal.addEventListener('abort', () => {
            stoppedBy.set(job.receipt, ctx.signal.reason);
            resolve({ retry: true, delayMs: 0, error: 'stopped' });
          });
        }),
    });
    const a = [];
    for (let i = 0; i < 3; i++) a.push(await insertJob(stores.store.db, { request: sourceJob(addr(60 + i)), apiKeyId: 'key_a', now: 1_000 + i }));
    runner!.wake();
    // Nobody else waits: key A takes both slots, one over its share.
    await waitFor(async () => started.length === 2);
    expect(started).toEqual([a[0]!.receipt, a[1]!.receipt]);
    const b = await insertJob(stores.store.db, { request: sourceJob(addr(70)), apiKeyId: 'key_b' });
    runner!.wake();
    await waitFor(async () => started.includes(b.receipt));
    // A's newer job went back to the queue, its attempt not counted, and its handler was stopped.
    expect(await getJob(stores.store.db, a[1]!.receipt)).toMatchObject({ state: 'queued', attempts: 0, leaseOwner: null });
    expect(String(stoppedBy.get(a[1]!.receipt))).toContain("another key's job");
    expect(await getJob(stores.store.db, a[0]!.receipt)).toMatchObject({ state: 'running', attempts: 1 });
    expect(runner!.running()).toBe(2);
    // Finishing jobs frees slots: A's other jobs run in turn and pass once each.
    const open = async () => {
      for (const [receipt, pass] of gates) {
        gates.delete(receipt);
        pass();
      }
    };
    for (const job of [...a, b]) {
      await waitFor(async () => {
        await open();
        const j = await getJob(stores.store.db, job.receipt);
        return j?.state === 'pass' ? j : null;
      });
    }
    expect((await getJob(stores.store.db, a[1]!.receipt))?.attempts).toBe(1);
    expect(await countJobs(stores.store.db)).toMatchObject({ pass: 4, queued: 0, running: 0 });
  });

  it('a handler that finds its lease lost records nothing, and the job is left to the runner that holds it', async () => {
    let thrown = false;
    run({
      handler: async (job) => {
        // Another runner took the job over while this one ran it.
        await stores.store.db.updateTable('verificationJobs').set({ leaseOwner: 'other-runner' }).where('receipt', '=', job.receipt).execute();
        thrown = true;
        throw new LeaseLostError(job.receipt);
      },
    });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(80)) });
    runner!.wake();
    await waitFor(async () => thrown);
    await sleep(100);
    expect(await getJob(stores.store.db, job.receipt)).toMatchObject({ state: 'running', leaseOwner: 'other-runner', result: null });
  });

  it("with polls an hour apart, it takes a dead runner's job when its lease lapses and a retried job when it is due", async () => {
    const dead = await insertJob(stores.store.db, { request: sourceJob(addr(90)) });
    await claimNextJob(stores.store.db, { owner: 'dead-runner', leaseMs: 300 });
    const later = await insertJob(stores.store.db, { request: sourceJob(addr(91)), notBefore: Date.now() + 400 });
    const claimed: string[][] = [];
    run({
      pollMs: 3_600_000,
      handler: async () => {
        await sleep(100);
        return { state: 'pass' };
      },
      onClaimed: (running) => claimed.push([...running]),
    });
    expect(await finished(dead.receipt)).toMatchObject({ state: 'pass', attempts: 2 });
    expect(await finished(later.receipt)).toMatchObject({ state: 'pass', attempts: 1 });
    // Each round of claims reported what the runner ran then: both jobs, each in its turn.
    expect(claimed.flat()).toEqual(expect.arrayContaining([dead.receipt, later.receipt]));
  });
});
