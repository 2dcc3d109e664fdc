import type { Hex, MatchKind } from '../core/types.js';
import type { CodeMatch } from './matchBytecode.js';
import type { TransformationValues } from './transformations.js';

/** What a runtime match and a creation match prove together. */
export interface ContractVerdict {
  /** Full when the runtime match is full with its immutables proven, or the creation match is full. */
  matchKind: MatchKind;
  /** How the runtime code matched: full when its metadata hash is proven (its immutables may not be: see unprovenImmutables). */
  runtimeMatch: MatchKind;
  creationMatch: MatchKind | null;
  /**
   * Immutable values the runtime match copied from the chain that no matched creation code
   * proves (AST id, or solc's name for an internal one, to value). Empty when none.
   */
  unprovenImmutables: Record<string, Hex>;
}

/**
 * The verdict of a runtime match and a creation match (docs/matching.md, Immutables and The
 * verdict). Immutable values are written by the constructor and copied from the chain for the
 * comparison: only a creation code that matched (the constructor really ran, with the proven
 * arguments) proves them. Without one they are values the chain holds, not values the sources
 * give, and a match that takes them on trust is partial, however exactly the rest of the code
 * and its metadata match.
 */
export function contractVerdict(runtime: CodeMatch, creation: CodeMatch | null): ContractVerdict {
  const creationMatch = creation?.kind ?? null;
  const unprovenImmutables = unprovenImmutableValues(runtime.values, creationMatch);
  const runtimeProves = runtime.kind === 'full' && Object.keys(unprovenImmutables).length === 0;
  return {
    matchKind: runtimeProves || creationMatch === 'full' ? 'full' : 'partial',
    // The metadata is proven all the same: such a match ranks above one whose metadata differs.
    runtimeMatch: runtime.kind,
    creationMatch,
    unprovenImmutables,
  };
}

/** The immutable values of a runtime match that nothing proves: all of them when no creation code matched. */
export function unprovenImmutableValues(runtimeValues: TransformationValues, creationMatch: MatchKind | null): Record<string, Hex> {
  return creationMatch === null ? { ...(runtimeValues.immutables ?? {}) } : {};
}
