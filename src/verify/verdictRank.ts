import type { MatchKind, VerificationMethod } from '../core/types.js';

/** The parts of a verdict that say how much of the deployed contract was proven. */
export interface VerdictStrength {
  matchKind: MatchKind;
  /** Null only in records from before the runtime code had to match. */
  runtimeMatch: MatchKind | null;
  creationMatch: MatchKind | null;
  /** How it was verified; a submission (or a build) counts as 'submitted' when not said. */
  method?: VerificationMethod;
}

/** Sources someone submitted for this address (or a build of theirs) above a copy's match through another address. */
function methodRank(v: VerdictStrength): number {
  return v.method === 'similar' ? 0 : 1;
}

/**
 * Orders verdicts by what they prove: a full match (every source byte and setting, through
 * the metadata hash) above a partial one; then a matched runtime code (what is deployed)
 * above none; then a matched creation code (which also proves the constructor arguments),
 * full above partial.
 */
export function verdictRank(v: VerdictStrength): number {
  return (
    (v.matchKind === 'full' ? 1000 : 0) +
    (v.runtimeMatch === 'full' ? 200 : v.runtimeMatch === 'partial' ? 100 : 0) +
    (v.creationMatch === 'full' ? 20 : v.creationMatch === 'partial' ? 10 : 0)
  );
}

/**
 * True when `candidate` proves strictly more than `existing`, or proves as much and was
 * submitted for this address where `existing` is a similar match: it may replace it.
 */
export function isBetterVerdict(candidate: VerdictStrength, existing: VerdictStrength): boolean {
  const a = verdictRank(candidate);
  const b = verdictRank(existing);
  return a > b || (a === b && methodRank(candidate) > methodRank(existing));
}

/**
 * False when no submission can prove more: a full match of the runtime code that was
 * submitted for this address. (A creation code that was not found or did not match stays so
 * for every submission: the metadata is already proven.) Records whose runtime code was
 * never compared, and similar matches (the owner may verify their own sources), can always
 * be improved.
 */
export function canBeImproved(existing: VerdictStrength): boolean {
  if (existing.method === 'similar') return true;
  return !(existing.matchKind === 'full' && existing.runtimeMatch !== null);
}
