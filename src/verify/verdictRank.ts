import type { MatchKind, VerificationMethod } from '../core/types.js';

/** The parts of a verdict that say how much of the deployed contract was proven. */
export interface VerdictStrength {
  matchKind: MatchKind;
  /** Null only in records from before the runtime code had to match. */
  runtimeMatch: MatchKind | null;
  creationMatch: MatchKind | null;
  /** How it was verified; a submission (or a build) counts as 'submitted' when not said. */
  method?: VerificationMethod;
  /** The compiled contract it was matched with (its compilation is the published sources and settings). */
  compiledContractId?: string;
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
 * True when `candidate` may replace `existing`: it proves strictly more. One exception, which
 * changes nothing that is published: a submission (or a build) of the very compilation a similar
 * match was made from takes that match's place, so the deployer who submits the sources the
 * service already matched gets a record of their own. Any other submission proving only as much
 * replaces nothing, whoever sent it: the first record stays.
 */
export function isBetterVerdict(candidate: VerdictStrength, existing: VerdictStrength): boolean {
  const a = verdictRank(candidate);
  const b = verdictRank(existing);
  if (a !== b) return a > b;
  return (
    existing.method === 'similar' &&
    candidate.method !== 'similar' &&
    candidate.compiledContractId !== undefined &&
    candidate.compiledContractId === existing.compiledContractId
  );
}

/**
 * False when no submission can prove more: a full match of the runtime code that was submitted
 * for this address. (A creation code that was not found or did not match stays so for every
 * submission: the metadata and the immutables are already proven.) Records whose runtime code
 * was never compared, partial matches, and similar matches (the submission of the compilation
 * they were made from takes their place: see isBetterVerdict) stay open.
 */
export function canBeImproved(existing: VerdictStrength): boolean {
  if (existing.method === 'similar') return true;
  return !(existing.matchKind === 'full' && existing.runtimeMatch !== null);
}

/** How much a verdict proves, overall and part by part: the one answer every door gives. */
export interface ProvenMatch {
  /** Full only when every source byte, every setting and every immutable value is proven. */
  match: MatchKind;
  creation: MatchKind | null;
  runtime: MatchKind | null;
}

/**
 * What a verdict proves, as every door reports it. A runtime code matched byte for byte is
 * still only partly proven while nothing proves its immutables' values (no creation code ran
 * the constructor with proven arguments, e.g. code placed with anvil_setCode): its part is
 * partial whenever the whole verdict is. A creation match full proves the rest with it.
 */
export function provenMatch(v: Pick<VerdictStrength, 'matchKind' | 'runtimeMatch' | 'creationMatch'>): ProvenMatch {
  // Records written before the runtime code had to match say only their overall kind.
  const runtime = v.runtimeMatch ?? v.matchKind;
  return {
    match: v.matchKind,
    creation: v.creationMatch,
    runtime: runtime === 'full' && v.matchKind !== 'full' ? 'partial' : runtime,
  };
}
