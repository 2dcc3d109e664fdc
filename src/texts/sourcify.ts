/**
 * The texts of the Sourcify API (`/sourcify/v2/...`): the sentences Sourcify's own server
 * answers for its error codes, in its words where clients know them, and ours for what is
 * ours. The codes are Sourcify's `customCode`s; the edge (src/sourcify/) picks the code and
 * the facts, these word them.
 */

import type { SubmittedVersionProblem } from '../core/compilerVersion.js';
import { withoutV } from '../core/compilerVersion.js';
import type { ErrorFacts } from '../core/errors.js';
import { errorSentence } from './errors.js';
import { utcSecond } from './etherscan.js';

export const SOURCIFY_TEXT = {
  unsupportedChain: (given: string, served: number) => `The chain with chainId ${given.slice(0, 32)} is not supported; this service serves chain ${served}`,
  invalidAddress: (given: string) => `Invalid address "${given.slice(0, 64)}": expected 0x and 40 hex digits`,
  missingField: (name: string) => `The request body must have the field ${name}`,
  invalidField: (name: string, problem: string) => `Invalid ${name}: ${problem}`,
  invalidJson: 'The request body is not a JSON object',
  bodyTooLarge: (limit: number) => `The request body is too large: the limit is ${limit} bytes`,
  tooManyJsonValues: (max: number) => `The request body holds more than ${max} JSON values (objects, arrays and their members); it was not read`,
  invalidVerificationId: (given: string) => `Invalid verificationId "${given.slice(0, 64)}"`,
  jobNotFound: (id: string) => `The verification job with id ${id.slice(0, 64)} was not found`,
  alreadyVerified: (address: string, chainId: number) =>
    `Contract ${address} on chain ${chainId} is already verified with an exact match of its runtime code that no submission can improve.`,
  beingVerified: (address: string, chainId: number) =>
    `Contract ${address} on chain ${chainId} is already being verified by a submission of yours; wait for its verdict before submitting again.`,
  nodeUnavailable: 'The network node could not be reached; please try again later.',
  tooManyRequests: 'You are sending too many requests; please slow down',
  readingLargeBodies: 'The service is reading other large requests; please send this one again in a second',
  dailyQuota: (limit: number, resetsAt: Date) => `Daily limit of ${limit} verifications reached for this client address; it resets at ${utcSecond(resetsAt)}`,
  tooManyUnfinished: (count: number) => `This client address has ${count} verifications waiting or running; submit more when some have finished`,
  routeNotFound: (method: string, path: string) => `${method.slice(0, 16)} ${path.slice(0, 200)} is not a route of this API`,
  internalError: 'The server encountered an unexpected error.',
  noSimilarMatch: 'No similar verified contracts were found in the database.',
  jobAlreadyVerified: "The contract is already verified and the job didn't yield a better match.",
  unfinished: 'The verification could not be completed; please try again later.',
  stillRunning: (id: string) => `The verification is still running; follow it at GET /v2/verify/${id}`,
  missingSources: (paths: string[]) =>
    `The metadata names sources that were not sent (by path or keccak256): ${paths.slice(0, 10).join(', ').slice(0, 500)}${paths.length > 10 ? ', ...' : ''}`,
  notDeployed: (chainId: number, address: string) => `Chain #${chainId} does not have a contract deployed at ${address}.`,
} as const;

/** Sourcify's sentence for a job's error code (lib-sourcify's wording where it has one). */
const CODE_SENTENCES: Record<string, string> = {
  no_match: "The deployed and recompiled bytecode don't match.",
  compiler_error: 'Compiler error.',
  contract_not_found_in_compiler_output: 'Contract not found in compiler output.',
  compiled_bytecode_is_zero: 'The compiled contract bytecode is "0x". Are you trying to verify an abstract contract?',
  invalid_compiler_version: 'Invalid compiler version.',
  compiler_timeout: 'The compiler timed out while compiling the contract. The compilation took too long and was aborted.',
  compiler_out_of_memory: 'The compiler process was killed unexpectedly, likely because it ran out of memory while compiling the contract.',
  invalid_parameter: 'The submission cannot be compiled as sent.',
  already_verified: SOURCIFY_TEXT.jobAlreadyVerified,
  internal_error: SOURCIFY_TEXT.internalError,
};

/**
 * A failed job's message: Sourcify's sentence for the code, then what the service found (the
 * reason and, when a diagnosis ran, what to change), so that a client that prints only the
 * message shows it all.
 */
export function sourcifyJobErrorMessage(customCode: string, facts: ErrorFacts | null, reason: string, context: { chainId: number; address: string }): string {
  if (customCode === 'contract_not_deployed') return SOURCIFY_TEXT.notDeployed(context.chainId, context.address);
  const sentence = CODE_SENTENCES[customCode] ?? SOURCIFY_TEXT.internalError;
  const ours = reason || (facts ? errorSentence(facts) : '');
  return ours ? `${sentence} ${ours}` : sentence;
}

/** Why a submitted `compilerVersion` was refused (Sourcify sends versions without the `v`; both are read). */
export function sourcifyVersionProblem(p: SubmittedVersionProblem): string {
  switch (p.problem) {
    case 'not_a_long_version':
      return `"${p.given}" is not a solc long version like 0.8.26+commit.8a97fa7a`;
    case 'not_a_release':
      return `"${p.given}" is not a solc release; did you mean ${withoutV(p.longVersion)}?`;
    case 'commit_too_short':
      return `"${p.given}" does not name a commit of solc ${p.release}: send its whole long version, with the 8-digit commit`;
  }
}
