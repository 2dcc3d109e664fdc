import type { ApiContext, Caller } from '../context.js';
import { fail, ok, type Envelope } from '../envelope.js';
import type { Params } from '../params.js';
import { TEXT } from '../texts.js';
import { findJob, isEnvelope } from './findJob.js';

/**
 * `checkverifystatus`. Failure reasons: Hardhat v2 only recognises the bare
 * `Fail - Unable to verify` (anything longer makes it abort its retry with the full input),
 * and it never sends `chainid` to a custom URL; Etherscan-v2-style clients (Hardhat v3)
 * send `chainid` and show the reason. So the reason goes out when `chainid` came along.
 */
export async function checkVerifyStatus(ctx: ApiContext, params: Params, caller: Caller): Promise<Envelope> {
  const job = await findJob(ctx, params, ['source', 'build']);
  if (isEnvelope(job)) return job;
  switch (job.state) {
    case 'queued':
    case 'running':
      return fail(TEXT.pending);
    case 'pass':
      return ok(TEXT.pass);
    case 'already_verified':
      return fail(TEXT.alreadyVerifiedStatus);
    case 'fail':
      return fail(caller.sentChainId || params.text('verbose') === '1' ? TEXT.failWithReason(job.resultText ?? '') : TEXT.fail);
  }
}
