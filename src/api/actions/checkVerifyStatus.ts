import { verifyStatusText } from '../../texts/index.js';
import { isRetryAfterFailure, type Services } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { findJob, isEnvelope } from './findJob.js';

/**
 * `checkverifystatus`. A failure carries its reason, its diagnosis and the receipt page's URL
 * for every client that reads them. hardhat-verify 2 compares the whole `Fail - Unable to
 * verify` (anything longer makes it abort its retry with the full input), so its first attempt
 * gets the bare text; its second attempt at the same address (the full input, submitted at
 * once by the same key) is its last, and gets the reason and the URL, which the plugin prints.
 * See readsFailureReasons.
 */
export async function checkVerifyStatus(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  const job = await findJob(s, params, ['source', 'build']);
  if (isEnvelope(job)) return job;
  let readsReasons = caller.readsReasons;
  if (!readsReasons && job.state === 'fail' && job.kind === 'source' && params.text('verbose') === '') {
    readsReasons = await isRetryAfterFailure(s, job);
  }
  const receiptUrl = caller.baseUrl ? `${caller.baseUrl}/receipt/${job.receipt}` : undefined;
  const status = verifyStatusText(job, readsReasons, receiptUrl);
  return status.ok ? ok(status.text, status.message) : fail(status.text);
}
