import { describe, expect, it } from 'vitest';
import { matched, matchesOf, sourcifyMatch, unmatched } from './answers.js';
import { readSelection } from './contract.js';

describe("Sourcify's match words", () => {
  it('full is exact_match, partial is match, nothing is null', () => {
    expect([sourcifyMatch('full'), sourcifyMatch('partial'), sourcifyMatch(null)]).toEqual(['exact_match', 'match', null]);
  });

  it('the overall match is what the verdict proved; a runtime part is exact only when the whole verdict is', () => {
    expect(matchesOf({ matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' })).toEqual({
      match: 'exact_match',
      creationMatch: 'exact_match',
      runtimeMatch: 'exact_match',
    });
    // Runtime code placed without a creation (anvil_setCode): its immutables' values are the chain's word, not proven.
    expect(matchesOf({ matchKind: 'partial', creationMatch: null, runtimeMatch: 'full' })).toEqual({
      match: 'match',
      creationMatch: null,
      runtimeMatch: 'match',
    });
    expect(matchesOf({ matchKind: 'full', creationMatch: null, runtimeMatch: 'full' })).toEqual({
      match: 'exact_match',
      creationMatch: null,
      runtimeMatch: 'exact_match',
    });
    expect(matchesOf({ matchKind: 'partial', creationMatch: 'partial', runtimeMatch: 'partial' })).toEqual({
      match: 'match',
      creationMatch: 'match',
      runtimeMatch: 'match',
    });
    // Records from before the runtime code had to match say only their overall kind.
    expect(matchesOf({ matchKind: 'full', creationMatch: 'full', runtimeMatch: null })).toMatchObject({ match: 'exact_match', runtimeMatch: 'exact_match' });
  });

  it("a record's minimal object: checksummed address, matchId the list position, time in whole seconds", () => {
    const address = '0xdfebad708f803af22e81044ad228ff77c83c935c';
    const minimal = matched(11155111, { address, creationMatch: null, runtimeMatch: 'partial', matchKind: 'partial', verifiedAt: 1_795_474_497_123 });
    expect(minimal).toEqual({
      match: 'match',
      creationMatch: null,
      runtimeMatch: 'match',
      chainId: '11155111',
      address: '0xDFEBAd708F803af22e81044aD228Ff77C83C935c',
      verifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      matchId: `1795474497123-${address}`,
    });
    expect(Date.parse(minimal.verifiedAt!)).toBe(1_795_474_497_000);
    expect(unmatched(1, address)).toEqual({
      match: null,
      creationMatch: null,
      runtimeMatch: null,
      chainId: '1',
      address: '0xDFEBAd708F803af22e81044aD228Ff77C83C935c',
    });
  });
});

describe('fields and omit', () => {
  it('nothing asked: the minimal object alone', () => {
    expect(readSelection(undefined, undefined)).toEqual(new Map());
  });

  it('fields picks whole fields and sub-fields; minimal fields are always there', () => {
    expect(readSelection('abi,compilation.name,compilation.compilerVersion,matchId', undefined)).toEqual(
      new Map<string, Set<string> | null>([
        ['abi', null],
        ['compilation', new Set(['name', 'compilerVersion'])],
      ]),
    );
  });

  it('omit leaves out fields and sub-fields of everything', () => {
    const selection = readSelection(undefined, 'sources,runtimeBytecode.onchainBytecode');
    expect(typeof selection).not.toBe('string');
    const map = selection as Map<string, Set<string> | null>;
    expect(map.has('sources')).toBe(false);
    expect(map.get('abi')).toBeNull();
    expect(map.get('runtimeBytecode')!.has('onchainBytecode')).toBe(false);
    expect(map.get('runtimeBytecode')!.has('recompiledBytecode')).toBe(true);
  });

  it('unknown fields, and both at once, are named', () => {
    expect(readSelection('abi,nonsense', undefined)).toBe('unknown field "nonsense"');
    expect(readSelection('compilation.nonsense', undefined)).toBe('unknown field "compilation.nonsense"');
    expect(readSelection('abi', 'sources')).toBe('fields and omit cannot be used together');
    expect(readSelection(undefined, 'address')).toBe('unknown or required field "address"');
  });
});
