import { describe, expect, it } from 'vitest';
import { missingLayout, parseStorageLayout } from './storageLayout.js';

describe('why a record has no storage layout', () => {
  it('names the compiler that gives none, and otherwise a record verified before layouts were kept', () => {
    expect(missingLayout('storageLayout', 'Vyper', 'vyper:0.4.1+commit.8a93dd27')).toEqual({ reason: 'vyper' });
    expect(missingLayout('storageLayout', 'Yul', 'v0.8.26+commit.8a97fa7a')).toEqual({ reason: 'not_solidity' });
    expect(missingLayout('storageLayout', 'Solidity', 'v0.4.26+commit.4563c3fc')).toEqual({ reason: 'compiler_too_old', since: '0.5.13' });
    expect(missingLayout('storageLayout', 'Solidity', 'v0.5.12+commit.7709ece9')).toEqual({ reason: 'compiler_too_old', since: '0.5.13' });
    expect(missingLayout('storageLayout', 'Solidity', 'v0.5.13+commit.5b0b510c')).toEqual({ reason: 'not_kept' });
    expect(missingLayout('transientStorageLayout', 'Solidity', 'v0.8.26+commit.8a97fa7a')).toEqual({ reason: 'compiler_too_old', since: '0.8.27' });
    expect(missingLayout('transientStorageLayout', 'Solidity', 'v0.8.28+commit.7893614a')).toEqual({ reason: 'not_kept' });
  });

  it('reads a stored layout, and nothing else, as one', () => {
    expect(parseStorageLayout('{"storage":[],"types":null}')).toEqual({ storage: [], types: null });
    for (const text of [null, '', 'not json', '{"types":{}}', '[]']) expect(parseStorageLayout(text)).toBeNull();
  });
});
