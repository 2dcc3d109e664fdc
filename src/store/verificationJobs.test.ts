import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { proxyJob, sourceJob } from '../../test/helpers/jobs.js';
import type { JobResult } from '../core/jobResults.js';
import type { Address } from '../core/types.js';
import { quotaUsed } from './quotas.js';
import { queueSubmission } from './submissions.js';
import {
  assertLease,
  claimNextJob,
  countJobs,
  finishJob,
  getJob,
  getJobStatus,
  holdsLease,
  insertJob,
  keysOverShare,
  LeaseLostError,
  leaseOf,
  listJobsForAddress,
  newReceipt,
  nextDueAt,
  pruneJobPayloads,
  renewLease,
  requeueRunningJobs,
  retryJob,
  runningOfJobsKey,
} from './verificationJobs.js';

const T0 = 1_700_000_000_000;
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;

describeOnDialects('submissions', (dialect) => {
  const stores = useTestStores(dialect);
  beforeAll(async () => {
    await stores.store.db
      .insertInto('apiKeys')
      .values({ id: 'key_s', keyHash: 'h', keyPrefix: 'p', owner: null, tier: 'free', createdAt: T0, lastUsedAt: null, revokedAt: null })
      .execute();
  });

  it('of 20 concurrent submissions by one key, as many as its unfinished-job limit are queued, each counted once', async () => {
    const submit = (i: number) =>
      queueSubmission(i % 2 ? stores.store.db : stores.other.db, {
        request: sourceJob(addr(100 + i)),
        apiKeyId: 'key_s',
        quota: { kind: 'verify', limit: 100 },
        maxUnfinished: 5,
      });
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(i)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    for (const o of outcomes.filter((o) => !o.ok)) expect(o).toEqual({ ok: false, reason: 'unfinished', unfinished: 5 });
    expect(await quotaUsed(stores.store.db, 'key_s', 'verify')).toBe(5);
    const running = await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 60_000 });
    await finishJob(stores.store.db, running!.receipt, { state: 'pass' });
    expect((await submit(99)).ok).toBe(true);
  });
});

describe('newReceipt', () => {
  it('is 50 lower-case letters and digits, different every time', () => {
    const receipts = new Set(Array.from({ length: 1000 }, newReceipt));
    expect(receipts.size).toBe(1000);
    for (const r of receipts) expect(r).toMatch(/^[a-z0-9]{50}$/);
  });
});

describeOnDialects('verification jobs', (dialect) => {
  const stores = useTestStores(dialect);
  beforeEach(async () => {
    await stores.store.db.deleteFrom('verificationJobs').execute();
  });

  it('queues a job that reads back as submitted', async () => {
    const request = sourceJob('0x00000000000000000000000000000000000000ab', { contractName: 'Box', libraries: [{ name: 'L', address: addr(7) }] });
    const job = await insertJob(stores.store.db, {
      request,
      apiKeyId: 'key_abc',
      now: T0,
    });
    expect(job.receipt).toMatch(/^[a-z0-9]{50}$/);
    const expected = {
      receipt: job.receipt,
      kind: 'source',
      address: '0x00000000000000000000000000000000000000ab',
      state: 'queued',
      request,
      resultText: null,
      result: null,
      lastError: null,
      apiKeyId: 'key_abc',
      attempts: 0,
      notBefore: T0,
      leaseOwner: null,
      leaseUntil: null,
      createdAt: T0,
      updatedAt: T0,
      finishedAt: null,
      payloadPrunedAt: null,
    };
    expect(job).toEqual(expected);
    expect(await getJob(stores.other.db, job.receipt)).toEqual(expected);
    expect(await getJob(stores.store.db, newReceipt())).toBeNull();
    expect((await listJobsForAddress(stores.store.db, '0x00000000000000000000000000000000000000Ab')).map((j) => j.receipt)).toEqual([job.receipt]);
  });

  it('claims the oldest due job and leaves future ones alone', async () => {
    const later = await insertJob(stores.store.db, { request: sourceJob(addr(1)), now: T0 + 10 });
    const older = await insertJob(stores.store.db, { request: proxyJob(addr(2)), now: T0 });
    await insertJob(stores.store.db, { request: sourceJob(addr(3)), now: T0, notBefore: T0 + 60_000 });

    // Leases outlast the last claim below, so only the delayed job can be due then.
    const first = await claimNextJob(stores.store.db, { owner: 'w1', leaseMs: 120_000, now: T0 + 100 });
    expect(first).toMatchObject({
      receipt: older.receipt,
      kind: 'proxy',
      state: 'running',
      leaseOwner: 'w1',
      leaseUntil: T0 + 120_100,
      attempts: 1,
    });
    expect((await claimNextJob(stores.store.db, { owner: 'w1', leaseMs: 120_000, now: T0 + 100 }))?.receipt).toBe(later.receipt);
    expect(await claimNextJob(stores.store.db, { owner: 'w1', leaseMs: 120_000, now: T0 + 100 })).toBeNull();
    expect((await claimNextJob(stores.store.db, { owner: 'w1', leaseMs: 30_000, now: T0 + 60_000 }))?.address).toBe(addr(3));
  });

  it("shares the runners between keys: another key's job goes before a key's backlog; past its share a key takes only slots nobody else waits for", async () => {
    // Key A queued five jobs before key B queued one.
    const a = [];
    for (let i = 0; i < 5; i++) a.push(await insertJob(stores.store.db, { request: sourceJob(addr(10 + i)), apiKeyId: 'key_a', now: T0 + i }));
    const b = await insertJob(stores.store.db, { request: sourceJob(addr(20)), apiKeyId: 'key_b', now: T0 + 100 });
    const claim = (withinShare = false) => claimNextJob(stores.store.db, { owner: 'w', leaseMs: 60_000, now: T0 + 200, perKeyRunning: 2, withinShare });
    expect((await claim())?.receipt).toBe(a[0]!.receipt);
    // A has one running, B none: B's job goes next although it is the newest.
    expect((await claim())?.receipt).toBe(b.receipt);
    expect((await claim())?.receipt).toBe(a[1]!.receipt);
    // A is at its share of two running jobs: a runner that takes only jobs within their key's share gets none...
    expect(await claim(true)).toBeNull();
    expect(await keysOverShare(stores.store.db, ['key_a', 'key_b'], 2, T0 + 200)).toEqual(new Set());
    // ...while a free slot that no other key's job waits for goes to A.
    expect((await claim())?.receipt).toBe(a[2]!.receipt);
    expect(await keysOverShare(stores.store.db, ['key_a', 'key_b'], 2, T0 + 200)).toEqual(new Set(['key_a']));
    // A job of a key within its share goes before A's, and jobs without a key are never held back.
    const c = await insertJob(stores.store.db, { request: sourceJob(addr(21)), apiKeyId: 'key_c', now: T0 + 150 });
    const internal = await insertJob(stores.store.db, { request: sourceJob(addr(30)), now: T0 + 160 });
    expect((await claim(true))?.receipt).toBe(c.receipt);
    expect((await claim(true))?.receipt).toBe(internal.receipt);
    expect(await claim(true)).toBeNull();
    expect((await claim())?.receipt).toBe(a[3]!.receipt);
    // Leases that lapsed are not counted.
    expect(await keysOverShare(stores.store.db, ['key_a'], 2, T0 + 60_200)).toEqual(new Set());
    expect(await runningOfJobsKey(stores.store.db, a[4]!.receipt, T0 + 200)).toEqual({ apiKeyId: 'key_a', running: 4 });
    expect(await runningOfJobsKey(stores.store.db, internal.receipt, T0 + 200)).toEqual({ apiKeyId: null, running: 0 });
    expect(await runningOfJobsKey(stores.store.db, newReceipt())).toBeNull();
  });

  it('knows when the next job is due: a retry time or a lapsing lease', async () => {
    expect(await nextDueAt(stores.store.db)).toBeNull();
    await insertJob(stores.store.db, { request: sourceJob(addr(40)), now: T0, notBefore: T0 + 5_000 });
    expect(await nextDueAt(stores.store.db)).toBe(T0 + 5_000);
    await insertJob(stores.store.db, { request: sourceJob(addr(41)), now: T0 });
    await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 3_000, now: T0 });
    expect(await nextDueAt(stores.store.db)).toBe(T0 + 3_000);
  });

  it("a lease is held while it is its owner's, and a write that checks it is refused once it was lost", async () => {
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(42)), now: T0 });
    const claimed = await claimNextJob(stores.store.db, { owner: 'slow', leaseMs: 1_000, now: T0 });
    const lease = leaseOf(claimed!)!;
    expect(lease).toEqual({ receipt: job.receipt, owner: 'slow' });
    // Lapsed (at T0 + 1 s) but taken by nobody: still its owner's to finish.
    expect(await holdsLease(stores.store.db, lease)).toBe(true);
    await claimNextJob(stores.other.db, { owner: 'fast', leaseMs: 1_000, now: T0 + 2_000 });
    expect(await holdsLease(stores.store.db, lease)).toBe(false);
    await expect(assertLease(stores.store.db, lease)).rejects.toBeInstanceOf(LeaseLostError);
    expect(leaseOf(job)).toBeUndefined();
  });

  it('gives 20 parallel claimers over 10 jobs 10 distinct jobs', async () => {
    const inserted = new Set<string>();
    for (let i = 0; i < 10; i++) {
      inserted.add((await insertJob(stores.store.db, { request: sourceJob(addr(100 + i)) })).receipt);
    }
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claimNextJob(i % 2 === 0 ? stores.store.db : stores.other.db, { owner: `w${i}`, leaseMs: 60_000 })),
    );
    const got = claims.filter((c) => c !== null).map((c) => c!.receipt);
    expect(got).toHaveLength(10);
    expect(new Set(got)).toEqual(inserted);
    expect(claims.filter((c) => c === null)).toHaveLength(10);
    const counts = await countJobs(stores.store.db);
    expect(counts).toEqual({ queued: 0, running: 10, pass: 0, fail: 0, already_verified: 0 });
    // Each job is held by the one claimer that got it.
    for (const c of claims.filter((c) => c !== null)) {
      expect((await getJob(stores.store.db, c!.receipt))?.leaseOwner).toBe(c!.leaseOwner);
    }
  });

  it('reclaims a job whose lease expired, and the old owner loses it', async () => {
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(5)), now: T0 });
    await claimNextJob(stores.store.db, { owner: 'dead', leaseMs: 1_000, now: T0 });
    expect(await renewLease(stores.store.db, job.receipt, { owner: 'dead', leaseMs: 1_000, now: T0 + 500 })).toBe(true);
    expect(await claimNextJob(stores.other.db, { owner: 'alive', leaseMs: 1_000, now: T0 + 1_400 })).toBeNull();

    const again = await claimNextJob(stores.other.db, { owner: 'alive', leaseMs: 1_000, now: T0 + 1_500 });
    expect(again).toMatchObject({ receipt: job.receipt, leaseOwner: 'alive', attempts: 2, leaseUntil: T0 + 2_500 });
    expect(await renewLease(stores.store.db, job.receipt, { owner: 'dead', leaseMs: 1_000, now: T0 + 1_600 })).toBe(false);
    expect(await finishJob(stores.store.db, job.receipt, { state: 'fail', owner: 'dead' })).toBe(false);
    expect(await retryJob(stores.store.db, job.receipt, { delayMs: 0, error: 'late', owner: 'dead' })).toBe(false);
    expect(await finishJob(stores.other.db, job.receipt, { state: 'pass', owner: 'alive', now: T0 + 1_700 })).toBe(true);
    expect(await getJob(stores.store.db, job.receipt)).toMatchObject({
      state: 'pass',
      resultText: null,
      leaseOwner: null,
      leaseUntil: null,
      finishedAt: T0 + 1_700,
    });
  });

  it('a passed job keeps no copy of its sources; failures keep theirs until pruned; receipts still answer', async () => {
    const source = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\n${'// an ERC-20-sized source\n'.repeat(1200)}contract Token {}\n`;
    const requestBytes = async (receipt: string) =>
      Buffer.byteLength(
        (await stores.store.db.selectFrom('verificationJobs').select('request').where('receipt', '=', receipt).executeTakeFirstOrThrow()).request,
      );
    const passed = await insertJob(stores.store.db, { request: sourceJob(addr(40), { sourceCode: source }), now: T0 });
    const failed = await insertJob(stores.store.db, { request: sourceJob(addr(41), { sourceCode: source }), now: T0 });
    const recent = await insertJob(stores.store.db, { request: sourceJob(addr(42), { sourceCode: source }), now: T0 });
    const queued = await insertJob(stores.store.db, { request: sourceJob(addr(43), { sourceCode: source }), now: T0 });
    const before = await requestBytes(passed.receipt);
    await finishJob(stores.store.db, passed.receipt, {
      state: 'pass',
      result: { outcome: 'source_pass', document: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' } },
      now: T0 + 1,
    });
    await finishJob(stores.store.db, failed.receipt, { state: 'fail', now: T0 + 1 });
    await finishJob(stores.store.db, recent.receipt, { state: 'fail', now: T0 + 10_000 });
    const afterPass = await requestBytes(passed.receipt);
    console.log(`job payload of a ${source.length}-byte source: ${before} bytes queued, ${afterPass} bytes once passed`);
    expect(afterPass).toBeLessThan(100);
    expect(await requestBytes(failed.receipt)).toBe(before);

    expect(await pruneJobPayloads(stores.store.db, { finishedBefore: T0 + 5_000, now: T0 + 20_000 })).toBe(1);
    expect(await requestBytes(failed.receipt)).toBeLessThan(100);
    expect(await requestBytes(recent.receipt)).toBe(before);
    expect(await requestBytes(queued.receipt)).toBe(before);
    expect(await pruneJobPayloads(stores.store.db, { finishedBefore: T0 + 5_000 })).toBe(0);
    // What receipts answer is untouched.
    expect(await getJobStatus(stores.other.db, passed.receipt)).toMatchObject({
      state: 'pass',
      result: { outcome: 'source_pass', document: { matchKind: 'full' } },
    });
    expect(await getJobStatus(stores.other.db, failed.receipt)).toMatchObject({ state: 'fail', payloadPrunedAt: T0 + 20_000 });
    expect((await getJob(stores.store.db, failed.receipt))?.request).toBeNull();
  });

  it('records the final state once and never overwrites it', async () => {
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(6)), now: T0 });
    await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 1_000, now: T0 });
    const verdict: JobResult = { outcome: 'source_pass', document: { matchKind: 'partial', creationMatch: null, runtimeMatch: 'partial' } };
    expect(
      await finishJob(stores.store.db, job.receipt, {
        state: 'already_verified',
        result: verdict,
        now: T0 + 5,
      }),
    ).toBe(true);
    expect(await finishJob(stores.store.db, job.receipt, { state: 'fail' })).toBe(false);
    expect(await getJob(stores.store.db, job.receipt)).toMatchObject({
      state: 'already_verified',
      resultText: null,
      result: verdict,
      finishedAt: T0 + 5,
    });
    expect(await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 1_000, now: T0 + 10_000 })).toBeNull();
  });

  it('puts a retried job back in the queue until its delay has passed', async () => {
    const job = await insertJob(stores.store.db, { request: sourceJob(addr(8)), now: T0 });
    await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 1_000, now: T0 });
    expect(await retryJob(stores.store.db, job.receipt, { delayMs: 5_000, error: 'node down', owner: 'w', now: T0 + 10 })).toBe(true);
    expect(await getJob(stores.store.db, job.receipt)).toMatchObject({
      state: 'queued',
      notBefore: T0 + 5_010,
      lastError: 'node down',
      leaseOwner: null,
      attempts: 1,
    });
    expect(await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 1_000, now: T0 + 5_000 })).toBeNull();
    expect(await claimNextJob(stores.store.db, { owner: 'w', leaseMs: 1_000, now: T0 + 5_010 })).toMatchObject({
      receipt: job.receipt,
      attempts: 2,
    });
  });

  it('requeues running jobs at start-up, one owner or all', async () => {
    for (let i = 0; i < 4; i++) await insertJob(stores.store.db, { request: sourceJob(addr(20 + i)), now: T0 + i });
    await claimNextJob(stores.store.db, { owner: 'a', leaseMs: 60_000, now: T0 + 10 });
    await claimNextJob(stores.store.db, { owner: 'a', leaseMs: 60_000, now: T0 + 10 });
    await claimNextJob(stores.store.db, { owner: 'b', leaseMs: 60_000, now: T0 + 10 });
    expect(await requeueRunningJobs(stores.store.db, 'a', T0 + 20)).toBe(2);
    expect(await countJobs(stores.store.db)).toMatchObject({ queued: 3, running: 1 });
    expect(await requeueRunningJobs(stores.store.db)).toBe(1);
    expect(await countJobs(stores.store.db)).toMatchObject({ queued: 4, running: 0 });
    // Requeued jobs are due at once, oldest first.
    expect((await claimNextJob(stores.store.db, { owner: 'c', leaseMs: 60_000, now: T0 + 30 }))?.address).toBe(addr(20));
  });
});
