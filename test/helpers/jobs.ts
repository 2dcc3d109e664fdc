import type { Address, SingleFileSubmission } from '../../src/core/types.js';
import type { JobRequest } from '../../src/store/jobRequest.js';
import { submissionWith } from './submissions.js';

/** A source verification request for `address` (a plain single-file submission, changed by `overrides`). */
export function sourceJob(address: string, overrides: Partial<SingleFileSubmission> = {}): JobRequest {
  return { kind: 'source', submission: submissionWith({ address: address as Address, ...overrides }) };
}

/** A proxy detection request for `address`. */
export function proxyJob(address: string): JobRequest {
  return { kind: 'proxy', proxy: { address: address as Address } };
}
