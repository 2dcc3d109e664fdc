/**
 * Why the service refuses a request, as codes with their facts: decided by the use cases,
 * worded in texts/ (refusals.ts in Etherscan's words, for /api and the form; the Sourcify door
 * picks Sourcify's status and code for each and words it with sourcify.ts).
 */
import type { Address } from './types.js';

/** Why a request may not run: a key that is none, a client in its invalid-key cool-down, or a rate spent. */
export type AccessRefusal = 'invalid_key' | 'too_many_invalid_keys' | 'keyless_rate' | 'keyed_rate';

/** The address has a verification no submission can better. */
export interface FinalRecord {
  code: 'already_verified';
  address: Address;
}

/** Why a verification of an address may not be queued: its record is final, or this submitter's own verification of it has not finished. */
export type AdmissionRefusal = FinalRecord | { code: 'own_job_unfinished'; address: Address; receipt: string };

/** Why there is no code to verify: none at the block last asked, or no node to ask. */
export type NoCode = { code: 'no_code'; address: Address; block: bigint; waitedMs: number } | { code: 'node_unavailable' };

/** The daily quotas a submitter has. */
export type SubmissionQuota = 'verify' | 'proxy' | 'dry_run';

/** Why the submitter may not queue more now: its quota of the day, or its jobs still unfinished. */
export type QueueRefusal = { code: 'daily_quota'; kind: SubmissionQuota; limit: number; resetsAt: Date } | { code: 'too_many_unfinished'; unfinished: number };

export type SubmitRefusal = AdmissionRefusal | NoCode | QueueRefusal;
