import { describe, expect, it } from 'vitest';
import { contractVerdict } from './contractVerdict.js';
import type { CodeMatch } from './matchBytecode.js';

const runtime = (kind: 'full' | 'partial', immutables?: Record<string, `0x${string}`>): CodeMatch => ({
  kind,
  transformations: [],
  values: immutables ? { immutables } : {},
});
const creation = (kind: 'full' | 'partial'): CodeMatch => ({ kind, transformations: [], values: {} });
const VALUE = `0x${'11'.repeat(32)}` as const;

describe('contractVerdict', () => {
  it('a runtime match without immutables is as full as its metadata', () => {
    expect(contractVerdict(runtime('full'), null)).toEqual({ matchKind: 'full', runtimeMatch: 'full', creationMatch: null, unprovenImmutables: {} });
    expect(contractVerdict(runtime('partial'), null).matchKind).toBe('partial');
  });

  it('immutable values no matched creation code proves make the match partial, and are named', () => {
    expect(contractVerdict(runtime('full', { '7': VALUE }), null)).toEqual({
      matchKind: 'partial',
      runtimeMatch: 'full',
      creationMatch: null,
      unprovenImmutables: { '7': VALUE },
    });
  });

  it('a matched creation code (even with other metadata) proves them', () => {
    expect(contractVerdict(runtime('full', { '7': VALUE }), creation('partial'))).toMatchObject({ matchKind: 'full', unprovenImmutables: {} });
    expect(contractVerdict(runtime('partial', { '7': VALUE }), creation('full'))).toMatchObject({ matchKind: 'full', unprovenImmutables: {} });
    expect(contractVerdict(runtime('partial', { '7': VALUE }), creation('partial')).matchKind).toBe('partial');
  });
});
