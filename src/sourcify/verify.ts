/**
 * `POST /v2/verify/{chainId}/{address}`: a standard JSON input, its compiler and the contract,
 * queued as the same verification job `/api`'s verifysourcecode queues. Keyless: the job
 * counts against the client address's daily quota and its limit of unfinished jobs.
 */
import { clientKey, retryAfterSeconds } from '../limits/clientAddress.js';
import { queueSubmission } from '../store/submissions.js';
import { unfinishedSourceJob } from '../store/verificationJobs.js';
import { getStoredVerdict } from '../store/verifiedContracts.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Answer, checksummed, errorAnswer, JOB_WAIT_SECONDS } from './answers.js';
import { checkTarget, isAnswer } from './checkTarget.js';
import type { SourcifyContext } from './context.js';
import { readSourcifySubmission } from './readSubmission.js';

/** The id a keyless client's jobs and quotas are counted under: its address. */
export function clientSubmitter(client: string): string {
  return `sourcify:${clientKey(client)}`;
}

export async function verify(ctx: SourcifyContext, params: { chainId?: string; address?: string }, body: unknown, client: string): Promise<Answer> {
  const target = checkTarget(ctx, params);
  if (isAnswer(target)) return target;
  const { address } = target;
  const read = readSourcifySubmission(body, address, ctx.releases);
  if (!read.ok) return errorAnswer(400, 'invalid_parameter', read.message);

  // Only a record exact in both parts is final here: a `match` can be improved.
  await ctx.records.check(address);
  const existing = await getStoredVerdict(ctx.store.db, address);
  if (existing?.creationMatch === 'full' && existing.runtimeMatch === 'full') {
    return errorAnswer(409, 'already_verified', SOURCIFY_TEXT.alreadyVerified(checksummed(address), ctx.chainId));
  }
  if (await unfinishedSourceJob(ctx.store.db, address)) {
    return {
      ...errorAnswer(429, 'duplicate_verification_request', SOURCIFY_TEXT.beingVerified(checksummed(address), ctx.chainId)),
      retryAfterSeconds: JOB_WAIT_SECONDS,
    };
  }

  const limit = ctx.config.sourcifyDailyQuota;
  const queued = await queueSubmission(ctx.store.db, {
    request: { kind: 'source', submission: read.submission },
    apiKeyId: clientSubmitter(client),
    quota: { kind: 'verify', limit },
    maxUnfinished: ctx.config.keyQueuedJobs,
  });
  if (!queued.ok) {
    if (queued.reason === 'quota') {
      return {
        ...errorAnswer(429, 'too_many_requests', SOURCIFY_TEXT.dailyQuota(limit, queued.resetsAt)),
        retryAfterSeconds: retryAfterSeconds(queued.resetsAt.getTime() - Date.now()),
      };
    }
    return { ...errorAnswer(429, 'too_many_requests', SOURCIFY_TEXT.tooManyUnfinished(queued.unfinished)), retryAfterSeconds: JOB_WAIT_SECONDS };
  }
  const receipt = queued.job.receipt;
  // Sources compiled before need no compiler: the verdict is there by the first status check.
  if (!(await ctx.runKnown(receipt, read.submission))) ctx.wakeJobs({ receipt, submission: read.submission });
  return { status: 202, body: { verificationId: receipt } };
}
