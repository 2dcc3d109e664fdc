import { describe, expect, it } from 'vitest';
import { compileForTest, SOLC_PACKAGES } from '../../../test/helpers/solc.js';
import type { SolcInput, SolcOutput } from '../solcTypes.js';
import { abiDiff } from './abiDiff.js';
import { sourceDiff } from './sourceDiff.js';
import { compareUpgradeLayouts, compileErrors, declaresNamespaces, layoutInput, namespacedInput, upgradeLayout } from './upgradeLayout.js';

const VERSION = '0.8.28+commit.7893614a';

function input(source: string): SolcInput {
  return { language: 'Solidity', sources: { 'Box.sol': { content: source } }, settings: { optimizer: { enabled: false }, outputSelection: {} } };
}

/** The layout upgrades-core reads of `Box` in `source`, compiled by real solc as the service would. */
async function layoutOf(source: string) {
  const asked = layoutInput(input(source));
  const output = compileForTest(SOLC_PACKAGES['0.8.28']!, asked);
  expect(compileErrors(output)).toEqual([]);
  let namespaced: SolcOutput | undefined;
  if (declaresNamespaces(VERSION, asked)) {
    namespaced = compileForTest(SOLC_PACKAGES['0.8.28']!, await namespacedInput(VERSION, asked, output));
    expect(compileErrors(namespaced)).toEqual([]);
  }
  return upgradeLayout(VERSION, asked, output, namespaced, 'Box.sol', 'Box');
}

const box = (vars: string, members = 'uint256 a;') => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Box {
    /// @custom:storage-location erc7201:box.main
    struct MainStorage { ${members} }
    ${vars}
    function get() external view returns (uint256) { return 1; }
}
`;

describe("upgrades-core's comparison of layouts compiled again for their AST", () => {
  it('an appended variable is safe', async () => {
    const v1 = await layoutOf(box('address owner; uint256 value;'));
    const v2 = await layoutOf(box('address owner; uint256 value; uint256 extra;'));
    expect(await compareUpgradeLayouts(v1, v2)).toEqual({ compatible: true, incompatibilities: [] });
  });

  it('an inserted variable is named, with the one it now stands before', async () => {
    const v1 = await layoutOf(box('address owner; uint256 value;'));
    const v2 = await layoutOf(box('uint256 x; address owner; uint256 value;'));
    const result = await compareUpgradeLayouts(v1, v2);
    expect(result.compatible).toBe(false);
    expect(result.incompatibilities[0]).toMatchObject({ kind: 'insert', variable: 'x', before: 'owner' });
    expect(result.incompatibilities[0]!.explanation).toContain('Inserted `x`');
  });

  it("a member inserted in an ERC-7201 namespace's struct is unsafe, and names the namespace", async () => {
    const v1 = await layoutOf(box('address owner;', 'uint256 a; uint256 b;'));
    const v2 = await layoutOf(box('address owner;', 'uint256 a; uint256 inserted; uint256 b;'));
    expect(Object.keys(v1.namespaces ?? {})).toEqual(['erc7201:box.main']);
    const result = await compareUpgradeLayouts(v1, v2);
    expect(result.compatible).toBe(false);
    expect(result.incompatibilities[0]).toMatchObject({ kind: 'insert', variable: 'inserted', before: 'b', namespace: 'erc7201:box.main' });
  });

  it('the ABI and source differences', () => {
    const diff = abiDiff(
      [
        { type: 'function', name: 'get', inputs: [], outputs: [{ type: 'uint256' }], stateMutability: 'view' },
        { type: 'event', name: 'Old', inputs: [] },
      ],
      [
        { type: 'function', name: 'get', inputs: [], outputs: [{ type: 'uint128' }], stateMutability: 'view' },
        { type: 'function', name: 'set', inputs: [{ type: 'tuple', components: [{ type: 'uint8' }] }], outputs: [] },
      ],
    );
    expect(diff).toEqual({
      added: [{ kind: 'function', signature: 'set((uint8))' }],
      removed: [{ kind: 'event', signature: 'Old()' }],
      changed: [{ kind: 'function', signature: 'get()', changes: ['returns (uint256) -> (uint128)'] }],
    });
    const files = sourceDiff(
      [
        { path: 'a.sol', content: 'one\ntwo\n' },
        { path: 'b.sol', content: 'same\n' },
        { path: 'gone.sol', content: 'x' },
      ],
      [
        { path: 'a.sol', content: 'one\nthree\n' },
        { path: 'b.sol', content: 'same\n' },
        { path: 'new.sol', content: 'y' },
      ],
    );
    expect(files).toMatchObject({ added: ['new.sol'], removed: ['gone.sol'], unchanged: 1, truncated: false });
    expect(files.changed[0]!.diff).toContain('-two\n+three');
    const bounded = sourceDiff([{ path: 'a.sol', content: 'a\n'.repeat(1000) }], [{ path: 'a.sol', content: 'b\n'.repeat(1000) }], 500);
    expect(bounded.truncated).toBe(true);
    expect(bounded.changed[0]!.diff!.length).toBeLessThan(600);
  });
});
