/**
 * `POST /v2/verify/{chainId}/{address}`: a standard JSON input, its compiler and the contract,
 * submitted as `/api`'s verifysourcecode submits (the same admission, quota and job). Keyless:
 * the job counts against the client address's daily quota and its limit of unfinished jobs.
 */
import { retryAfterSeconds } from '../limits/clientAddress.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Services, type SubmitRefusal, submitSource } from '../useCases/index.js';
import { type Answer, checksummed, errorAnswer, JOB_WAIT_SECONDS } from './answers.js';
import { checkTarget, isAnswer } from './checkTarget.js';
import { readSourcifySubmission } from './readSubmission.js';

export async function verify(
  s: Services,
  params: { chainId?: string | undefined; address?: string | undefined },
  body: unknown,
  client: string,
): Promise<Answer> {
  const target = checkTarget(s.chainId, params);
  if (isAnswer(target)) return target;
  const read = readSourcifySubmission(body, target.address, s.releases);
  if (!read.ok) return errorAnswer(400, 'invalid_parameter', read.message);
  // Sourcify's clients learn from the job that an address holds no code.
  const submitted = await submitSource(s, { client }, read.submission, { noCode: 'job' });
  return submitted.ok ? { status: 202, body: { verificationId: submitted.receipt } } : refusalAnswer(s, submitted.refusal);
}

/** A refused submission in Sourcify's codes and words. */
function refusalAnswer(s: Services, refusal: SubmitRefusal): Answer {
  switch (refusal.code) {
    case 'already_verified':
      return errorAnswer(409, 'already_verified', SOURCIFY_TEXT.alreadyVerified(checksummed(refusal.address), s.chainId));
    case 'own_job_unfinished':
      return {
        ...errorAnswer(429, 'duplicate_verification_request', SOURCIFY_TEXT.beingVerified(checksummed(refusal.address), s.chainId)),
        retryAfterSeconds: JOB_WAIT_SECONDS,
      };
    case 'no_code':
      return errorAnswer(404, 'contract_not_deployed', SOURCIFY_TEXT.notDeployed(s.chainId, checksummed(refusal.address)));
    case 'node_unavailable':
      return errorAnswer(502, 'rpc_unavailable', SOURCIFY_TEXT.nodeUnavailable);
    case 'daily_quota':
      return {
        ...errorAnswer(429, 'too_many_requests', SOURCIFY_TEXT.dailyQuota(refusal.limit, refusal.resetsAt)),
        retryAfterSeconds: retryAfterSeconds(refusal.resetsAt.getTime() - Date.now()),
      };
    case 'too_many_unfinished':
      return { ...errorAnswer(429, 'too_many_requests', SOURCIFY_TEXT.tooManyUnfinished(refusal.unfinished)), retryAfterSeconds: JOB_WAIT_SECONDS };
  }
}
