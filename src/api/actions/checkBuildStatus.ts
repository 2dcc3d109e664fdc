import { buildStatusText } from '../../texts/index.js';
import type { Services } from '../../useCases/index.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { findJob, isEnvelope } from './findJob.js';

/**
 * `checkbuildstatus`: where a `verifybuild` receipt stands and, once done, the contracts the
 * build holds and the addresses it verified.
 */
export async function checkBuildStatus(s: Services, params: Params): Promise<Envelope> {
  const job = await findJob(s, params, ['build']);
  if (isEnvelope(job)) return job;
  const status = buildStatusText(job);
  if (!status.ok) return fail(status.text);
  const built = job.result?.outcome === 'build_pass' ? job.result.document : null;
  return ok({ status: status.text, contracts: built?.contracts ?? [], verified: built?.verified ?? [] });
}
