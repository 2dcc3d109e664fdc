import { decodeCbor, type CborMap } from './cbor.js';

/**
 * The CBOR auxdata solc appends to code: `<cbor map><2-byte big-endian length of the map>`.
 * Values here are hex without 0x and include the two length bytes, the way solc reports
 * them in `evm.legacyAssembly` `.auxdata`.
 */
export interface DecodedAuxdata {
  /** Multihash bytes (hex) of the metadata on IPFS. */
  ipfs?: string;
  /** Swarm hash (hex), solc 0.4.7 to 0.5.10. */
  bzzr0?: string;
  /** Swarm hash (hex), solc 0.5.11 onwards with `bytecodeHash: bzzr1`. */
  bzzr1?: string;
  /** Compiler version: `0.8.26` for releases, the full string for prereleases. */
  solc?: string;
  experimental?: boolean;
}

/** Where one auxdata sits in a code, in bytes; `value` is the hex found there. */
export interface AuxdataPosition {
  /** 1-based, in the order solc lists the auxdata in `evm.legacyAssembly`. */
  id: string;
  offset: number;
  length: number;
  value: string;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function hexToBytesStrict(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error('not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function bytesToHexPlain(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Base58btc, the alphabet IPFS CIDv0 (`Qm...`) uses. */
export function base58Encode(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8;
      digits[i] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += '1';
  }
  for (let i = digits.length - 1; i >= 0; i--) out += BASE58_ALPHABET[digits[i]!];
  return out;
}

/**
 * Decodes one auxdata (map plus length suffix). Throws when the length suffix does not
 * cover exactly the map, or the bytes are not a CBOR map with text keys.
 */
export function decodeAuxdata(auxdataHex: string): DecodedAuxdata {
  const bytes = hexToBytesStrict(auxdataHex);
  if (bytes.length < 3) throw new Error('auxdata too short');
  const declared = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!;
  if (declared !== bytes.length - 2) throw new Error('auxdata length suffix does not match');
  const map = decodeCbor(bytes.subarray(0, declared));
  if (map === null || typeof map !== 'object' || Array.isArray(map) || map instanceof Uint8Array) {
    throw new Error('auxdata is not a CBOR map');
  }
  return toDecoded(map);
}

function toDecoded(map: CborMap): DecodedAuxdata {
  const out: DecodedAuxdata = {};
  for (const key of ['ipfs', 'bzzr0', 'bzzr1'] as const) {
    const v = map[key];
    if (v instanceof Uint8Array) out[key] = bytesToHexPlain(v);
  }
  const solc = map['solc'];
  if (solc instanceof Uint8Array && solc.length === 3) out.solc = `${solc[0]}.${solc[1]}.${solc[2]}`;
  else if (typeof solc === 'string') out.solc = solc;
  if (typeof map['experimental'] === 'boolean') out.experimental = map['experimental'];
  return out;
}

/** Like decodeAuxdata, but null instead of a throw. */
export function tryDecodeAuxdata(auxdataHex: string): DecodedAuxdata | null {
  try {
    return decodeAuxdata(auxdataHex);
  } catch {
    return null;
  }
}

/** True when the auxdata pins the metadata (and so every source byte and setting). */
export function hasContentHash(decoded: DecodedAuxdata | null): boolean {
  return decoded !== null && (decoded.ipfs !== undefined || decoded.bzzr0 !== undefined || decoded.bzzr1 !== undefined);
}

/**
 * The auxdata at the end of a code, found through the trailing length. Only meaningful for
 * the last auxdata of a code; embedded ones need positions from the compiler.
 * `codeHex` is without 0x; compiled code may carry link placeholders before the tail.
 */
export function tailAuxdata(codeHex: string): { position: AuxdataPosition; decoded: DecodedAuxdata } | null {
  if (codeHex.length < 6) return null;
  const declared = parseInt(codeHex.slice(-4), 16);
  if (!Number.isFinite(declared)) return null;
  const length = declared + 2;
  const codeLength = codeHex.length / 2;
  if (length > codeLength) return null;
  const value = codeHex.slice(codeHex.length - length * 2).toLowerCase();
  const decoded = tryDecodeAuxdata(value);
  if (!decoded) return null;
  return { position: { id: '1', offset: codeLength - length, length, value }, decoded };
}

/** `ipfs://Qm...` or `bzzr://<hex>` for the content hash, '' when there is none. */
export function swarmSourceOf(decoded: DecodedAuxdata | null): string {
  if (!decoded) return '';
  if (decoded.ipfs) return `ipfs://${base58Encode(hexToBytesStrict(decoded.ipfs))}`;
  const bzz = decoded.bzzr1 ?? decoded.bzzr0;
  return bzz ? `bzzr://${bzz}` : '';
}
