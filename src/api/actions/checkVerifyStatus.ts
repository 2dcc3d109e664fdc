import type { ApiContext, Caller } from '../context.js';
import { fail, ok, type Envelope } from '../envelope.js';
import type { Params } from '../params.js';
import { TEXT } from '../texts.js';
import { findJob, isEnvelope } from './findJob.js';

/**
 * `checkverifystatus`. A failure carries its reason and diagnosis for every client that reads
 * them; hardhat-verify 2 gets the bare `Fail - Unable to verify` it compares against (anything
 * longer makes it abort its retry with the full input). See readsFailureReasons.
 */
export async function checkVerifyStatus(ctx: ApiContext, params: Params, caller: Caller): Promise<Envelope> {
  const job = await findJob(ctx, params, ['source', 'build']);
  if (isEnvelope(job)) return job;
  switch (job.state) {
    case 'queued':
    case 'running':
      return fail(TEXT.pending);
    case 'pass':
      return ok(job.resultText === TEXT.passDryRun ? TEXT.passDryRun : TEXT.pass);
    case 'already_verified':
      return fail(TEXT.alreadyVerifiedStatus);
    case 'fail':
      return fail(caller.readsReasons ? TEXT.failWithReason(job.resultText ?? '') : TEXT.fail);
  }
}
