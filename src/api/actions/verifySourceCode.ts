import { readSubmittedVersion } from '../../core/compilerVersion.js';
import { isVyperSubmission } from '../../core/types.js';
import { readSubmittedVyperVersion } from '../../core/vyperVersion.js';
import { submitRefusalText, TEXT } from '../../texts/index.js';
import { parseSourceSubmission, type Services, submitSource } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

/**
 * `verifysourcecode`: reads the fields (with `dryrun=1`: a check that publishes nothing) and
 * submits them; the receipt comes once the job is stored.
 */
export async function verifySourceCode(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  if (!caller.key) return fail(TEXT.invalidApiKey);
  const parsed = parseSourceSubmission(params, s.releases);
  if (!parsed.ok) return fail(parsed.error);
  const dryRun = ['1', 'true'].includes(params.text('dryrun').toLowerCase());
  const submitted = await submitSource(s, { key: caller.key }, parsed.value, { dryRun });
  if (!submitted.ok) return fail(submitRefusalText(submitted.refusal));
  if (isVyperSubmission(parsed.value)) return withFilledInVyperCommit(ok(submitted.receipt), parsed.value.compilerVersion);
  return withFilledInCommit(ok(submitted.receipt), params.text('compilerversion'), s);
}

/** The same for a Vyper release named without its commit (`vyper:0.4.3`, as Etherscan's clients send it). */
function withFilledInVyperCommit(answer: Envelope, versionText: string): Envelope {
  const read = readSubmittedVyperVersion(versionText);
  return read.ok && read.value.commitFilledIn ? ok(answer.result, TEXT.okVyperCommitFilledIn(versionText, read.value.long)) : answer;
}

/** A receipt for a version named without its commit says, in `message`, which commit was used (clients read the receipt from `result`). */
function withFilledInCommit(answer: Envelope, versionText: string, s: Services): Envelope {
  const read = readSubmittedVersion(versionText, s.releases);
  return read.ok && read.value.commitFilledIn ? ok(answer.result, TEXT.okCommitFilledIn(versionText, read.value.long)) : answer;
}
