import { proxyStatusText } from '../../texts/index.js';
import type { Services } from '../../useCases/index.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { findJob, isEnvelope } from './findJob.js';

/** `checkproxyverification`: `Pending in queue` until final (OpenZeppelin polls exactly while it reads that). */
export async function checkProxyVerification(s: Services, params: Params): Promise<Envelope> {
  const job = await findJob(s, params, ['proxy']);
  if (isEnvelope(job)) return job;
  const status = proxyStatusText(job);
  return status.ok ? ok(status.text) : fail(status.text);
}
