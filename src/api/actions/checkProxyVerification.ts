import { getJob } from '../../store/verificationJobs.js';
import type { ApiContext } from '../context.js';
import { fail, ok, type Envelope } from '../envelope.js';
import type { Params } from '../params.js';
import { TEXT } from '../texts.js';
import { RECEIPT_RE } from './checkVerifyStatus.js';

/** `checkproxyverification`: `Pending in queue` until final (OpenZeppelin polls exactly while it reads that). */
export async function checkProxyVerification(ctx: ApiContext, params: Params): Promise<Envelope> {
  const guid = params.text('guid');
  if (!guid) return fail(TEXT.missingParameter('guid'));
  if (!RECEIPT_RE.test(guid)) return fail(TEXT.invalidParameter('guid', 'a receipt is 50 lower-case letters and digits'));
  const job = await getJob(ctx.store.db, guid);
  if (!job || job.kind !== 'proxy') return fail(TEXT.unknownUid);
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
