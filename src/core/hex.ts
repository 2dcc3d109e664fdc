/** Hex and addresses as the service reads them from clients and the chain. */
import type { Address } from './types.js';

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
