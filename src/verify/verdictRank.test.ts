import { describe, expect, it } from 'vitest';
import { canBeImproved, isBetterVerdict, type VerdictStrength, verdictRank } from './verdictRank.js';

const v = (matchKind: 'full' | 'partial', runtimeMatch: 'full' | 'partial' | null, creationMatch: 'full' | 'partial' | null): VerdictStrength => ({
  matchKind,
  runtimeMatch,
  creationMatch,
});

describe('verdict strength', () => {
  it('puts a full match above every partial one, then a matched runtime code, then a matched creation code', () => {
    const ordered = [
      v('partial', null, 'partial'),
      v('partial', 'partial', null),
      v('partial', 'partial', 'partial'),
      v('full', null, 'full'),
      v('full', 'full', null),
      v('full', 'full', 'partial'),
      v('full', 'full', 'full'),
    ];
    const ranks = ordered.map(verdictRank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(new Set(ranks).size).toBe(ranks.length);
  });

  it('replaces only with something strictly better', () => {
    expect(isBetterVerdict(v('full', 'full', 'full'), v('partial', 'partial', 'partial'))).toBe(true);
    expect(isBetterVerdict(v('partial', 'partial', 'partial'), v('partial', 'partial', 'partial'))).toBe(false);
    expect(isBetterVerdict(v('partial', 'partial', 'partial'), v('partial', 'partial', null))).toBe(true);
    expect(isBetterVerdict(v('partial', 'partial', 'partial'), v('full', 'full', null))).toBe(false);
    // A submission proving as much as a similar match replaces it only when it is the compilation the match was made from.
    const similar = { ...v('full', 'full', 'full'), method: 'similar' as const, compiledContractId: 'a' };
    expect(isBetterVerdict({ ...v('full', 'full', 'full'), method: 'submitted', compiledContractId: 'a' }, similar)).toBe(true);
    expect(isBetterVerdict({ ...v('full', 'full', 'full'), method: 'submitted', compiledContractId: 'b' }, similar)).toBe(false);
    expect(isBetterVerdict({ ...v('full', 'full', 'full'), method: 'submitted' }, similar)).toBe(false);
    // Never over another submission, whatever it was compiled from.
    expect(isBetterVerdict({ ...v('full', 'full', 'full'), method: 'submitted', compiledContractId: 'a' }, { ...similar, method: 'submitted' })).toBe(false);
  });

  it('calls a full match of the runtime code final; anything else stays open', () => {
    expect(canBeImproved(v('full', 'full', 'full'))).toBe(false);
    expect(canBeImproved(v('full', 'full', null))).toBe(false);
    expect(canBeImproved({ ...v('full', 'full', null), method: 'similar' })).toBe(true);
    expect(canBeImproved(v('partial', 'partial', 'partial'))).toBe(true);
    // Verified from the creation code alone, before the runtime code had to match.
    expect(canBeImproved(v('full', null, 'full'))).toBe(true);
  });
});
