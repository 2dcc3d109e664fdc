/**
 * Submitting work: a source verification, a proxy link, a whole build. Every door submits
 * through here, so each rule is applied once and in one order: admission (what may replace
 * what, and the submitter's own unfinished job), the code at the address (a lagging node is
 * given a few seconds), an exact copy of a verified contract (verified at once), the
 * submitter's quota and unfinished-job limit (counted with the job's write, in one
 * transaction), and then either the verdict at once from a compilation already stored or the
 * workers woken.
 */
import type { SubmissionQuota, SubmitRefusal } from '../core/refusals.js';
import type { ProxyRequest, SourceSubmission } from '../core/types.js';
import type { BuildRequest, JobRequest } from '../store/jobRequest.js';
import { queueSubmission } from '../store/submissions.js';
import { admitVerification } from './admission.js';
import { codeAtAddress } from './codeAtAddress.js';
import type { Services } from './services.js';
import { dailyQuota, type Submitter, submitterId } from './submitter.js';

/** Accepted with its receipt (the job is durable), or refused with why. */
export type Submitted = { ok: true; receipt: string } | { ok: false; refusal: SubmitRefusal };

/**
 * A source verification. A dry run is verified and diagnosed like any submission but publishes
 * nothing: it is not admitted against the record (it replaces nothing) and counts against the
 * dry runs of the day.
 */
export async function submitSource(s: Services, who: Submitter, submission: SourceSubmission, options: { dryRun?: boolean } = {}): Promise<Submitted> {
  const address = submission.address;
  if (options.dryRun) {
    const found = await codeAtAddress(s, address);
    if (!found.ok) return { ok: false, refusal: found.refusal };
    const queued = await queue(s, who, { kind: 'source', submission, dryRun: true }, 'dry_run');
    if (queued.ok) s.jobs.wake();
    return queued;
  }

  const admission = await admitVerification(s, address, submitterId(who));
  if (!admission.ok) return admission;
  const found = await codeAtAddress(s, address);
  if (!found.ok) return { ok: false, refusal: found.refusal };
  // An exact copy of a verified contract is verified through it at once, whatever this
  // submission proves (its job then replaces the copy with the same compilation, or finds it
  // final). A partial copy is not waited for: the chain follower and reads record one, and this
  // submission's job may be a full match.
  if (!admission.existing) await s.copies.tryVerifyExact(address, found.code);

  const queued = await queue(s, who, { kind: 'source', submission }, 'verify');
  // Sources compiled before need no compiler: the verdict is there by the first status check.
  if (queued.ok && !(await s.jobs.runKnown(queued.receipt, submission))) s.jobs.wake({ receipt: queued.receipt, submission });
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
async function queue(s: Services, who: Submitter, request: JobRequest, kind: SubmissionQuota): Promise<Submitted> {
  const limit = dailyQuota(s.config, who, kind);
  const queued = await queueSubmission(s.store.db, {
    request,
    apiKeyId: submitterId(who),
    quota: { kind, limit },
    maxUnfinished: s.config.keyQueuedJobs,
  });
  if (queued.ok) return { ok: true, receipt: queued.job.receipt };
  return {
    ok: false,
    refusal:
      queued.reason === 'quota'
        ? { code: 'daily_quota', kind, limit, resetsAt: queued.resetsAt }
        : { code: 'too_many_unfinished', unfinished: queued.unfinished },
  };
}
