import { afterEach, describe, expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { sourceJob } from '../../test/helpers/jobs.js';
import type { Store } from '../store/openStore.js';
import { finishJob, insertJob } from '../store/verificationJobs.js';
import { checkJob } from './jobStatus.js';
import { type VerdictWaitOptions, VerdictWaits } from './verdictWaits.js';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
/** Longer than any test runs: a check that reaches it has waited for nothing. */
const LONG_WAIT_MS = 600_000;

describeOnDialects('a status check of a running job', (dialect) => {
  const stores = useTestStores(dialect);
  let waits: VerdictWaits | undefined;
  afterEach(() => waits?.stop());

  const services = (store: Store, options: Partial<VerdictWaitOptions> = {}) => {
    waits = new VerdictWaits(store.db, { waitMs: LONG_WAIT_MS, pollMs: 5, ...options });
    return { store, verdicts: waits };
  };

  /** Resolves once `waits` has `n` checks waiting (their order against the test's own steps). */
  async function waiting(n: number): Promise<void> {
    while (waits!.waiting() !== n) await new Promise((r) => setTimeout(r, 2));
  }

  it('waits for the verdict and answers with it, also when another process writes it', async () => {
    const s = services(stores.store);
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(1)) });
    const check = checkJob(s, job.receipt);
    await waiting(1);
    // The verdict is written through another connection, as a worker process would.
    await finishJob(stores.other.db, job.receipt, { state: 'pass' });
    expect((await check)?.state).toBe('pass');
    expect(waits!.waiting()).toBe(0);
  });

  it('answers a check as the job stands once the wait is over', async () => {
    const s = services(stores.store, { waitMs: 1 });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(2)) });
    expect((await checkJob(s, job.receipt))?.state).toBe('queued');
  });

  it('answers at once a finished job, an unknown receipt, and a job past its first two minutes', async () => {
    const now = Date.now();
    const s = services(stores.store, { now: () => now });
    const done = await insertJob(stores.store.db, { request: sourceJob(addr(3)) });
    await finishJob(stores.store.db, done.receipt, { state: 'fail' });
    expect((await checkJob(s, done.receipt))?.state).toBe('fail');
    expect(await checkJob(s, 'x'.repeat(50))).toBeNull();
    const old = await insertJob(stores.store.db, { request: sourceJob(addr(4)), now: now - 121_000 });
    expect((await checkJob(s, old.receipt))?.state).toBe('queued');
    expect(waits!.allowance(now - 119_000)).toBe(LONG_WAIT_MS);
  });

  it('lets only so many checks wait at once; the others are answered at once', async () => {
    const s = services(stores.store, { maxWaiting: 2 });
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(5)) });
    const first = checkJob(s, job.receipt);
    const second = checkJob(s, job.receipt);
    await waiting(2);
    expect((await checkJob(s, job.receipt))?.state).toBe('queued');
    await finishJob(stores.store.db, job.receipt, { state: 'pass' });
    expect((await first)?.state).toBe('pass');
    expect((await second)?.state).toBe('pass');
  });

  it('answers every waiting check when the service stops, and waits no more after', async () => {
    const s = services(stores.store);
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(6)) });
    const check = checkJob(s, job.receipt);
    await waiting(1);
    waits!.stop();
    expect((await check)?.state).toBe('queued');
    expect((await checkJob(s, job.receipt))?.state).toBe('queued');
    expect(waits!.waiting()).toBe(0);
  });
});

describe('--status-wait-ms 0', () => {
  it('never waits', () => {
    const waits = new VerdictWaits({} as never, { waitMs: 0 });
    expect(waits.allowance(Date.now())).toBe(0);
  });
});
