import { encodeAbiParameters } from 'viem';
import { describe, expect, it } from 'vitest';
import { applyCallProtection, applyImmutables, applyLibraries, constructorArgumentsAreCanonical, replaceAuxdata } from './transformations.js';

const AUX = 'a2646970667358221220781d6a314bd5c511e0e1719e6f6847194e0ca6831ea721548cec3271f37e12e564736f6c634300081c0033';
const ADDRESS = 'ab'.repeat(20);

describe('bytecode fix-ups', () => {
  it('copies the call protection address of a library', () => {
    const code = `73${'00'.repeat(20)}3014`;
    const fixed = applyCallProtection(code, `73${ADDRESS}3014`);
    expect(fixed.code).toBe(`73${ADDRESS}3014`);
    expect(fixed.values).toEqual({ callProtection: `0x${ADDRESS}` });
    expect(applyCallProtection('6080', '6080').transformations).toEqual([]);
  });

  it('copies immutables, and refuses two values for one immutable', () => {
    const code = `60${'00'.repeat(2)}60${'00'.repeat(2)}`;
    expect(
      applyImmutables(code, '60beef60beef', {
        '7': [
          { start: 1, length: 2 },
          { start: 4, length: 2 },
        ],
      })?.values,
    ).toEqual({
      immutables: { '7': '0xbeef' },
    });
    expect(
      applyImmutables(code, '60beef60cafe', {
        '7': [
          { start: 1, length: 2 },
          { start: 4, length: 2 },
        ],
      }),
    ).toBeNull();
    expect(applyImmutables(code, '60be', { '7': [{ start: 1, length: 2 }] })).toBeNull();
  });

  it('copies library addresses over both placeholder styles and refuses non-placeholders', () => {
    const hashed = `__$${'1'.repeat(34)}$__`;
    const old = `__a.sol:L${'_'.repeat(29)}__`;
    expect(old).toHaveLength(40);
    for (const placeholder of [hashed, old, '0'.repeat(40)]) {
      const fixed = applyLibraries(`73${placeholder}`, `73${ADDRESS}`, { 'a.sol': { L: [{ start: 1, length: 20 }] } });
      expect(fixed?.values).toEqual({ libraries: { 'a.sol:L': `0x${ADDRESS}` } });
    }
    expect(applyLibraries(`73${'12'.repeat(20)}`, `73${ADDRESS}`, { 'a.sol': { L: [{ start: 1, length: 20 }] } })).toBeNull();
  });

  it('replaces auxdata only with on-chain bytes that decode as auxdata', () => {
    const other = AUX.replace('781d6a31', '99999999');
    expect(replaceAuxdata(`00fe${AUX}`, `00fe${other}`, [{ id: '1', offset: 2, length: 53, value: AUX }], { tailMayDiffer: false })?.code).toBe(`00fe${other}`);
    const notCbor = `${'ff'.repeat(51)}0033`;
    expect(replaceAuxdata(`00fe${AUX}`, `00fe${notCbor}`, [{ id: '1', offset: 2, length: 53, value: AUX }], { tailMayDiffer: false })).toBeNull();
  });

  it('lets the runtime tail lack the auxdata or carry one without a hash, but not another hash', () => {
    const position = [{ id: '1', offset: 2, length: 53, value: AUX }];
    expect(replaceAuxdata(`00fe${AUX}`, '00', position, { tailMayDiffer: true })?.transformations).toEqual([
      { type: 'delete', reason: 'cborAuxdata', offset: 1, length: 54 },
    ]);
    expect(replaceAuxdata(`00fe${AUX}`, '00fea164736f6c634300081c000a', position, { tailMayDiffer: true })?.code).toBe('00fea164736f6c634300081c000a');
    const bzzr1 = 'a265627a7a723158201d8421a2c1a033de64addd60bb5bb0b49cf43d4689cf9c2c1860148ec071b32b64736f6c63430005110032';
    expect(replaceAuxdata(`00fe${AUX}`, `00fe${bzzr1}`, position, { tailMayDiffer: true })).toBeNull();
    expect(replaceAuxdata(`00fe${AUX}`, '00', position, { tailMayDiffer: false })).toBeNull();
  });

  it('accepts constructor arguments only as one canonical encoding', () => {
    const inputs = [{ type: 'uint256' }, { type: 'string' }] as const;
    const args = encodeAbiParameters(inputs, [5n, 'x']).slice(2);
    expect(constructorArgumentsAreCanonical(args, inputs)).toBe(true);
    expect(constructorArgumentsAreCanonical(`${args}00`, inputs)).toBe(false);
    expect(constructorArgumentsAreCanonical(`${args}${'00'.repeat(32)}`, inputs)).toBe(false);
    expect(constructorArgumentsAreCanonical('', inputs)).toBe(true);
    expect(constructorArgumentsAreCanonical('00'.repeat(32), [])).toBe(false);
  });
});
