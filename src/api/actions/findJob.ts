import { isReceipt } from '../../core/receipt.js';
import { TEXT } from '../../texts/index.js';
import { checkJob, type JobKind, type JobStatus, type Services } from '../../useCases/index.js';
import { type Envelope, fail } from '../envelope.js';
import type { Params } from '../params.js';

/** The job named by the `guid` parameter (a status check: it may wait briefly for the verdict), or the envelope that says why there is none. */
export async function findJob(s: Services, params: Params, kinds: readonly JobKind[]): Promise<JobStatus | Envelope> {
  const guid = params.text('guid');
  if (!guid) return fail(TEXT.missingParameter('guid'));
  if (!isReceipt(guid)) return fail(TEXT.invalidParameter('guid', 'a receipt is 50 lower-case letters and digits'));
  return (await checkJob(s, guid, kinds)) ?? fail(TEXT.unknownUid);
}

export function isEnvelope(value: JobStatus | Envelope): value is Envelope {
  return 'status' in value && 'message' in value;
}
