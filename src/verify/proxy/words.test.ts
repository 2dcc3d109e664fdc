import { describe, expect, it } from 'vitest';
import type { Hex } from '../../core/types.js';
import { addressArrayFromReturnData, addressFromReturnData, addressFromSingleWord, addressFromWord, lowAddressOfWord } from './words.js';

const address = 'bebebebebebebebebebebebebebebebebebebebe';
const word = (hex: string): string => hex.padStart(64, '0');

describe('addressFromWord', () => {
  it('takes the low 20 bytes when the top 12 are zero', () => {
    expect(addressFromWord(`0x${word(address)}`)).toBe(`0x${address}`);
    expect(addressFromWord(`0x${address.toUpperCase()}`)).toBe(`0x${address}`);
  });

  it('rejects zero, dirty top bytes and oversize words', () => {
    expect(addressFromWord(`0x${word('')}`)).toBeNull();
    expect(addressFromWord(`0x01${word(address).slice(2)}`)).toBeNull();
    expect(addressFromWord(`0x00${word(address)}`)).toBeNull();
  });
});

describe('lowAddressOfWord', () => {
  it('takes the low 20 bytes whatever the top 12 hold, as a mask would', () => {
    expect(lowAddressOfWord(`0x${word(address)}`)).toBe(`0x${address}`);
    expect(lowAddressOfWord(`0x${'ff'.repeat(12)}${address.toUpperCase()}`)).toBe(`0x${address}`);
    expect(lowAddressOfWord(`0x${address.slice(4)}`)).toBe(`0x0000${address.slice(4)}`);
  });

  it('rejects a zero address and what is not a word', () => {
    expect(lowAddressOfWord(`0x${'ff'.repeat(12)}${'00'.repeat(20)}`)).toBeNull();
    expect(lowAddressOfWord(`0x00${word(address)}`)).toBeNull();
    expect(lowAddressOfWord('0xzz')).toBeNull();
  });
});

describe('return data', () => {
  it('needs a whole word', () => {
    expect(addressFromReturnData(null)).toBeNull();
    expect(addressFromReturnData(`0x${address}`)).toBeNull();
    expect(addressFromReturnData(`0x${word(address)}${word('1')}`)).toBe(`0x${address}`);
  });

  it('addressFromSingleWord takes exactly one address word', () => {
    expect(addressFromSingleWord(`0x${word(address)}`)).toBe(`0x${address}`);
    expect(addressFromSingleWord(`0x${word(address)}${word('1')}`)).toBeNull();
    expect(addressFromSingleWord(`0x${address}`)).toBeNull();
    expect(addressFromSingleWord(`0x01${word(address).slice(2)}`)).toBeNull();
    expect(addressFromSingleWord(null)).toBeNull();
  });

  it('decodes address[] and rejects what is not that shape', () => {
    const two: Hex = `0x${word('20')}${word('2')}${word(address)}${word('01')}`;
    expect(addressArrayFromReturnData(two)).toEqual([`0x${address}`, `0x${word('01').slice(24)}`]);
    expect(addressArrayFromReturnData(`0x${word('20')}${word('3')}${word(address)}`)).toBeNull();
    expect(addressArrayFromReturnData(`0x${word('20')}${word('1')}${'ff'.repeat(32)}`)).toBeNull();
    expect(addressArrayFromReturnData(`0x${word('20')}${word('ffff')}`)).toBeNull();
  });
});
