import { verifyStatusText } from '../../texts/index.js';
import type { ApiContext, Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { findJob, isEnvelope } from './findJob.js';

/**
 * `checkverifystatus`. A failure carries its reason and diagnosis for every client that reads
 * them; hardhat-verify 2 gets the bare `Fail - Unable to verify` it compares against (anything
 * longer makes it abort its retry with the full input). See readsFailureReasons.
 */
export async function checkVerifyStatus(ctx: ApiContext, params: Params, caller: Caller): Promise<Envelope> {
  const job = await findJob(ctx, params, ['source', 'build']);
  if (isEnvelope(job)) return job;
  const status = verifyStatusText(job, caller.readsReasons);
  return status.ok ? ok(status.text) : fail(status.text);
}
