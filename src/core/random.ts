import { randomBytes } from 'node:crypto';

/** `length` characters drawn uniformly from `alphabet` (crypto bytes, rejection sampling). */
export function randomString(alphabet: string, length: number): string {
  // Bytes at or above `limit` would favour the first letters of the alphabet.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}
