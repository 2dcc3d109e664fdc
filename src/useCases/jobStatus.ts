/**
 * Where a submission stands: its job, read by receipt, and for a passed source verification
 * what it proved, the same at every door.
 */
import { getJob, getJobStatus, hadEarlierFailure, type JobKind, type JobStatus, type VerificationJob } from '../store/verificationJobs.js';
import { getVerifiedContract } from '../store/verifiedContracts.js';
import { type ProvenMatch, provenMatch } from '../verify/index.js';
import type { Services } from './services.js';

/** The job with this receipt (without its request), when it is one of `kinds`; null otherwise. */
export async function findJob(s: Pick<Services, 'store'>, receipt: string, kinds?: readonly JobKind[]): Promise<JobStatus | null> {
  const job = await getJobStatus(s.store.db, receipt);
  return job && (!kinds || kinds.includes(job.kind)) ? job : null;
}

/**
 * A status check: the job with this receipt, once it has its verdict when that comes soon. A
 * check of a job still queued or running, made shortly after its submission, waits briefly
 * for the verdict (the rule is in verdictWaits.ts), so that a client reads it on its first check.
 */
export async function checkJob(s: Pick<Services, 'store' | 'verdicts'>, receipt: string, kinds?: readonly JobKind[]): Promise<JobStatus | null> {
  const job = await findJob(s, receipt, kinds);
  if (!job || isFinished(job)) return job;
  const waitMs = s.verdicts.allowance(Number(job.createdAt));
  if (waitMs === 0) return job;
  await s.verdicts.wait(job.receipt, waitMs);
  return findJob(s, receipt, kinds);
}

/** The job with this receipt and its request (what was submitted), or null. */
export function findSubmission(s: Pick<Services, 'store'>, receipt: string): Promise<VerificationJob | null> {
  return getJob(s.store.db, receipt);
}

/** Whether a job has its final state. */
export function isFinished(job: Pick<JobStatus, 'state'>): boolean {
  return job.state !== 'queued' && job.state !== 'running';
}

/** How soon after a failed verdict a new submission of the same key at the same address counts as the client's own retry. */
const RETRY_WINDOW_MS = 60_000;

/** Whether `job` is its submitter's retry right after a failed verification of the same address. */
export function isRetryAfterFailure(s: Pick<Services, 'store'>, job: JobStatus): Promise<boolean> {
  return hadEarlierFailure(s.store.db, job, RETRY_WINDOW_MS);
}

/**
 * What a passed source verification proved: the record it wrote while that record stands (a
 * later one may have replaced it), else the job's own verdict. Null for a job that did not pass.
 */
export async function provenByJob(s: Pick<Services, 'store'>, job: JobStatus): Promise<{ proof: ProvenMatch; verifiedAt: number | null } | null> {
  if (job.state !== 'pass' || job.result?.outcome !== 'source_pass') return null;
  const record = await getVerifiedContract(s.store.db, job.address);
  if (record && record.receipt === job.receipt) return { proof: provenMatch(record), verifiedAt: record.verifiedAt };
  return { proof: provenMatch(job.result.document), verifiedAt: null };
}

/** The job once it has its verdict, or as it stands after `waitMs`; null when there is no such job. */
export async function waitForVerdict(s: Pick<Services, 'store'>, receipt: string, waitMs: number, pollMs = 200): Promise<JobStatus | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const job = await getJobStatus(s.store.db, receipt);
    if (!job || isFinished(job) || Date.now() >= deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}
