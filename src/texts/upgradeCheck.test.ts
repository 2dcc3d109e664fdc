import { describe, expect, it } from 'vitest';
import { incompatibilityText, upgradeRefusalText, upgradeVerdictText } from './upgradeCheck.js';

const A = '0x00000000000000000000000000000000000000a1';

describe('the upgrade check in words', () => {
  it('names the variable of each incompatibility', () => {
    expect(incompatibilityText({ kind: 'insert', variable: 'x', before: 'owner' })).toBe('inserted `x` before `owner`');
    expect(incompatibilityText({ kind: 'insert', variable: 'm', before: 'b', namespace: 'erc7201:box.main' })).toBe(
      'inserted `m` before `b` in namespace erc7201:box.main',
    );
    expect(incompatibilityText({ kind: 'delete', variable: 'owner' })).toBe('deleted `owner`');
    expect(incompatibilityText({ kind: 'rename', variable: 'newName', original: 'oldName' })).toBe('renamed `oldName` to `newName`');
    expect(incompatibilityText({ kind: 'typechange', variable: 'value' })).toBe('changed the type of `value` incompatibly');
    expect(incompatibilityText({ kind: 'delete-namespace', variable: 'erc7201:box.main' })).toBe('deleted namespace erc7201:box.main');
  });

  it('says why there is no verdict', () => {
    expect(upgradeRefusalText({ code: 'not_verified', side: 'current', address: A })).toBe(
      `Error! The proxy's current implementation ${A} is not verified: verify it first`,
    );
    expect(upgradeRefusalText({ code: 'no_layout', side: 'candidate', address: A, missing: { reason: 'vyper' } })).toBe(
      `Error! The candidate implementation ${A} has no storage layout to compare: it is Vyper, and only solc gives a storage layout`,
    );
    expect(upgradeRefusalText({ code: 'compile_errors', side: 'candidate', address: null, errors: ['ParserError: x'] })).toBe(
      'Error! The candidate implementation (the submitted input) did not compile for its layout: ParserError: x',
    );
    expect(upgradeRefusalText({ code: 'layout_unreadable', side: 'current', address: A, reason: 'no' })).toBe(
      `Error! The storage layout of the proxy's current implementation ${A} could not be read: no`,
    );
    expect(upgradeVerdictText(false, 2)).toBe("Not compatible: 2 storage layout changes break the proxy's stored state.");
  });
});
