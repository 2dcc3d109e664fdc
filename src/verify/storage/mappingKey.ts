/**
 * Where a mapping keeps the value of one key, by solc's rule: for a value-type key,
 * keccak256(abi.encode(key) ++ slot); for a string or bytes key, keccak256(key's bytes ++ slot).
 * The key is given as people write it (an address, a number, true/false, hex for bytes, the
 * text of a string, an enum's number) and checked against the key type.
 */
import { keccakOfHex } from '../../core/keccak.js';
import type { Hex } from '../../core/types.js';

const WORD = 2n ** 256n;

/** The key's bytes as the hash takes them (hex without 0x), or why the text is no such key. */
export function encodeMappingKey(keyType: string, text: string, valueTypes?: ReadonlyMap<string, string>): { hex: string } | { error: string } {
  const key = text.trim();
  const under = valueTypes?.get(keyType.split('.').pop() ?? '');
  if (under) return encodeMappingKey(under === 'uint' ? 'uint256' : under === 'int' ? 'int256' : under, key);
  if (keyType === 'string') return { hex: Buffer.from(text, 'utf8').toString('hex') };
  if (keyType === 'bytes') {
    return /^0x(?:[0-9a-fA-F]{2})*$/.test(key) ? { hex: key.slice(2).toLowerCase() } : { error: 'not hex bytes (0x…)' };
  }
  if (keyType === 'address' || keyType === 'address payable' || keyType.startsWith('contract ') || keyType.startsWith('interface ')) {
    return /^0x[0-9a-fA-F]{40}$/.test(key) ? { hex: key.slice(2).toLowerCase().padStart(64, '0') } : { error: 'not an address (0x and 40 hex digits)' };
  }
  if (keyType === 'bool') {
    if (key === 'true' || key === 'false') return { hex: (key === 'true' ? '1' : '0').padStart(64, '0') };
    return { error: 'not true or false' };
  }
  const bytesN = /^bytes(\d+)$/.exec(keyType);
  if (bytesN) {
    const n = Number(bytesN[1]);
    if (!new RegExp(`^0x[0-9a-fA-F]{${2 * n}}$`).test(key)) return { error: `not ${n} bytes of hex (0x and ${2 * n} hex digits)` };
    return { hex: key.slice(2).toLowerCase().padEnd(64, '0') };
  }
  const int = /^(u?)int(\d*)$/.exec(keyType);
  const isEnum = keyType.startsWith('enum ');
  if (int || isEnum) {
    const unsigned = isEnum || int?.[1] === 'u';
    const bits = BigInt(isEnum ? 8 : Number(int?.[2] || 256));
    if (!/^-?(?:\d{1,78}|0x[0-9a-fA-F]{1,64})$/.test(key)) return { error: 'not a number' };
    const n = key.startsWith('-') ? -BigInt(key.slice(1)) : BigInt(key);
    const min = unsigned ? 0n : -(1n << (bits - 1n));
    const max = unsigned ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n;
    if (n < min || n > max) return { error: `out of range for ${keyType}` };
    return { hex: ((n + WORD) % WORD).toString(16).padStart(64, '0') };
  }
  return { error: `a ${keyType} key cannot be looked up` };
}

/** The slot of `key`'s value in the mapping at `slot`, or why the key is no such key. */
export function mappingValueSlot(keyType: string, key: string, slot: bigint, valueTypes?: ReadonlyMap<string, string>): { slot: bigint } | { error: string } {
  const encoded = encodeMappingKey(keyType, key, valueTypes);
  if ('error' in encoded) return encoded;
  const hash = keccakOfHex(`0x${encoded.hex}${(slot % WORD).toString(16).padStart(64, '0')}` as Hex);
  return { slot: BigInt(hash) };
}
