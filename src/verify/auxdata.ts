import { base58 } from '@scure/base';
import { bytesToHex, hexToBytes, isHex } from 'viem';
import { type CborMap, decodeCbor } from './cbor.js';
import { cborTailRange } from './cborTail.js';

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

/**
 * Decodes one auxdata (map plus length suffix). Throws when the length suffix does not
 * cover exactly the map, or the bytes are not a map of the shape solc writes.
 */
export function decodeAuxdata(auxdataHex: string): DecodedAuxdata {
  if (!isHex(`0x${auxdataHex}`, { strict: true }) || auxdataHex.length % 2 !== 0) throw new Error('not hex');
  const bytes = hexToBytes(`0x${auxdataHex}`);
  if (bytes.length < 3) throw new Error('auxdata too short');
  if (bytes.length > MAX_AUXDATA_BYTES) throw new Error('auxdata too long');
  const declared = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!;
  if (declared !== bytes.length - 2) throw new Error('auxdata length suffix does not match');
  const map = decodeCbor(bytes.subarray(0, declared));
  if (map === null || typeof map !== 'object' || Array.isArray(map) || map instanceof Uint8Array) {
    throw new Error('auxdata is not a CBOR map');
  }
  return toDecoded(map);
}

/** The longest auxdata solc writes: an IPFS hash, a prerelease version string and the experimental flag. */
export const MAX_AUXDATA_BYTES = 128;
const SOLC_AUXDATA_KEYS = new Set(['ipfs', 'bzzr0', 'bzzr1', 'solc', 'experimental']);
const PRERELEASE_VERSION = /^[0-9A-Za-z.+-]{1,64}$/;

/**
 * Accepts only the maps solc writes: its own keys, each with the value shape solc gives it
 * (a 34-byte sha2-256 multihash for ipfs, 32 bytes for a swarm hash, a 3-byte or short text
 * version), at most one content hash. Anything else is data that only looks like auxdata.
 */
function toDecoded(map: CborMap): DecodedAuxdata {
  const keys = Object.keys(map);
  if (keys.length === 0 || keys.some((k) => !SOLC_AUXDATA_KEYS.has(k))) throw new Error('not a solc auxdata map');
  const out: DecodedAuxdata = {};
  let hashes = 0;
  const ipfs = map['ipfs'];
  if (ipfs !== undefined) {
    if (!(ipfs instanceof Uint8Array) || ipfs.length !== 34 || ipfs[0] !== 0x12 || ipfs[1] !== 0x20) throw new Error('bad ipfs hash');
    out.ipfs = bytesToHex(ipfs).slice(2);
    hashes++;
  }
  for (const key of ['bzzr0', 'bzzr1'] as const) {
    const v = map[key];
    if (v === undefined) continue;
    if (!(v instanceof Uint8Array) || v.length !== 32) throw new Error(`bad ${key} hash`);
    out[key] = bytesToHex(v).slice(2);
    hashes++;
  }
  if (hashes > 1) throw new Error('several content hashes');
  const solc = map['solc'];
  if (solc instanceof Uint8Array && solc.length === 3) out.solc = `${solc[0]}.${solc[1]}.${solc[2]}`;
  else if (typeof solc === 'string' && PRERELEASE_VERSION.test(solc)) out.solc = solc;
  else if (solc !== undefined) throw new Error('bad solc version');
  const experimental = map['experimental'];
  if (typeof experimental === 'boolean') out.experimental = experimental;
  else if (experimental !== undefined) throw new Error('bad experimental flag');
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
  const range = cborTailRange(codeHex);
  if (!range || range.length > MAX_AUXDATA_BYTES) return null;
  const value = codeHex.slice(range.start * 2).toLowerCase();
  const decoded = tryDecodeAuxdata(value);
  if (!decoded) return null;
  return { position: { id: '1', offset: range.start, length: range.length, value }, decoded };
}

/** `ipfs://Qm...` or `bzzr://<hex>` for the content hash, '' when there is none. */
export function swarmSourceOf(decoded: DecodedAuxdata | null): string {
  if (!decoded) return '';
  if (decoded.ipfs) return `ipfs://${base58.encode(hexToBytes(`0x${decoded.ipfs}`))}`;
  const bzz = decoded.bzzr1 ?? decoded.bzzr0;
  return bzz ? `bzzr://${bzz}` : '';
}

/**
 * The content hash (hex) of the metadata a code's tail auxdata pins; null when it pins none.
 * A deployed code and the compiled code of a full match share it: the bytecode database looks
 * compilations up by it before anything else.
 */
export function metadataHashOf(codeHex: string): string | null {
  const decoded = tailAuxdata(codeHex.toLowerCase())?.decoded;
  return decoded?.ipfs ?? decoded?.bzzr1 ?? decoded?.bzzr0 ?? null;
}
