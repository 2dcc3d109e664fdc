import { readSubmittedVersion } from '../../core/compilerVersion.js';
import { getStoredVerdict } from '../../store/verifiedContracts.js';
import { TEXT } from '../../texts/index.js';
import { canBeImproved } from '../../verify/index.js';
import type { ApiContext, Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { parseSourceSubmission } from '../parseSubmission.js';
import { codeOrRefusal } from './codeAtAddress.js';
import { queueForKey } from './queueForKey.js';

/**
 * `verifysourcecode`: validates the fields (with `dryrun=1`: a check that publishes nothing), checks that the address holds code and has no
 * verification that a submission could not improve, counts the submission against the key's daily quota (a dry run against its dry runs), writes the job to the
 * store and only then hands out the receipt.
 */
export async function verifySourceCode(ctx: ApiContext, params: Params, caller: Caller): Promise<Envelope> {
  if (!caller.key) return fail(TEXT.invalidApiKey);
  const parsed = parseSourceSubmission(params, ctx.releases);
  if (!parsed.ok) return fail(parsed.error);
  const submission = parsed.value;
  const answered = (answer: Envelope): Envelope => withFilledInCommit(answer, params.text('compilerversion'), ctx);
  const dryRun = ['1', 'true'].includes(params.text('dryrun').toLowerCase());
  if (dryRun) {
    // Verified and diagnosed like any submission, published nowhere, counted against the key's dry runs.
    const found = await codeOrRefusal(ctx, submission.address);
    if (!found.ok) return found.refusal;
    return answered(await queueForKey(ctx, caller.key, { kind: 'source', submission, dryRun: true }));
  }

  // A partial match (or one whose runtime code was never compared) stays open to a better
  // one: whoever verified first must not lock the owner's exact sources out. A full match
  // cannot be bettered: it publishes only what its metadata proves, whoever submitted it. A
  // record of code the address no longer holds locks nothing: it is taken off first.
  await ctx.records.check(submission.address);
  const existing = await getStoredVerdict(ctx.store.db, submission.address);
  if (existing && !canBeImproved(existing)) return fail(TEXT.alreadyVerified);

  // A node behind a load balancer may not show a deployment of a moment ago: it is given a few seconds.
  const found = await codeOrRefusal(ctx, submission.address);
  if (!found.ok) return found.refusal;

  // An exact copy of a verified contract is verified through it at once, whatever this
  // submission proves (its job then finds it verified). A partial copy is not waited for: the
  // chain follower and reads record one, and this submission's job may be a full match.
  if (!existing) await ctx.copies.tryVerifyExact(submission.address, found.code);

  // Last checks before the job is written: only submissions that would be accepted count.
  const answer = await queueForKey(ctx, caller.key, { kind: 'source', submission }, { wake: false });
  // Sources compiled before need no compiler: the verdict is there by the first status check.
  if (answer.status === '1' && !(await ctx.runKnown(String(answer.result), submission))) ctx.wakeJobs({ receipt: String(answer.result), submission });
  return answered(answer);
}

/** A receipt for a version named without its commit says, in `message`, which commit was used (clients read the receipt from `result`). */
function withFilledInCommit(answer: Envelope, versionText: string, ctx: ApiContext): Envelope {
  if (answer.status !== '1') return answer;
  const read = readSubmittedVersion(versionText, ctx.releases);
  return read.ok && read.value.commitFilledIn ? ok(answer.result, TEXT.okCommitFilledIn(versionText, read.value.long)) : answer;
}
