import { keccak256, stringToBytes, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { keccakOfHex, keccakOfText } from './keccak.js';

describe('keccak256 in WebAssembly', () => {
  it('gives the same hashes as viem for texts (ASCII, non-ASCII, empty, large) and for hex bytes', () => {
    const texts = ['', 'contract A {}', 'Grüße, 世界 🙂\r\n', 'x'.repeat(300_000) + 'é'];
    for (const text of texts) expect(keccakOfText(text)).toBe(keccak256(stringToBytes(text)));
    const codes = ['0x', '0x00', '0x6080604052348015600f57600080fd5b50', toHex(stringToBytes('y'.repeat(50_001)))] as const;
    for (const code of codes) expect(keccakOfHex(code)).toBe(keccak256(code));
    expect(keccakOfHex('0xABCDEF')).toBe(keccak256('0xabcdef'));
  });

  it('refuses hex it cannot read instead of hashing part of it', () => {
    expect(() => keccakOfHex('0xabc')).toThrow(TypeError);
    expect(() => keccakOfHex('0xzz')).toThrow(TypeError);
  });
});
