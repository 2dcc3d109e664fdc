import { describe, expect, it } from 'vitest';
import { codeRelation, functionSelectors } from './codeRelation.js';

const ABI = [
  { type: 'function', name: 'transfer', inputs: [{ type: 'address' }, { type: 'uint256' }] },
  { type: 'function', name: 'set', inputs: [{ type: 'tuple[]', components: [{ type: 'uint256' }, { type: 'bool' }] }] },
  { type: 'event', name: 'Transfer', inputs: [] },
  { type: 'constructor', inputs: [] },
];

describe('codeRelation', () => {
  it("computes the functions' selectors, tuples spelled out", () => {
    // transfer(address,uint256) is ERC-20's a9059cbb.
    expect(functionSelectors(ABI)[0]).toBe('a9059cbb');
    expect(functionSelectors(ABI)).toHaveLength(2);
  });

  it("counts the selectors the code pushes, whole or without leading zero bytes; none in another contract's code", () => {
    const [transfer, set] = functionSelectors(ABI);
    expect(codeRelation(ABI, `0x6080${'63'}${transfer}14`)).toEqual({ functions: 2, functionsInCode: 1 });
    expect(codeRelation(ABI, `0x63${transfer}8063${set}`)).toEqual({ functions: 2, functionsInCode: 2 });
    // A 10-byte contract holds none of them.
    expect(codeRelation(ABI, '0x602a60005260206000f3')).toEqual({ functions: 2, functionsInCode: 0 });
    // A selector with a leading zero byte is pushed with PUSH3.
    const zero = [{ type: 'function', name: 'f490', inputs: [] }];
    expect(functionSelectors(zero)).toEqual(['00a965e5']);
    expect(codeRelation(zero, '0x62a965e5').functionsInCode).toBe(1);
    expect(codeRelation([], '0x00')).toEqual({ functions: 0, functionsInCode: 0 });
  });
});
