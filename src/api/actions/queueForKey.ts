import type { ApiKeyRecord } from '../../store/apiKeys.js';
import type { JobRequest } from '../../store/jobRequest.js';
import { queueSubmission } from '../../store/submissions.js';
import { TEXT } from '../../texts/index.js';
import type { ApiContext } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';

/**
 * Queues a submission of `key` (its unfinished-job limit and daily quota checked in the same
 * transaction), wakes the runner (unless told not to: the caller will), and answers with the receipt or the text of the refusal.
 */
export async function queueForKey(ctx: ApiContext, key: ApiKeyRecord, request: JobRequest, options: { wake?: boolean } = {}): Promise<Envelope> {
  // A whole build is one verification submission, however many contracts it verifies. A dry
  // run publishes nothing and leaves the verifications alone, but it compiles (and is
  // diagnosed) all the same: it has a daily quota of its own.
  const kind = request.kind === 'proxy' ? 'proxy' : request.kind === 'source' && request.dryRun ? 'dry_run' : 'verify';
  const limit = { verify: ctx.config.dailyVerifyQuota, proxy: ctx.config.dailyProxyQuota, dry_run: ctx.config.dailyDryRunQuota }[kind];
  const queued = await queueSubmission(ctx.store.db, {
    request,
    apiKeyId: key.id,
    quota: { kind, limit },
    maxUnfinished: ctx.config.keyQueuedJobs,
  });
  if (!queued.ok) {
    return fail(queued.reason === 'quota' ? TEXT.dailyQuotaReached(kind, limit, queued.resetsAt) : TEXT.tooManyUnfinished(queued.unfinished));
  }
  if (options.wake ?? true) ctx.wakeJobs();
  return ok(queued.job.receipt);
}
