import { describe, expect, it } from 'vitest';
import { contractMatchingCode } from './pickContract.js';

/** Runtime code with a CBOR tail of `tail` bytes' worth (its length in the last two bytes). */
const withTail = (body: string, tail: string) => `${body}${tail}${(tail.length / 2).toString(16).padStart(4, '0')}`;

describe('contractMatchingCode', () => {
  const output = (a: string, b: string, immutables?: Record<string, { start: number; length: number }[]>) => ({
    contracts: {
      'contracts/A.sol': { A: { evm: { deployedBytecode: { object: a, immutableReferences: immutables ?? {} } } } },
      'contracts/B.sol': { B: { evm: { deployedBytecode: { object: b } } } },
    },
  });

  it('picks the one contract whose code is at the address, whatever its metadata hash', () => {
    const a = withTail('6080604052600a', 'a1a2');
    const b = withTail('6080604052600b', 'a1a2');
    expect(contractMatchingCode(output(a, b), `0x${withTail('6080604052600b', 'ffff')}`)).toBe('contracts/B.sol:B');
  });

  it('leaves out immutable values the deployment wrote', () => {
    const a = withTail(`60806040${'00'.repeat(4)}`, 'a1a2');
    const b = withTail('6080604052600b0000', 'a1a2');
    expect(contractMatchingCode(output(a, b, { '7': [{ start: 4, length: 4 }] }), `0x${withTail('60806040deadbeef', 'a1a2')}`)).toBe('contracts/A.sol:A');
  });

  it('picks none when none or both match, or the file has no output', () => {
    const same = withTail('6080604052600a', 'a1a2');
    expect(contractMatchingCode(output(same, same), `0x${same}`)).toBeNull();
    expect(contractMatchingCode(output(same, same), '0x6000')).toBeNull();
    expect(contractMatchingCode(undefined, `0x${same}`)).toBeNull();
    expect(contractMatchingCode({ contracts: 'nonsense' }, `0x${same}`)).toBeNull();
  });
});
