/**
 * Vyper's auxdata. Its place and shape depend on the release (see vyperAuxdataEra): the version
 * map alone at the end of the runtime code (0.3.4), the map and a length (0.3.5 to 0.3.9), a
 * CBOR array at the end of the init code (0.3.10, 0.4.0: runtime size, data section sizes,
 * immutables' size, the version map), the same array led by the integrity hash (from 0.4.1).
 * Read with the strict CBOR decoder solc's auxdata uses (cbor.ts), as Sourcify's bytecode-utils
 * reads them: that package declares Node 22 and brings a native CBOR addon, for a few fields.
 */
import type { VersionNumbers } from '../../core/compilerVersion.js';
import { type VyperAuxdataEra, vyperAuxdataEra } from '../../core/vyperVersion.js';
import type { AuxdataPosition } from '../auxdata.js';
import { type CborValue, decodeCbor } from '../cbor.js';

/** What a Vyper auxdata says. */
export interface VyperAuxdata {
  /** The compiler's version numbers as the auxdata gives them (`0.4.1`; a prerelease gives its release's). */
  version: string;
  /** From 0.4.1: the integrity hash (64 hex digits), a sha256 over every source the compile read. */
  integrity?: string;
  /** From 0.3.10: the sizes the init code was built with. */
  runtimeSize?: number;
  dataSizes?: number[];
  /** Bytes of immutables the constructor writes after the runtime code. */
  immutableSize?: number;
}

/** The version map alone: `{"vyper": [0, 3, 4]}`, always eleven bytes. */
const VERSION_MAP_BYTES = 11;

/** Which code carries the auxdata in an era: the runtime code before 0.3.10, the init code from then on. */
export function vyperAuxdataCode(era: VyperAuxdataEra): 'runtime' | 'creation' | null {
  if (era === 'none') return null;
  return era === 'version' || era === 'version_length' ? 'runtime' : 'creation';
}

/**
 * Where the auxdata of an era sits when it ends `code` (hex without 0x), by the length it
 * declares; null when the code cannot end with one.
 */
export function vyperTailPosition(code: string, era: VyperAuxdataEra): AuxdataPosition | null {
  const bytes = code.length / 2;
  let length: number;
  if (era === 'version') length = VERSION_MAP_BYTES;
  else if (era === 'version_length') length = parseInt(code.slice(-4), 16) + 2;
  else if (era === 'array' || era === 'integrity') length = parseInt(code.slice(-4), 16);
  else return null;
  if (!Number.isInteger(length) || length < VERSION_MAP_BYTES || length > 128 || length > bytes) return null;
  const offset = bytes - length;
  return { id: '1', offset, length, value: code.slice(offset * 2).toLowerCase() };
}

/**
 * Decodes the auxdata that ends `code` (hex without 0x) as the era writes it: its shape must be
 * exactly Vyper's (the version map, or the array with its sizes and, from 0.4.1, the 32-byte
 * integrity hash first) and name a version of that era. Null for anything else, so bytes that
 * only look like auxdata are never taken for it.
 */
export function decodeVyperTail(code: string, era: VyperAuxdataEra): VyperAuxdata | null {
  if (era === 'none') return null;
  const position = vyperTailPosition(code, era);
  if (!position) return null;
  const cbor = cborOf(position.value, era);
  if (cbor === null) return null;
  if (era === 'version' || era === 'version_length') {
    const version = versionOf(cbor);
    return version !== null && eraOf(version) === era ? { version } : null;
  }
  // [integrity (from 0.4.1), runtime size, data section sizes, immutables' size, {vyper: [major, minor, patch]}]
  if (!Array.isArray(cbor) || cbor.length !== (era === 'integrity' ? 5 : 4)) return null;
  const [integrity, runtimeSize, dataSizes, immutableSize, versionMap] = era === 'integrity' ? cbor : [undefined, ...cbor];
  const version = versionOf(versionMap);
  if (version === null || eraOf(version) !== era) return null;
  const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (!isSize(runtimeSize) || !isSize(immutableSize) || !Array.isArray(dataSizes) || !dataSizes.every(isSize)) return null;
  const out: VyperAuxdata = { version, runtimeSize, dataSizes: [...dataSizes], immutableSize };
  if (era === 'integrity') {
    if (!(integrity instanceof Uint8Array) || integrity.length !== 32) return null;
    out.integrity = Buffer.from(integrity).toString('hex');
  }
  return out;
}

/** The CBOR item an era's auxdata (hex) holds, decoded: the bytes before its length, all of them; null when they are no CBOR item. */
function cborOf(auxdata: string, era: Exclude<VyperAuxdataEra, 'none'>): CborValue | null {
  const cbor = era === 'version' ? auxdata : auxdata.slice(0, -4);
  if (!/^(?:[0-9a-f]{2})+$/.test(cbor)) return null;
  try {
    return decodeCbor(Buffer.from(cbor, 'hex'));
  } catch {
    return null;
  }
}

/** `0.4.1` from the map `{vyper: [0, 4, 1]}`, Vyper's only key; null for anything else. */
function versionOf(value: CborValue | undefined): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) return null;
  const keys = Object.keys(value);
  const numbers = value['vyper'];
  if (keys.length !== 1 || !Array.isArray(numbers) || numbers.length !== 3) return null;
  if (!numbers.every((n): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 1000)) return null;
  return numbers.join('.');
}

function eraOf(version: string): VyperAuxdataEra {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  return vyperAuxdataEra({ major, minor, patch });
}

/**
 * True when `value` (hex without 0x) has the outer shape of an era's auxdata: CBOR followed by
 * the length the era writes, whatever version it names.
 */
export function isVyperShapedAuxdata(value: string, era: VyperAuxdataEra): boolean {
  const position = vyperTailPosition(value, era);
  if (position?.offset !== 0) return false;
  return era !== 'none' && cborOf(value, era) !== null;
}

/**
 * The auxdata ending a Vyper init code (0.3.10 on) that constructor arguments may follow: they
 * are an ABI encoding, whole 32-byte words, so the auxdata's end is looked for word by word
 * from the end (at most 4096 words). Null when there is none.
 */
export function vyperAuxdataOfInitCode(initCode: string): { era: VyperAuxdataEra; auxdata: VyperAuxdata } | null {
  for (let words = 0, end = initCode.length; words <= 4096 && end > 4; words++, end -= 64) {
    // Its last two bytes count it, and it starts with the array's header (4 or 5 items).
    const length = parseInt(initCode.slice(end - 4, end), 16);
    const head = initCode.slice(end - length * 2, end - length * 2 + 2);
    if (length < 11 || length > 128 || (head !== '84' && head !== '85')) continue;
    for (const era of ['integrity', 'array'] as const) {
      const auxdata = decodeVyperTail(initCode.slice(0, end), era);
      if (auxdata) return { era, auxdata };
    }
  }
  return null;
}

/** The auxdata of a compiled Vyper contract: where it sits in each code, and what it says. */
export interface LocatedVyperAuxdata {
  era: VyperAuxdataEra;
  creation: AuxdataPosition | null;
  runtime: AuxdataPosition | null;
  decoded: VyperAuxdata | null;
}

/**
 * Finds the auxdata of compiled codes (hex without 0x). From 0.3.10 it ends the init code.
 * Before, it ends the runtime code, which the init code carries whole: its place there is
 * where the runtime code is found in it (once; a runtime code found twice locates nothing).
 */
export function locateVyperAuxdata(version: VersionNumbers, creation: string, runtime: string): LocatedVyperAuxdata {
  const era = vyperAuxdataEra(version);
  const none = { era, creation: null, runtime: null, decoded: null };
  const where = vyperAuxdataCode(era);
  if (where === 'creation') {
    const decoded = decodeVyperTail(creation, era);
    const position = decoded ? vyperTailPosition(creation, era) : null;
    return { ...none, creation: position, decoded };
  }
  if (where === 'runtime') {
    const decoded = decodeVyperTail(runtime, era);
    const position = decoded ? vyperTailPosition(runtime, era) : null;
    if (!position) return none;
    let inCreation: AuxdataPosition | null = null;
    const at = evenIndexOf(creation, runtime);
    if (at !== -1 && evenIndexOf(creation, runtime, at + 2) === -1) inCreation = { ...position, offset: at / 2 + position.offset };
    return { era, creation: inCreation, runtime: position, decoded };
  }
  return none;
}

/** indexOf at a byte boundary. */
function evenIndexOf(haystack: string, needle: string, from = 0): number {
  if (needle === '') return -1;
  for (let at = haystack.indexOf(needle, from); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (at % 2 === 0) return at;
  }
  return -1;
}
