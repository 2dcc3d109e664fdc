import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { type ErrorFacts, errorFacts, isSolproofError } from '../core/errors.js';
import { parseAddress } from '../core/hex.js';
import type { JobResult } from '../core/jobResults.js';
import { newReceipt } from '../core/receipt.js';
import type { Address } from '../core/types.js';
import type { Database, JobKind, JobState, VerificationJobsTable } from './database.js';
import { isPostgres } from './dialect.js';
import { decodeJobRequest, encodeJobRequest, type JobRequest, jobRequestAddress } from './jobRequest.js';
import { decodeJobResult, encodeJobResult } from './jobResult.js';

export type { JobKind, JobState };

type JobRow = Selectable<VerificationJobsTable>;

/**
 * A verification job's state, without its request: what status checks and pages read.
 * Times are epoch ms.
 */
export type JobStatus = Omit<JobRow, 'address' | 'request' | 'result'> & {
  address: Address;
  /** What the job kept, decoded (store/jobResult.ts); null when it kept nothing. */
  result: JobResult | null;
};

/** A job with its request, decoded (null when the stored request cannot be read: see `requestError`). */
export type VerificationJob = JobStatus & {
  request: JobRequest | null;
  requestError?: ErrorFacts;
};

export type FinalJobState = Extract<JobState, 'pass' | 'fail' | 'already_verified'>;

export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'pass', 'fail', 'already_verified'];

export { newReceipt, RECEIPT_LENGTH, RECEIPT_PATTERN } from '../core/receipt.js';

/**
 * Queues a job. The submission is durable when this returns (committed; on SQLite with
 * synchronous=FULL).
 */
export async function insertJob(
  db: Kysely<Database>,
  job: {
    request: JobRequest;
    apiKeyId?: string | null;
    receipt?: string;
    /** Earliest start (default now). */
    notBefore?: number;
    now?: number;
  },
): Promise<VerificationJob> {
  const now = job.now ?? Date.now();
  const row = await db
    .insertInto('verificationJobs')
    .values({
      receipt: job.receipt ?? newReceipt(),
      kind: job.request.kind,
      address: jobRequestAddress(job.request).toLowerCase(),
      state: 'queued',
      request: encodeJobRequest(job.request),
      resultText: null,
      result: null,
      lastError: null,
      apiKeyId: job.apiKeyId ?? null,
      attempts: 0,
      notBefore: job.notBefore ?? now,
      leaseOwner: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      payloadPrunedAt: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toJob(row);
}

const STATUS_COLUMNS = [
  'receipt',
  'kind',
  'address',
  'state',
  'resultText',
  'result',
  'lastError',
  'apiKeyId',
  'attempts',
  'notBefore',
  'leaseOwner',
  'leaseUntil',
  'createdAt',
  'updatedAt',
  'finishedAt',
  'payloadPrunedAt',
] as const;

/** The state of the job with this receipt, without reading its request; null when there is none. */
export async function getJobStatus(db: Kysely<Database>, receipt: string): Promise<JobStatus | null> {
  const row = await db.selectFrom('verificationJobs').select(STATUS_COLUMNS).where('receipt', '=', receipt).executeTakeFirst();
  return row ? toStatus(row) : null;
}

/** Which of these receipts have their final state (a cheap read: the state column only). */
export async function finishedAmong(db: Kysely<Database>, receipts: readonly string[]): Promise<Set<string>> {
  if (receipts.length === 0) return new Set();
  const rows = await db
    .selectFrom('verificationJobs')
    .select('receipt')
    .where('receipt', 'in', [...receipts])
    .where('state', 'not in', ['queued', 'running'])
    .execute();
  return new Set(rows.map((r) => r.receipt));
}

/**
 * Whether the same API key had another source verification of this address fail in the
 * `windowMs` before this job was submitted (a client's retry right after its failed attempt).
 */
export async function hadEarlierFailure(
  db: Kysely<Database>,
  job: Pick<JobStatus, 'receipt' | 'address' | 'apiKeyId' | 'createdAt'>,
  windowMs: number,
): Promise<boolean> {
  if (!job.apiKeyId) return false;
  const row = await db
    .selectFrom('verificationJobs')
    .select('receipt')
    .where('address', '=', job.address.toLowerCase())
    .where('kind', '=', 'source')
    .where('state', '=', 'fail')
    .where('apiKeyId', '=', job.apiKeyId)
    .where('receipt', '!=', job.receipt)
    .where('createdAt', '<=', job.createdAt)
    .where('finishedAt', '>=', job.createdAt - windowMs)
    .executeTakeFirst();
  return row !== undefined;
}

/** The job with this receipt, or null. */
export async function getJob(db: Kysely<Database>, receipt: string): Promise<VerificationJob | null> {
  const row = await db.selectFrom('verificationJobs').selectAll().where('receipt', '=', receipt).executeTakeFirst();
  return row ? toJob(row) : null;
}

/** The most recent jobs for an address, newest first. */
export async function listJobsForAddress(db: Kysely<Database>, address: Address, limit = 20): Promise<VerificationJob[]> {
  const rows = await db
    .selectFrom('verificationJobs')
    .selectAll()
    .where('address', '=', address.toLowerCase())
    .orderBy('createdAt', 'desc')
    .orderBy('receipt', 'desc')
    .limit(Math.max(1, Math.min(limit, 1000)))
    .execute();
  return rows.map(toJob);
}

/** The states of the most recent jobs for an address, newest first, without their requests (for pages). */
export async function listJobStatusesForAddress(db: Kysely<Database>, address: Address, limit = 10): Promise<JobStatus[]> {
  const rows = await db
    .selectFrom('verificationJobs')
    .select(STATUS_COLUMNS)
    .where('address', '=', address.toLowerCase())
    .orderBy('createdAt', 'desc')
    .orderBy('receipt', 'desc')
    .limit(Math.max(1, Math.min(limit, 100)))
    .execute();
  return rows.map(toStatus);
}

/**
 * Atomically takes a due job — queued with `notBefore` passed, or running with an expired
 * lease (its worker died) — marks it running under `owner` until `now + leaseMs`, counts the
 * attempt and returns it. Null when nothing is due.
 *
 * Keys share the runners: the key with the fewest running jobs goes first (so a key that
 * queued a hundred jobs delays another key's job by one at most), then the oldest job. A key
 * may run more than its share (`perKeyRunning` jobs across every runner) only while no other
 * key's job waits: its job sorts after every job of a key within its share, and takes a slot
 * nobody else wants; with `withinShare`, only jobs of keys within their share are taken (a
 * runner that makes room for one by putting back a job over its key's share, see queue.ts).
 * Jobs without a key are never held back.
 * Exclusive across connections and processes: a row lock skipped by others on PostgreSQL,
 * the single-writer UPDATE on SQLite.
 */
export async function claimNextJob(
  db: Kysely<Database>,
  options: { owner: string; leaseMs: number; now?: number; perKeyRunning?: number | undefined; withinShare?: boolean },
): Promise<VerificationJob | null> {
  const now = options.now ?? Date.now();
  const perKey = Math.max(1, Math.floor(options.perKeyRunning ?? Number.MAX_SAFE_INTEGER));
  const due = db
    .selectFrom('verificationJobs as j')
    .select('j.receipt')
    .where((eb) =>
      eb.or([eb.and([eb('j.state', '=', 'queued'), eb('j.notBefore', '<=', now)]), eb.and([eb('j.state', '=', 'running'), eb('j.leaseUntil', '<=', now)])]),
    )
    .$if(options.withinShare === true, (qb) => qb.where((eb) => eb.or([eb('j.apiKeyId', 'is', null), eb(runningOfKey(eb, now), '<', perKey)])))
    .orderBy((eb) => runningOfKey(eb, now))
    .orderBy('j.createdAt')
    .orderBy('j.receipt')
    .limit(1)
    .$if(isPostgres(db), (qb) => qb.forUpdate('j').skipLocked());
  const row = await db
    .updateTable('verificationJobs')
    .set((eb) => ({
      state: 'running',
      leaseOwner: options.owner,
      leaseUntil: now + options.leaseMs,
      attempts: eb('attempts', '+', 1),
      updatedAt: now,
    }))
    .where('receipt', '=', due)
    .returningAll()
    .executeTakeFirst();
  return row ? toJob(row) : null;
}

/** The jobs of `j`'s key running under a live lease. */
function runningOfKey(eb: ExpressionBuilder<Database & { j: VerificationJobsTable }, 'j'>, now: number) {
  return eb
    .selectFrom('verificationJobs as r')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('r.apiKeyId', '=', 'j.apiKeyId')
    .where('r.state', '=', 'running')
    .where('r.leaseUntil', '>', now);
}

/** Which of `keys` run more than `perKey` jobs under a live lease, across every runner. */
export async function keysOverShare(db: Kysely<Database>, keys: readonly string[], perKey: number, now = Date.now()): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('verificationJobs')
    .select('apiKeyId')
    .where('apiKeyId', 'in', [...keys])
    .where('state', '=', 'running')
    .where('leaseUntil', '>', now)
    .groupBy('apiKeyId')
    .having((eb) => eb.fn.countAll(), '>', perKey)
    .execute();
  return new Set(rows.map((r) => r.apiKeyId).filter((k): k is string => k !== null));
}

/**
 * The key of the job `receipt` and how many of that key's jobs run under a live lease (0 for a
 * job without a key); null when there is no such job.
 */
export async function runningOfJobsKey(db: Kysely<Database>, receipt: string, now = Date.now()): Promise<{ apiKeyId: string | null; running: number } | null> {
  const job = await db.selectFrom('verificationJobs').select('apiKeyId').where('receipt', '=', receipt).executeTakeFirst();
  if (!job) return null;
  if (job.apiKeyId === null) return { apiKeyId: null, running: 0 };
  const row = await db
    .selectFrom('verificationJobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('apiKeyId', '=', job.apiKeyId)
    .where('state', '=', 'running')
    .where('leaseUntil', '>', now)
    .executeTakeFirstOrThrow();
  return { apiKeyId: job.apiKeyId, running: Number(row.n) };
}

/** The lease a runner holds on a running job (its receipt and the runner's name). */
export interface JobLease {
  receipt: string;
  owner: string;
}

/** The lease of a claimed job, as the job was handed to its runner; undefined for one not claimed. */
export function leaseOf(job: Pick<JobStatus, 'receipt' | 'leaseOwner'>): JobLease | undefined {
  return job.leaseOwner ? { receipt: job.receipt, owner: job.leaseOwner } : undefined;
}

/** A job's lease was lost (it lapsed and another runner took the job, or it was put back): whatever this runner found is not written. */
export class LeaseLostError extends Error {
  constructor(readonly receipt: string) {
    super(`the lease on job ${receipt} was lost: another runner runs it`);
    this.name = 'LeaseLostError';
  }
}

/** Throws LeaseLostError unless `lease` is still held; inside a write transaction, holds the job until the commit (holdsLease). */
export async function assertLease(db: Kysely<Database>, lease: JobLease): Promise<void> {
  if (!(await holdsLease(db, lease))) throw new LeaseLostError(lease.receipt);
}

/**
 * Whether `owner` still holds the lease of the running job `receipt`. Inside a write
 * transaction it also holds the job's row (locked on PostgreSQL; SQLite writes one at a time)
 * until the commit: a worker whose lease lapsed writes nothing, and nobody takes the job over
 * while its verdict is being written.
 */
export async function holdsLease(db: Kysely<Database>, lease: JobLease): Promise<boolean> {
  const row = await db
    .selectFrom('verificationJobs')
    .select('receipt')
    .where('receipt', '=', lease.receipt)
    .where('state', '=', 'running')
    .where('leaseOwner', '=', lease.owner)
    .$if(isPostgres(db), (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes one queued job by its receipt (as claimNextJob does); null when it is not queued any more. */
export async function claimJob(
  db: Kysely<Database>,
  receipt: string,
  options: { owner: string; leaseMs: number; now?: number },
): Promise<VerificationJob | null> {
  const now = options.now ?? Date.now();
  const row = await db
    .updateTable('verificationJobs')
    .set((eb) => ({ state: 'running', leaseOwner: options.owner, leaseUntil: now + options.leaseMs, attempts: eb('attempts', '+', 1), updatedAt: now }))
    .where('receipt', '=', receipt)
    .where('state', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
  return row ? toJob(row) : null;
}

/** Gives a job claimed with claimJob back to the queue, due now, as if it had not been tried. */
export async function releaseJob(db: Kysely<Database>, receipt: string, owner: string, now = Date.now()): Promise<boolean> {
  const res = await db
    .updateTable('verificationJobs')
    .set((eb) => ({ state: 'queued', leaseOwner: null, leaseUntil: null, notBefore: now, attempts: eb('attempts', '-', 1), updatedAt: now }))
    .where('receipt', '=', receipt)
    .where('state', '=', 'running')
    .where('leaseOwner', '=', owner)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Extends a running job's lease; false when `owner` no longer holds it. */
export async function renewLease(db: Kysely<Database>, receipt: string, options: { owner: string; leaseMs: number; now?: number }): Promise<boolean> {
  const now = options.now ?? Date.now();
  const res = await db
    .updateTable('verificationJobs')
    .set({ leaseUntil: now + options.leaseMs, updatedAt: now })
    .where('receipt', '=', receipt)
    .where('state', '=', 'running')
    .where('leaseOwner', '=', options.owner)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Records a job's final state. Only an unfinished job changes; with `owner`, only while
 * that owner holds the lease (a worker whose lease was taken over must not overwrite the
 * new attempt). Returns whether the job changed.
 */
export async function finishJob(
  db: Kysely<Database>,
  receipt: string,
  outcome: { state: FinalJobState; result?: JobResult | undefined; owner?: string; now?: number },
): Promise<boolean> {
  const now = outcome.now ?? Date.now();
  // A passed job's sources are the verified record's (or the build's) input document, found by
  // the receipt; an already-verified one's are needed by nothing: neither keeps its own copy.
  const compact = outcome.state === 'pass' || outcome.state === 'already_verified';
  const res = await db
    .updateTable('verificationJobs')
    .set({
      state: outcome.state,
      // Texts are worded when the receipt is read; the column keeps the texts of older jobs.
      resultText: null,
      result: outcome.result === undefined ? null : encodeJobResult(outcome.result),
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
      finishedAt: now,
      ...(compact ? { request: PRUNED_REQUEST, payloadPrunedAt: now } : {}),
    })
    .where('receipt', '=', receipt)
    .where('state', 'in', ['queued', 'running'])
    .$if(outcome.owner !== undefined, (qb) => qb.where('leaseOwner', '=', outcome.owner!))
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * What a finished job's request becomes once its sources are dropped: its state, texts and
 * result (what receipts, checkverifystatus and the receipt page answer) stay in their columns.
 */
export const PRUNED_REQUEST = '{"pruned":true}';

/**
 * Drops the submitted sources of jobs that finished before `finishedBefore` (failures keep
 * theirs until then), in batches; returns how many were pruned. Receipts stay answerable.
 */
export async function pruneJobPayloads(db: Kysely<Database>, options: { finishedBefore: number; batch?: number; now?: number }): Promise<number> {
  const batch = options.batch ?? 500;
  let pruned = 0;
  for (;;) {
    const rows = await db
      .selectFrom('verificationJobs')
      .select('receipt')
      .where('state', 'in', ['pass', 'fail', 'already_verified'])
      .where('finishedAt', '<', options.finishedBefore)
      .where('payloadPrunedAt', 'is', null)
      .limit(batch)
      .execute();
    if (rows.length === 0) return pruned;
    await db
      .updateTable('verificationJobs')
      .set({ request: PRUNED_REQUEST, payloadPrunedAt: options.now ?? Date.now() })
      .where(
        'receipt',
        'in',
        rows.map((r) => r.receipt),
      )
      .where('payloadPrunedAt', 'is', null)
      .execute();
    pruned += rows.length;
    if (rows.length < batch) return pruned;
  }
}

/**
 * Puts a running job back in the queue to start again after `delayMs`, noting why.
 * With `owner`, only while that owner holds the lease. Returns whether the job changed.
 */
export async function retryJob(
  db: Kysely<Database>,
  receipt: string,
  options: { delayMs: number; error: string; owner?: string; now?: number },
): Promise<boolean> {
  const now = options.now ?? Date.now();
  const res = await db
    .updateTable('verificationJobs')
    .set({
      state: 'queued',
      notBefore: now + Math.max(0, options.delayMs),
      lastError: options.error.slice(0, 2000),
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
    })
    .where('receipt', '=', receipt)
    .where('state', '=', 'running')
    .$if(options.owner !== undefined, (qb) => qb.where('leaseOwner', '=', options.owner!))
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Returns running jobs to the queue, for a single-process deployment starting up (nobody
 * else can be running them). With `owner`, only that owner's jobs. Returns how many.
 */
export async function requeueRunningJobs(db: Kysely<Database>, owner?: string, now = Date.now()): Promise<number> {
  const res = await db
    .updateTable('verificationJobs')
    .set({ state: 'queued', leaseOwner: null, leaseUntil: null, updatedAt: now })
    .where('state', '=', 'running')
    .$if(owner !== undefined, (qb) => qb.where('leaseOwner', '=', owner!))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** How many jobs are in each state (every state present, zero when none). */
export async function countJobs(db: Kysely<Database>): Promise<Record<JobState, number>> {
  const rows = await db
    .selectFrom('verificationJobs')
    .select((eb) => ['state', eb.fn.countAll<number | string>().as('count')])
    .groupBy('state')
    .execute();
  const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

function toStatus(row: Omit<JobRow, 'request'>): JobStatus {
  const ms = (v: number | null) => (v === null ? null : Number(v));
  return {
    receipt: row.receipt,
    kind: row.kind,
    // A build's job is for no one address: its row holds ''.
    address: parseAddress(row.address) ?? (row.address as Address),
    state: row.state,
    resultText: row.resultText,
    result: decodeJobResult(row.kind, row.result),
    lastError: row.lastError,
    apiKeyId: row.apiKeyId,
    attempts: Number(row.attempts),
    notBefore: Number(row.notBefore),
    leaseOwner: row.leaseOwner,
    leaseUntil: ms(row.leaseUntil),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    finishedAt: ms(row.finishedAt),
    payloadPrunedAt: ms(row.payloadPrunedAt),
  };
}

function toJob(row: JobRow): VerificationJob {
  const unreadable = (why: string): ErrorFacts => ({ code: 'invalid_input', details: { problem: 'stored_request_unreadable', why } });
  if (row.payloadPrunedAt !== null) return { ...toStatus(row), request: null, requestError: unreadable('the request of this finished job was pruned') };
  try {
    return { ...toStatus(row), request: decodeJobRequest(row.kind, row.request) };
  } catch (error) {
    return { ...toStatus(row), request: null, requestError: isSolproofError(error) ? errorFacts(error) : unreadable(String(error)) };
  }
}

/** The receipt of a source verification of `address` by the key (or keyless client) `apiKeyId` that is waiting or running, or null when none is. */
export async function unfinishedSourceJob(db: Kysely<Database>, address: string, apiKeyId: string): Promise<string | null> {
  const row = await db
    .selectFrom('verificationJobs')
    .select('receipt')
    .where('address', '=', address.toLowerCase())
    .where('apiKeyId', '=', apiKeyId)
    .where('kind', '=', 'source')
    .where('state', 'in', ['queued', 'running'])
    .limit(1)
    .executeTakeFirst();
  return row?.receipt ?? null;
}

/** When a job is due next: the earliest start of a waiting job or lapse of a running one's lease (epoch ms); null when none waits or runs. */
export async function nextDueAt(db: Kysely<Database>): Promise<number | null> {
  const [queued, running] = await Promise.all([
    db
      .selectFrom('verificationJobs')
      .select((eb) => eb.fn.min('notBefore').as('at'))
      .where('state', '=', 'queued')
      .executeTakeFirst(),
    db
      .selectFrom('verificationJobs')
      .select((eb) => eb.fn.min('leaseUntil').as('at'))
      .where('state', '=', 'running')
      .executeTakeFirst(),
  ]);
  const times = [queued?.at, running?.at].filter((t) => t !== null && t !== undefined).map(Number);
  return times.length > 0 ? Math.min(...times) : null;
}

/** When the oldest job waiting in the queue (not running, not finished) was submitted, in epoch ms; null when none waits. */
export async function oldestQueuedJobAt(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('verificationJobs')
    .select((eb) => eb.fn.min('createdAt').as('oldest'))
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
}
