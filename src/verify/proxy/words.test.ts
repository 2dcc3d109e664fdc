import { describe, expect, it } from 'vitest';
import type { Hex } from '../../core/types.js';
import { addressArrayFromReturnData, addressFromReturnData, addressFromWord } from './words.js';

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

describe('return data', () => {
  it('needs a whole word', () => {
    expect(addressFromReturnData(null)).toBeNull();
    expect(addressFromReturnData(`0x${address}`)).toBeNull();
    expect(addressFromReturnData(`0x${word(address)}${word('1')}`)).toBe(`0x${address}`);
  });

  it('decodes address[] and rejects what is not that shape', () => {
    const two: Hex = `0x${word('20')}${word('2')}${word(address)}${word('01')}`;
    expect(addressArrayFromReturnData(two)).toEqual([`0x${address}`, `0x${word('01').slice(24)}`]);
    expect(addressArrayFromReturnData(`0x${word('20')}${word('3')}${word(address)}`)).toBeNull();
    expect(addressArrayFromReturnData(`0x${word('20')}${word('1')}${'ff'.repeat(32)}`)).toBeNull();
    expect(addressArrayFromReturnData(`0x${word('20')}${word('ffff')}`)).toBeNull();
  });
});
