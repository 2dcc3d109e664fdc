/**
 * Where the CBOR map that compilers append to code would be: the last two bytes of the code
 * give the map's length (Solidity's and Vyper's convention). Hex without 0x; the range is in
 * bytes and includes the two length bytes. Null when the declared map does not fit in the code.
 * What the bytes there are is for the caller to check.
 */
export function cborTailRange(codeHex: string): { start: number; length: number } | null {
  if (codeHex.length < 6) return null;
  const declared = parseInt(codeHex.slice(-4), 16);
  if (!Number.isFinite(declared)) return null;
  const length = declared + 2;
  const codeLength = Math.floor(codeHex.length / 2);
  if (length > codeLength) return null;
  return { start: codeLength - length, length };
}
