/** Hex and addresses as the service reads them from clients and the chain. */
import type { Address, Hex } from './types.js';

/** A 0x-prefixed 20-byte address in any letter case. */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** True when `text` is a 0x-prefixed 20-byte address (any letter case). */
export function isAddress(text: string): boolean {
  return ADDRESS_PATTERN.test(text);
}

/** `text` as the service's Address (lower case) when it is a 0x-prefixed 20-byte address in any letter case; null when it is not one. */
export function parseAddress(text: string): Address | null {
  return ADDRESS_PATTERN.test(text) ? (text.toLowerCase() as Address) : null;
}

/**
 * An address the service already holds as one (a stored row, a field checked on the way in, the
 * chain's answer), lowercased. A value that is not one is a broken invariant, so it throws
 * rather than travel on as a string typed Address.
 */
export function knownAddress(text: string): Address {
  const address = parseAddress(text);
  if (address === null) throw new Error(`not an address: ${JSON.stringify(text.slice(0, 50))}`);
  return address;
}

/** knownAddress for a value that may be absent. */
export function knownAddressOrNull(text: string | null | undefined): Address | null {
  return text === null || text === undefined ? null : knownAddress(text);
}

/** `text` as Hex (lower case) when it is 0x-prefixed hex; null when it is not. */
export function parseHex(text: string): Hex | null {
  return /^0x[0-9a-fA-F]*$/.test(text) ? (text.toLowerCase() as Hex) : null;
}

/** 0x-prefixed hex the service already holds as such (a stored row, the chain's answer), lowercased; throws when it is not hex. */
export function knownHex(text: string): Hex {
  const hex = parseHex(text);
  if (hex === null) throw new Error(`not 0x-prefixed hex: ${JSON.stringify(text.slice(0, 50))}`);
  return hex;
}

/** The hex digits without a leading 0x (or 0X). */
export function strip0x(hex: string): string {
  return hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
}

/** Hex text with or without 0x, of even length; returns it without 0x in lower case, or null. */
export function parseHexBytes(raw: string): string | null {
  const text = strip0x(raw.trim());
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  return text.toLowerCase();
}
