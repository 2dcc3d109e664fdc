/**
 * Whether a verification of an address may be queued, the same at every door. What may replace
 * what is the domain's rule (verify's canBeImproved: a full match of the runtime code that was
 * submitted is final; partial, runtime-unread and similar matches stay open). An unfinished job
 * holds back its own submitter's duplicate only: another submitter's job, however long it
 * waits in the queue, never locks an address.
 */
import type { AdmissionRefusal, FinalRecord } from '../core/refusals.js';
import type { Address } from '../core/types.js';
import { unfinishedSourceJob } from '../store/verificationJobs.js';
import { getStoredVerdict, type StoredVerdict } from '../store/verifiedContracts.js';
import { canBeImproved } from '../verify/index.js';
import type { Services } from './services.js';

export type Admission = { ok: true; existing: StoredVerdict | null } | { ok: false; refusal: AdmissionRefusal };

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

/** Admits a verification of `address` by `submitterId`: an open record, and no unfinished job of the same submitter for it. */
export async function admitVerification(s: Pick<Services, 'store' | 'records'>, address: Address, submitterId: string): Promise<Admission> {
  const open = await openRecord(s, address);
  if (!open.ok) return open;
  const own = await unfinishedSourceJob(s.store.db, address, submitterId);
  if (own) return { ok: false, refusal: { code: 'own_job_unfinished', address, receipt: own } };
  return open;
}
