import type { MatchKind, VerificationMethod } from '../core/types.js';

/** The parts of a verdict that say how much of the deployed contract was proven. */
export interface VerdictStrength {
  matchKind: MatchKind;
  /** Null only in records from before the runtime code had to match. */
  runtimeMatch: MatchKind | null;
  creationMatch: MatchKind | null;
  /** How it was verified: it does not change what a verdict proves, so it never ranks one above another. */
  method?: VerificationMethod;
}

/**
 * Orders verdicts by what they prove: a full match (every source byte and setting, through
 * the metadata hash, and every immutable value) above a partial one; then a matched runtime
 * code (what is deployed) above none; then a matched creation code (which also proves the
 * constructor arguments), full above partial.
 */
export function verdictRank(v: VerdictStrength): number {
  return (
    (v.matchKind === 'full' ? 1000 : 0) +
    (v.runtimeMatch === 'full' ? 200 : v.runtimeMatch === 'partial' ? 100 : 0) +
    (v.creationMatch === 'full' ? 20 : v.creationMatch === 'partial' ? 10 : 0)
  );
}

/**
 * True when `candidate` proves strictly more than `existing`: only then may it replace it.
 * Records are about code, not about who sent it: a submission that proves as much as a similar
 * match (or as another submission) publishes the same proven files and licence, so it changes
 * nothing and replaces nothing (the first record stays, whoever made it).
 */
export function isBetterVerdict(candidate: VerdictStrength, existing: VerdictStrength): boolean {
  return verdictRank(candidate) > verdictRank(existing);
}

/**
 * False when no submission can prove more: a full match of the runtime code. (A creation code
 * that was not found or did not match stays so for every submission: the metadata and the
 * immutables are already proven.) Records whose runtime code was never compared, and partial
 * matches, can always be improved.
 */
export function canBeImproved(existing: VerdictStrength): boolean {
  return !(existing.matchKind === 'full' && existing.runtimeMatch !== null);
}
