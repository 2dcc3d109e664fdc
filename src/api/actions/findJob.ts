import { getJob, RECEIPT_PATTERN, type JobKind, type VerificationJob } from '../../store/verificationJobs.js';
import type { ApiContext } from '../context.js';
import { fail, type Envelope } from '../envelope.js';
import type { Params } from '../params.js';
import { TEXT } from '../texts.js';

/** The job named by the `guid` parameter, or the envelope that says why there is none. */
export async function findJob(ctx: ApiContext, params: Params, kind: JobKind): Promise<VerificationJob | Envelope> {
  const guid = params.text('guid');
  if (!guid) return fail(TEXT.missingParameter('guid'));
  if (!RECEIPT_PATTERN.test(guid)) return fail(TEXT.invalidParameter('guid', 'a receipt is 50 lower-case letters and digits'));
  const job = await getJob(ctx.store.db, guid);
  if (!job || job.kind !== kind) return fail(TEXT.unknownUid);
  return job;
}

export function isEnvelope(value: VerificationJob | Envelope): value is Envelope {
  return 'status' in value && 'message' in value;
}
