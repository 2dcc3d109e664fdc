/**
 * `GET /v2/verify/{verificationId}`: a verification job as Sourcify describes one. 200 for
 * every job that exists, pending, passed or failed; the failure is `error` with Sourcify's
 * `customCode`, and the service's facts (its own code, the diagnosis) in `errorData`.
 * `verificationId` is the job's receipt: the same job answers `/api`'s checkverifystatus.
 */
import { createHash } from 'node:crypto';
import type { ErrorFacts } from '../core/errors.js';
import { isReceipt } from '../core/receipt.js';
import { SOURCIFY_TEXT, sourceFailureReason, sourcifyJobErrorMessage } from '../texts/index.js';
import { checkJob, isFinished, type JobStatus, provenByJob, type Services } from '../useCases/index.js';
import { type Answer, type ContractMinimal, checksummed, errorAnswer, isoSecond, matchIdOf, sourcifyMatch, unmatched } from './answers.js';

/** The service's error codes in Sourcify's (lib-sourcify's where it has one). */
const CUSTOM_CODES: Record<string, string> = {
  no_match: 'no_match',
  runtime_mismatch: 'no_match',
  constructor_arguments_mismatch: 'no_match',
  library_mismatch: 'no_match',
  contract_not_found_in_output: 'contract_not_found_in_compiler_output',
  no_contract_in_build: 'contract_not_found_in_compiler_output',
  compiler_error: 'compiler_error',
  abstract_contract: 'compiled_bytecode_is_zero',
  contract_not_deployed: 'contract_not_deployed',
  already_verified: 'already_verified',
  compiler_version_not_found: 'invalid_compiler_version',
  compile_timeout: 'compiler_timeout',
  compile_out_of_memory: 'compiler_out_of_memory',
  compile_output_too_large: 'compiler_out_of_memory',
  invalid_input: 'invalid_parameter',
  invalid_standard_json: 'invalid_parameter',
};

/** A UUID made from the receipt: the error of one job keeps one `errorId` however often it is read. */
function stableErrorId(receipt: string): string {
  const h = createHash('sha256').update(`error:${receipt}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function jobStatus(s: Services, verificationId: string | undefined): Promise<Answer> {
  const id = verificationId ?? '';
  if (!isReceipt(id)) return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidVerificationId(id));
  const job = await checkJob(s, id, ['source']);
  if (!job) return errorAnswer(404, 'job_not_found', SOURCIFY_TEXT.jobNotFound(id));
  const done = isFinished(job);
  const body: Record<string, unknown> = {
    isJobCompleted: done,
    verificationId: job.receipt,
    jobStartTime: isoSecond(Number(job.createdAt)),
  };
  if (done && job.finishedAt !== null) {
    body.jobFinishTime = isoSecond(Number(job.finishedAt));
    // The time from submission to verdict (no compile at all for a compilation reused from the store).
    const reused = job.result?.outcome === 'source_pass' && job.result.document.reusedCompilation === true;
    body.compilationTime = reused ? '0' : String(Math.max(0, Number(job.finishedAt) - Number(job.createdAt)));
  }
  body.contract = await contractOf(s, job);
  if (done && job.state !== 'pass') body.error = errorOf(s, job);
  return { status: 200, body };
}

async function contractOf(s: Services, job: JobStatus): Promise<ContractMinimal> {
  const proven = await provenByJob(s, job);
  if (!proven) return unmatched(s.chainId, job.address);
  const { proof, verifiedAt } = proven;
  return {
    match: sourcifyMatch(proof.match),
    creationMatch: sourcifyMatch(proof.creation),
    runtimeMatch: sourcifyMatch(proof.runtime),
    chainId: String(s.chainId),
    address: checksummed(job.address),
    // The record this job wrote, while it stands (a later one may have replaced it since).
    ...(verifiedAt !== null ? { verifiedAt: isoSecond(verifiedAt), matchId: matchIdOf({ verifiedAt, address: job.address }) } : {}),
  };
}

function errorOf(s: Services, job: JobStatus): Record<string, unknown> {
  const errorId = stableErrorId(job.receipt);
  const place = { chainId: s.chainId, address: job.address };
  if (job.state === 'already_verified') {
    return { customCode: 'already_verified', message: SOURCIFY_TEXT.jobAlreadyVerified, errorId };
  }
  const failure = job.result?.outcome === 'failure' ? job.result.document : null;
  if (!failure) {
    // No verdict of its own (attempts ran out, an unexpected failure): said so, with what is known.
    const reason = sourceFailureReason(job);
    return { customCode: 'internal_error', message: reason || SOURCIFY_TEXT.unfinished, errorId };
  }
  const facts = { code: failure.code, details: failure.details } as ErrorFacts;
  const customCode = CUSTOM_CODES[failure.code] ?? 'internal_error';
  const errorData: Record<string, unknown> = { code: failure.code, details: failure.details };
  if (failure.reasonCode) errorData.reasonCode = failure.reasonCode;
  if (failure.diagnosis !== undefined) errorData.diagnosis = failure.diagnosis;
  if (failure.diagnosisSkipped) errorData.diagnosisSkipped = failure.diagnosisSkipped;
  if (failure.code === 'compiler_error') errorData.compilerErrors = failure.details.errors;
  return { customCode, message: sourcifyJobErrorMessage(customCode, facts, sourceFailureReason(job), place), errorId, errorData };
}
