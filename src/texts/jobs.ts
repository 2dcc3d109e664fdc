/**
 * How a job reads, worded when it is read: `checkverifystatus`, `checkproxyverification`,
 * `checkbuildstatus`, the receipt page and its JSON all word a job here, from the codes and
 * facts it keeps (core/jobResults.ts). A job finished before results were kept that way has
 * its text in `resultText`, which is answered as it was.
 */

import { isVyperDiagnosis } from '../core/diagnosis.js';
import type { ErrorFacts } from '../core/errors.js';
import { type FailureResult, type JobResult, storedErrorFacts, type UnfinishedResult } from '../core/jobResults.js';
import { diagnosisSentences, vyperDiagnosisSentences } from './diagnosis.js';
import { compilerErrorsText, errorSentence, flatteningRepairsText, unrelatedCodeText, verdictReason } from './errors.js';
import { TEXT } from './etherscan.js';

/** What the texts read of a job (the store's JobStatus has these fields). */
export interface JobView {
  kind: string;
  state: string;
  address: string;
  /** The text a job finished before texts were worded at read time kept; null for later ones. */
  resultText: string | null;
  /** What the job kept, decoded (store/jobResult.ts). */
  result: JobResult | null;
  lastError: string | null;
}

/** A status answer: an Etherscan envelope's status ("1" when ok) and its result text. */
export interface StatusText {
  ok: boolean;
  text: string;
  /**
   * What the envelope's `message` says instead of `OK` for a pass that is not a full match
   * (clients compare the result with `Pass - Verified`; none compares the message).
   */
  message?: string;
}

/** Why a pass is not a full match (a partial match, a flattened file verified with lines removed), or null for a full match. */
export function passCaveat(job: JobView): string | null {
  const passed = job.result?.outcome === 'source_pass' ? job.result.document : null;
  if (!passed) return null;
  const repairs = passed.flatteningRepairs ?? [];
  const parts: string[] = [];
  if (passed.matchKind === 'partial') {
    // A metadata hash that matched proves the sources and settings: then what is unproven is the immutables' values.
    parts.push(
      passed.runtimeMatch === 'full'
        ? 'the code and its metadata hash match, but nothing proves the values of its immutables: no creation code that wrote them was found or matched'
        : "the code matches but the metadata hash does not: these sources or metadata settings are not exactly the build's",
    );
  }
  if (repairs.length > 0) parts.push(`the flattened file compiled only with these lines removed: ${flatteningRepairsText(repairs.slice(0, 20))}`);
  return parts.length > 0 ? parts.join('; ') : null;
}

/** The error a failed job kept, if it kept one. */
function failureOf(job: JobView): FailureResult | null {
  return job.result?.outcome === 'failure' ? job.result.document : null;
}

function unfinishedOf(job: JobView): UnfinishedResult['error'] | null {
  return job.result?.outcome === 'unfinished' ? job.result.document.error : null;
}

/** A job's last error (the one it is retried for), in words. */
export function lastErrorText(stored: string | null): string {
  if (!stored) return '';
  const facts = storedErrorFacts(stored);
  return facts ? errorSentence(facts) : stored;
}

/** A job that ended without a verdict of its own: what could not be done, and the last error. */
function unfinishedText(job: JobView, error: UnfinishedResult['error']): string {
  const what = job.kind === 'proxy' ? 'The proxy could not be checked' : 'The verification could not be completed';
  // The last error is a sentence of its own (the chain's and the compilers' texts say what to do).
  // An unexpected error's own text is for the logs, not for clients.
  const last = lastErrorText(job.lastError) || (error.code === 'attempts_exhausted' ? lastErrorText(error.message) : '');
  return last ? `${what}. ${last}` : `${what}; please try again later.`;
}

/** The reason a failed source verification gives after `Fail - Unable to verify.`, its diagnosis included. */
export function sourceFailureReason(job: JobView): string {
  if (job.resultText !== null) return job.resultText;
  const failure = failureOf(job);
  if (failure) {
    const reason = verdictReason(failure);
    // Another contract at the address: said unless a diagnosis found these sources' contract there (a name).
    const address = failure.diagnosis?.fix ? '' : unrelatedCodeText(failure);
    const plain = address ? `${reason}${/[.?!]$/.test(reason) ? '' : '.'} ${address}` : reason;
    const more = failure.diagnosis
      ? isVyperDiagnosis(failure.diagnosis)
        ? vyperDiagnosisSentences(failure.diagnosis)
        : diagnosisSentences(failure.diagnosis)
      : failure.diagnosisSkipped
        ? `${errorSentence(failure.diagnosisSkipped)}.`
        : null;
    return more ? `${plain}${/[.?!]$/.test(plain) ? '' : '.'} ${more}` : plain;
  }
  const unfinished = unfinishedOf(job);
  return unfinished ? unfinishedText(job, unfinished) : '';
}

function isDryRun(job: JobView): boolean {
  return (job.result?.outcome === 'source_pass' && job.result.document.dryRun === true) || job.resultText === TEXT.passDryRun;
}

/**
 * `checkverifystatus`: pending, the pass (or dry-run pass), already verified, or the failure:
 * with its reason and diagnosis for a client that reads reasons, the bare text for one that
 * compares the whole text (hardhat-verify 2).
 */
export function verifyStatusText(job: JobView, readsReasons: boolean, receiptUrl?: string): StatusText {
  const withUrl = (text: string): string => (receiptUrl ? `${text}${/[.?!)]$/.test(text) ? '' : '.'} ${TEXT.receiptPage(receiptUrl)}` : text);
  switch (job.state) {
    case 'queued':
    case 'running':
      return { ok: false, text: TEXT.pending };
    case 'pass': {
      const caveat = passCaveat(job);
      return { ok: true, text: isDryRun(job) ? TEXT.passDryRun : TEXT.pass, ...(caveat ? { message: TEXT.okPartialMatch(caveat) } : {}) };
    }
    case 'already_verified':
      return { ok: false, text: TEXT.alreadyVerifiedStatus };
    default:
      if (job.kind === 'build') {
        const text = buildStatusText(job).text;
        return { ok: false, text: readsReasons ? withUrl(text) : TEXT.fail };
      }
      return { ok: false, text: readsReasons ? withUrl(TEXT.failWithReason(sourceFailureReason(job))) : TEXT.fail };
  }
}

/** `checkproxyverification`: `Pending in queue` until final, then the implementation found or why none was. */
export function proxyStatusText(job: JobView): StatusText {
  if (job.state === 'queued' || job.state === 'running') return { ok: false, text: TEXT.pending };
  if (job.resultText) return { ok: job.state === 'pass', text: job.resultText };
  if (job.state === 'pass')
    return { ok: true, text: TEXT.proxyFound(job.address, job.result?.outcome === 'proxy_found' ? job.result.document.implementation : '') };
  const unfinished = unfinishedOf(job);
  if (unfinished) return { ok: false, text: unfinishedText(job, unfinished) };
  const notFound = job.result?.outcome === 'proxy_not_found' ? job.result.document : null;
  if (notFound?.reason === 'expected_implementation_differs') {
    return { ok: false, text: TEXT.proxyExpectedDiffers(notFound.expectedImplementation ?? '', notFound.candidates?.[0]?.implementation ?? '0x') };
  }
  return { ok: false, text: TEXT.proxyNotDetected };
}

/** `checkbuildstatus`'s status text: the pass, or why the build could not be verified. */
export function buildStatusText(job: JobView): StatusText {
  if (job.state === 'queued' || job.state === 'running') return { ok: false, text: TEXT.pending };
  if (job.state === 'pass') return { ok: true, text: job.resultText ?? TEXT.pass };
  if (job.resultText !== null) return { ok: false, text: job.resultText };
  const failure = failureOf(job);
  if (failure) return { ok: false, text: buildFailureText(failure) };
  const unfinished = unfinishedOf(job);
  return { ok: false, text: unfinished ? unfinishedText(job, unfinished) : TEXT.fail };
}

function buildFailureText(failure: ErrorFacts): string {
  switch (failure.code) {
    case 'compiler_error':
      return compilerErrorsText(failure.details.errors, failure.details.language);
    case 'compile_timeout':
    case 'compile_out_of_memory':
    case 'compile_output_too_large':
    case 'compiler_crashed':
    case 'compiler_version_not_found':
      return TEXT.compilationError(errorSentence(failure));
    default:
      return TEXT.failWithReason(errorSentence(failure));
  }
}

/** What the receipt's JSON gives as `status`: what a client that reads reasons is answered. */
export function receiptStatusText(job: JobView): string {
  if (job.kind === 'proxy') return proxyStatusText(job).text;
  return verifyStatusText(job, true).text;
}

/** The receipt's pass in words, with why it is not a full match: `Pass - Verified (partial match: ...)`. */
function passWithCaveat(job: JobView, text: string): string {
  const caveat = passCaveat(job);
  return caveat ? `${text} (partial match: ${caveat})` : text;
}

/** The one line the receipt page shows for a finished job. */
export function receiptOutcomeText(job: JobView): string {
  if (job.kind === 'proxy') return proxyStatusText(job).text;
  if (job.kind === 'build') return buildStatusText(job).text;
  if (job.state === 'fail') return sourceFailureReason(job) || 'Unable to verify';
  return passWithCaveat(job, verifyStatusText(job, true).text);
}

/**
 * Advice for a partial match of a single file: the file's name and its imports are not the
 * build's, so the metadata hash differs; the build's own input proves a full match.
 */
export const PARTIAL_SINGLE_FILE_ADVICE =
  "A partial match: these sources compile to the deployed code, but its metadata hash names the build's own files and settings, which a single file cannot carry. The build's own input gives a full match: submit its build-info file (Foundry: out/build-info/*.json after forge build --build-info; Hardhat: artifacts/build-info/*.json) or its standard JSON input (forge verify-contract --show-standard-json-input).";
