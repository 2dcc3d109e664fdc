/**
 * A similar match asked for, with nothing submitted: the deployed code matched against the
 * stored compilations (the bytecode database's copy recognition: no compile, every byte outside
 * the masked regions compared). It needs no compiler, so it is answered at once.
 */
import type { FinalRecord } from '../core/refusals.js';
import type { Address } from '../core/types.js';
import { getVerifiedContract, type VerifiedContract } from '../store/verifiedContracts.js';
import { openRecord } from './admission.js';
import type { Services } from './services.js';

export type SimilarMatch = { ok: true; contract: VerifiedContract } | { ok: false; refusal: FinalRecord | { code: 'no_similar_match' } };

/** Verifies `address` as a copy of a verified contract when its record is open to it; the contract it is verified as. */
export async function verifySimilar(s: Pick<Services, 'store' | 'records' | 'copies'>, address: Address): Promise<SimilarMatch> {
  const open = await openRecord(s, address);
  if (!open.ok) return open;
  if (!open.existing) await s.copies.tryVerify(address);
  const contract = await getVerifiedContract(s.store.db, address);
  return contract ? { ok: true, contract } : { ok: false, refusal: { code: 'no_similar_match' } };
}
