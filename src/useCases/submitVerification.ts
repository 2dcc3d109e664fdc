/**
 * Submitting work: a source verification, a proxy link, a whole build. Every door submits
 * through here, so each rule is applied once and in one order: admission (what may replace
 * what), the code at the address (a lagging node is given a few seconds), an exact copy of a
 * verified contract (verified at once), the submitter's own unfinished job for the address,
 * quota and unfinished-job limit (checked with the job's write, in one transaction), and then
 * either the verdict at once from a compilation already stored or the workers woken.
 */

import { knownAddress } from '../core/hex.js';
import { type OneAtATime, oneAtATime } from '../core/oneAtATime.js';
import type { SubmissionQuota, SubmitRefusal } from '../core/refusals.js';
import { type AnySourceSubmission, isVyperSubmission, type ProxyRequest } from '../core/types.js';
import { type BuildRequest, type JobRequest, jobRequestAddress } from '../store/jobRequest.js';
import { queueSubmission } from '../store/submissions.js';
import { openRecord } from './admission.js';
import { codeAtAddress } from './codeAtAddress.js';
import type { Services } from './services.js';
import { dailyQuota, type Submitter, submitterId } from './submitter.js';

/** Accepted with its receipt (the job is durable), or refused with why. */
export type Submitted = { ok: true; receipt: string } | { ok: false; refusal: SubmitRefusal };

export interface SubmitSourceOptions {
  /** Verified and diagnosed like any submission but published nowhere: not admitted against the record (it replaces nothing), counted against the dry runs of the day. */
  dryRun?: boolean | undefined;
  /**
   * How the door's clients learn that the address holds no code: refused at once (`refuse`,
   * Etherscan's clients retry on it), or from the job, which fails `contract_not_deployed`
   * (`job`, as Sourcify's clients expect). Either way nothing is verified there.
   */
  noCode?: 'refuse' | 'job' | undefined;
}

/** Each store's submissions of one submitter for one address, taken one at a time in this process. */
const inTurn = new WeakMap<object, OneAtATime>();

/**
 * A source verification. One submitter's submissions for one address are taken in turn, so a
 * second one sees what the first did: its unfinished job (the duplicate is refused naming it),
 * or the record it already made final (refused as verified). Across processes the queueing
 * transaction still refuses the duplicate of an unfinished job.
 */
export async function submitSource(s: Services, who: Submitter, submission: AnySourceSubmission, options: SubmitSourceOptions = {}): Promise<Submitted> {
  let run = inTurn.get(s.store);
  if (!run) inTurn.set(s.store, (run = oneAtATime()));
  return run(`${submitterId(who)} ${submission.address.toLowerCase()}`, () => submitSourceNow(s, who, submission, options));
}

async function submitSourceNow(s: Services, who: Submitter, submission: AnySourceSubmission, options: SubmitSourceOptions): Promise<Submitted> {
  const address = submission.address;
  if (options.dryRun) {
    const found = await codeAtAddress(s, address);
    if (!found.ok) return { ok: false, refusal: found.refusal };
    const queued = await queue(s, who, { kind: 'source', submission, dryRun: true }, 'dry_run');
    if (queued.ok) s.jobs.wake();
    return queued;
  }

  const open = await openRecord(s, address);
  if (!open.ok) return open;
  const found = await codeAtAddress(s, address);
  const reportedByJob = !found.ok && found.refusal.code === 'no_code' && options.noCode === 'job';
  if (!found.ok && !reportedByJob) return { ok: false, refusal: found.refusal };
  // An exact copy of a verified contract is verified through it at once, whatever this
  // submission proves (its job then replaces the copy with the same compilation, or finds it
  // final). A partial copy is not waited for: the chain follower and reads record one, and this
  // submission's job may be a full match.
  if (found.ok && !open.existing) await s.copies.tryVerifyExact(address, found.code);

  // The submitter's own unfinished verification of the address refuses its duplicate.
  const queued = await queue(s, who, { kind: 'source', submission }, 'verify', { refuseDuplicate: true });
  // Sources compiled before need no compiler: the verdict is there by the first status check.
  // A Vyper job goes to the workers as it is (its compile is not started ahead).
  if (!queued.ok) return queued;
  if (isVyperSubmission(submission)) s.jobs.wake();
  else if (!(await s.jobs.runKnown(queued.receipt, submission))) s.jobs.wake({ receipt: queued.receipt, submission });
  return queued;
}

/** The detection of a proxy's implementation. The proxy need not be verified itself (plugins link a proxy right after deploying it). */
export async function submitProxy(s: Services, who: Submitter, request: ProxyRequest): Promise<Submitted> {
  const found = await codeAtAddress(s, request.address);
  if (!found.ok) return { ok: false, refusal: found.refusal };
  const queued = await queue(s, who, { kind: 'proxy', proxy: request }, 'proxy');
  if (queued.ok) s.jobs.wake();
  return queued;
}

/** A whole build without an address: one verification submission, however many contracts it verifies. */
export async function submitBuild(s: Services, who: Submitter, build: BuildRequest): Promise<Submitted> {
  const queued = await queue(s, who, { kind: 'build', build }, 'verify');
  if (queued.ok) s.jobs.wake();
  return queued;
}

/** Writes the job, with the submitter's unfinished-job limit and daily quota checked in the same transaction. */
async function queue(s: Services, who: Submitter, request: JobRequest, kind: SubmissionQuota, options: { refuseDuplicate?: boolean } = {}): Promise<Submitted> {
  const limit = dailyQuota(s.config, who, kind);
  const queued = await queueSubmission(s.store.db, {
    request,
    apiKeyId: submitterId(who),
    quota: { kind, limit },
    maxUnfinished: s.config.keyQueuedJobs,
    refuseDuplicate: options.refuseDuplicate ?? false,
  });
  if (queued.ok) return { ok: true, receipt: queued.job.receipt };
  switch (queued.reason) {
    case 'quota':
      return { ok: false, refusal: { code: 'daily_quota', kind, limit, resetsAt: queued.resetsAt } };
    case 'unfinished':
      return { ok: false, refusal: { code: 'too_many_unfinished', unfinished: queued.unfinished } };
    case 'duplicate':
      return { ok: false, refusal: { code: 'own_job_unfinished', address: knownAddress(jobRequestAddress(request)), receipt: queued.receipt } };
  }
}
