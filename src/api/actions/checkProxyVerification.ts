import type { ApiContext } from '../context.js';
import { fail, ok, type Envelope } from '../envelope.js';
import type { Params } from '../params.js';
import { TEXT } from '../texts.js';
import { findJob, isEnvelope } from './findJob.js';

/** `checkproxyverification`: `Pending in queue` until final (OpenZeppelin polls exactly while it reads that). */
export async function checkProxyVerification(ctx: ApiContext, params: Params): Promise<Envelope> {
  const job = await findJob(ctx, params, ['proxy']);
  if (isEnvelope(job)) return job;
  switch (job.state) {
    case 'queued':
    case 'running':
      return fail(TEXT.pending);
    case 'pass':
      return ok(job.resultText ?? '');
    default:
      return fail(job.resultText || TEXT.proxyNotDetected);
  }
}
