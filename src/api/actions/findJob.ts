import { isReceipt } from '../../core/receipt.js';
import { getJobStatus, type JobKind, type JobStatus } from '../../store/verificationJobs.js';
import { TEXT } from '../../texts/index.js';
import type { ApiContext } from '../context.js';
import { type Envelope, fail } from '../envelope.js';
import type { Params } from '../params.js';

/** The job named by the `guid` parameter, or the envelope that says why there is none. */
export async function findJob(ctx: ApiContext, params: Params, kinds: readonly JobKind[]): Promise<JobStatus | Envelope> {
  const guid = params.text('guid');
  if (!guid) return fail(TEXT.missingParameter('guid'));
  if (!isReceipt(guid)) return fail(TEXT.invalidParameter('guid', 'a receipt is 50 lower-case letters and digits'));
  const job = await getJobStatus(ctx.store.db, guid);
  if (!job || !kinds.includes(job.kind)) return fail(TEXT.unknownUid);
  return job;
}

export function isEnvelope(value: JobStatus | Envelope): value is Envelope {
  return 'status' in value && 'message' in value;
}
