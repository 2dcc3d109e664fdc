import { describe, expect, it } from 'vitest';
import { decodeCbor } from './cbor.js';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

describe('decodeCbor', () => {
  it('reads the definite-length items solc writes', () => {
    // {"solc": h'00081c', "experimental": true}
    expect(decodeCbor(bytes(`a2${'64'}${Buffer.from('solc').toString('hex')}4300081c${'6c'}${Buffer.from('experimental').toString('hex')}f5`))).toEqual({
      solc: Uint8Array.from([0, 8, 28]),
      experimental: true,
    });
    expect(decodeCbor(bytes('1903e8'))).toBe(1000);
    expect(decodeCbor(bytes('20'))).toBe(-1);
    expect(decodeCbor(bytes('83010203'))).toEqual([1, 2, 3]);
    expect(decodeCbor(bytes('1bffffffffffffffff'))).toBe(2n ** 64n - 1n);
  });

  it('refuses what solc never writes, and anything that does not span the input exactly', () => {
    for (const hex of ['bf61616101ff', 'c11a514b67b0', 'f93c00', 'a2616101616102', 'a1010203', '0102', '5801', '']) {
      expect(() => decodeCbor(bytes(hex)), hex).toThrow(/CBOR/);
    }
  });

  it('bounds nesting', () => {
    expect(() => decodeCbor(bytes(`${'81'.repeat(20)}00`))).toThrow('CBOR: nesting too deep');
  });
});
