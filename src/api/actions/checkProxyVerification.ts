import { proxyStatusText } from '../../texts/index.js';
import type { ApiContext } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { findJob, isEnvelope } from './findJob.js';

/** `checkproxyverification`: `Pending in queue` until final (OpenZeppelin polls exactly while it reads that). */
export async function checkProxyVerification(ctx: ApiContext, params: Params): Promise<Envelope> {
  const job = await findJob(ctx, params, ['proxy']);
  if (isEnvelope(job)) return job;
  const status = proxyStatusText(job);
  return status.ok ? ok(status.text) : fail(status.text);
}
