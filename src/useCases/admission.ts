/**
 * Whether a verification of an address may be queued, the same at every door. What may replace
 * what is the domain's rule (verify's canBeImproved: a full match of the runtime code that was
 * submitted is final; partial, runtime-unread and similar matches stay open). The other half of
 * admission, one unfinished job per submitter and address, is checked where the job is written
 * (submitVerification.ts): another submitter's job, however long it waits, never locks an address.
 */
import type { FinalRecord } from '../core/refusals.js';
import type { Address } from '../core/types.js';
import { getStoredVerdict, type StoredVerdict } from '../store/verifiedContracts.js';
import { canBeImproved } from '../verify/index.js';
import type { Services } from './services.js';

/**
 * The record at `address` when a submission could still better it (null when there is none),
 * or the refusal when nothing can. A record of code the address no longer holds locks nothing:
 * it is taken off first.
 */
export async function openRecord(
  s: Pick<Services, 'store' | 'records'>,
  address: Address,
): Promise<{ ok: true; existing: StoredVerdict | null } | { ok: false; refusal: FinalRecord }> {
  await s.records.check(address);
  const existing = await getStoredVerdict(s.store.db, address);
  if (existing && !canBeImproved(existing)) return { ok: false, refusal: { code: 'already_verified', address } };
  return { ok: true, existing };
}
