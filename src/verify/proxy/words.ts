import type { Address, Hex } from '../../core/types.js';
import { MAX_FACETS } from './constants.js';

/**
 * Reads a 32-byte word as an address: null unless its top 12 bytes are zero and the
 * address is not zero. Shorter words (some nodes trim storage values) are left-padded.
 */
export function addressFromWord(word: string): Address | null {
  const hex = word.startsWith('0x') ? word.slice(2) : word;
  if (hex.length > 64 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const padded = hex.padStart(64, '0').toLowerCase();
  if (!/^0{24}$/.test(padded.slice(0, 24))) return null;
  const address = padded.slice(24);
  if (/^0{40}$/.test(address)) return null;
  return `0x${address}`;
}

/**
 * The low 20 bytes of a 32-byte word, whatever the top 12 hold (what `and(word, 2^160-1)`
 * gives); null when they are zero or the word is not hex of at most 32 bytes.
 */
export function lowAddressOfWord(word: string): Address | null {
  const hex = word.startsWith('0x') ? word.slice(2) : word;
  if (hex.length > 64 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const address = hex.padStart(64, '0').slice(24).toLowerCase();
  return /^0{40}$/.test(address) ? null : `0x${address}`;
}

/** Return data of exactly one word, read as an address (see addressFromWord); else null. */
export function addressFromSingleWord(data: Hex | null): Address | null {
  if (data === null || data.length !== 2 + 64) return null;
  return addressFromWord(data);
}

/** The first word of a call's return data as an address; null when shorter than a word. */
export function addressFromReturnData(data: Hex | null): Address | null {
  if (data === null || data.length < 2 + 64) return null;
  return addressFromWord(data.slice(2, 66));
}

/** The first word of a call's return data as an unsigned number, or null. */
export function uintFromReturnData(data: Hex | null): bigint | null {
  if (data === null || data.length < 2 + 64) return null;
  return BigInt(`0x${data.slice(2, 66)}`);
}

/**
 * Decodes the ABI return of a function returning `address[]`. Null when the data is not
 * that shape, when an element is not an address word, or when it lists more than
 * MAX_FACETS entries. Zero addresses are kept out.
 */
export function addressArrayFromReturnData(data: Hex | null): Address[] | null {
  if (data === null) return null;
  const hex = data.slice(2);
  if (hex.length % 64 !== 0 || hex.length < 128) return null;
  const word = (index: number): string => hex.slice(index * 64, index * 64 + 64);
  const offset = BigInt(`0x${word(0)}`);
  if (offset % 32n !== 0n || offset / 32n >= BigInt(hex.length / 64)) return null;
  const lengthIndex = Number(offset / 32n);
  const count = BigInt(`0x${word(lengthIndex)}`);
  if (count > BigInt(MAX_FACETS) || lengthIndex + 1 + Number(count) > hex.length / 64) return null;
  const addresses: Address[] = [];
  for (let i = 0; i < Number(count); i++) {
    const item = word(lengthIndex + 1 + i);
    if (/^0{64}$/.test(item)) continue;
    const address = addressFromWord(item);
    if (address === null) return null;
    addresses.push(address);
  }
  return addresses;
}
