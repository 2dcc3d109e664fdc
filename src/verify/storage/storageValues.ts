/**
 * What a contract's storage holds, decoded by the types of solc's storage layout: integers
 * (negative ones in two's complement), addresses and contracts, booleans, fixed bytes, enums
 * (by member name when the sources name them), variables packed in one slot, strings and
 * bytes (short ones inline, long ones from keccak(slot)), a dynamic array's length, mappings
 * (no value; a key asked for shows its value), and the members and elements of structs and
 * static arrays when they are few.
 *
 * Pure: slots are looked up in what was read. A slot not read yet is listed in `wanted` and
 * its value is null; the caller reads the wanted slots and decodes again (a long string needs
 * its length before its data). What is read is bounded: at most `MAX_DATA_BYTES` of a string,
 * at most `MAX_ELEMENTS` elements, `MAX_MEMBERS` members, `MAX_DEPTH` levels, `MAX_ROWS` rows.
 */
import { keccakOfHex } from '../../core/keccak.js';
import type { StorageLayout, StorageLayoutEntry } from '../../core/storageLayout.js';
import type { Hex } from '../../core/types.js';
import { mappingValueSlot } from './mappingKey.js';

/** One variable, member or element as shown: its value in words, or null when its slots were not read. */
export interface StorageRow {
  /** `name`, `name.member`, `name[2]`. */
  name: string;
  /** The type as solc labels it. */
  type: string;
  slot: bigint;
  offset: number;
  /** 0 for a state variable, 1 for its members or elements, and so on. */
  depth: number;
  value: string | null;
}

export interface DecodedStorage {
  rows: StorageRow[];
  /** Slots the rows need that `read` did not have, in the order they were needed. */
  wanted: bigint[];
}

/** What the decoder is told beside the layout. */
export interface DecodeOptions {
  /** Member names of enums by their simple name (`Phase` for `enum C.Phase`). */
  enums?: ReadonlyMap<string, readonly string[]>;
  /** The elementary type under each user-defined value type, by its simple name (`Price` for `C.Price`). */
  valueTypes?: ReadonlyMap<string, string>;
  /** Added to every slot of the layout (a namespace's root). */
  base?: bigint;
  /** Prefixed to every name shown. */
  prefix?: string;
  /**
   * Keys to look up, by the name of the mapping row (`balances`, `allowances`): the first key in
   * that mapping, the next in the mapping it holds, and so on. Each key adds a row, `name[key]`.
   */
  lookups?: ReadonlyMap<string, readonly string[]>;
}

/** Keys looked up in one mapping path at most. */
export const MAX_LOOKUP_KEYS = 4;

export const MAX_DATA_BYTES = 256;
export const MAX_ELEMENTS = 16;
export const MAX_MEMBERS = 24;
export const MAX_DEPTH = 3;
export const MAX_ROWS = 400;

const WORD = 2n ** 256n;

/** A slot as the 32-byte word it is named by. */
export function slotHex(slot: bigint): Hex {
  return `0x${slot.toString(16).padStart(64, '0')}`;
}

/**
 * The rows of `layout`'s variables with the values `read` gives their slots (a slot `read`
 * does not have gives null and is wanted).
 */
export function decodeStorage(layout: StorageLayout, read: (slot: bigint) => Hex | undefined, options: DecodeOptions = {}): DecodedStorage {
  const types = layout.types ?? {};
  const rows: StorageRow[] = [];
  const wanted: bigint[] = [];
  const wantedSet = new Set<bigint>();
  const base = options.base ?? 0n;
  const prefix = options.prefix ?? '';
  const lookups = new Map<string, readonly string[]>([...(options.lookups ?? [])].map(([name, keys]) => [name, keys.slice(0, MAX_LOOKUP_KEYS)]));

  const word = (slot: bigint): Uint8Array | null => {
    const s = slot % WORD;
    const value = read(s);
    if (value === undefined) {
      if (!wantedSet.has(s)) {
        wantedSet.add(s);
        wanted.push(s);
      }
      return null;
    }
    return Buffer.from(value.slice(2).padStart(64, '0'), 'hex');
  };

  const push = (row: StorageRow): boolean => {
    if (rows.length >= MAX_ROWS) return false;
    rows.push(row);
    return true;
  };

  const visit = (name: string, typeKey: string, slot: bigint, offset: number, depth: number): void => {
    if (rows.length >= MAX_ROWS) return;
    const type = types[typeKey];
    const label = type?.label ?? typeKey;
    const row: StorageRow = { name, type: label, slot: slot % WORD, offset, depth, value: null };
    if (!type) {
      row.value = rawValue(word(slot), offset, 32 - offset);
      push(row);
      return;
    }
    const size = Number(type.numberOfBytes);
    switch (type.encoding) {
      case 'mapping': {
        row.value = 'mapping';
        if (!push(row)) return;
        const keys = lookups.get(name);
        if (!keys || keys.length === 0 || !type.key || !type.value) return;
        const [key, ...rest] = keys as [string, ...string[]];
        const child = `${name}[${key}]`;
        const keyType = types[type.key]?.label ?? type.key;
        const found = mappingValueSlot(keyType, key, slot, options.valueTypes);
        if ('error' in found) {
          push({
            name: child,
            type: types[type.value]?.label ?? type.value,
            slot: slot % WORD,
            offset: 0,
            depth: depth + 1,
            value: `not a key of this mapping (${keyType}): ${found.error}`,
          });
          return;
        }
        if (rest.length > 0) lookups.set(child, rest);
        visit(child, type.value, found.slot, 0, depth + 1);
        return;
      }
      case 'dynamic_array': {
        const w = word(slot);
        row.value = w ? `length ${toBig(w)}` : null;
        push(row);
        return;
      }
      case 'bytes':
        row.value = bytesValue(type.label === 'string', slot, word);
        push(row);
        return;
    }
    if (type.members) {
      const members = type.members;
      row.value = `struct, ${members.length} member${members.length === 1 ? '' : 's'}`;
      if (!push(row)) return;
      if (depth >= MAX_DEPTH) return;
      for (const member of members.slice(0, MAX_MEMBERS)) {
        visit(`${name}.${member.label}`, member.type, slot + BigInt(member.slot), member.offset, depth + 1);
      }
      if (members.length > MAX_MEMBERS) push({ ...row, name: `${name}.…`, depth: depth + 1, value: `${members.length - MAX_MEMBERS} more members not shown` });
      return;
    }
    if (type.base) {
      const count = staticLength(type.label);
      const element = types[type.base];
      row.value = `${count ?? '?'} element${count === 1 ? '' : 's'}`;
      if (!push(row)) return;
      if (count === null || !element || depth >= MAX_DEPTH) return;
      if (count > MAX_ELEMENTS) {
        rows[rows.length - 1]!.value = `${count} elements (not shown: more than ${MAX_ELEMENTS})`;
        return;
      }
      const elementSize = Number(element.numberOfBytes);
      const perSlot = elementSize <= 16 ? Math.floor(32 / elementSize) : 0;
      const slotsEach = Math.ceil(elementSize / 32);
      for (let i = 0; i < count; i++) {
        const at = perSlot ? slot + BigInt(Math.floor(i / perSlot)) : slot + BigInt(i * slotsEach);
        const off = perSlot ? (i % perSlot) * elementSize : 0;
        visit(`${name}[${i}]`, type.base, at, off, depth + 1);
      }
      return;
    }
    row.value = valueType(type.label, word(slot), offset, size, options);
    push(row);
  };

  for (const entry of layout.storage as StorageLayoutEntry[]) {
    visit(`${prefix}${entry.label}`, entry.type, base + BigInt(entry.slot), entry.offset, 0);
  }
  return { rows, wanted };
}

/** The number of elements of a static array from its label (`uint256[49]`, `struct S[3]`). */
function staticLength(label: string): number | null {
  const match = /\[(\d+)\]$/.exec(label);
  return match ? Number(match[1]) : null;
}

function toBig(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
}

/** The `size` bytes at `offset` (counted from the word's low end, as solc counts), as a big-endian slice. */
function slice(w: Uint8Array, offset: number, size: number): Uint8Array {
  const end = 32 - offset;
  return w.subarray(Math.max(0, end - size), end);
}

function rawValue(w: Uint8Array | null, offset: number, size: number): string | null {
  return w ? `0x${Buffer.from(slice(w, offset, size)).toString('hex')}` : null;
}

/** A value type of `size` bytes at `offset` of its slot's word, in words. */
function valueType(label: string, w: Uint8Array | null, offset: number, size: number, options: DecodeOptions): string | null {
  if (!w) return null;
  const bytes = slice(w, offset, size);
  const under = options.valueTypes?.get(label.split('.').pop() ?? '');
  if (under && !options.valueTypes?.has(under)) return valueType(under === 'uint' ? 'uint256' : under === 'int' ? 'int256' : under, w, offset, size, options);
  const n = toBig(bytes);
  if (/^uint\d+$/.test(label)) return n.toString();
  if (/^int\d+$/.test(label)) {
    const bits = BigInt(size * 8);
    return (n >= 1n << (bits - 1n) ? n - (1n << bits) : n).toString();
  }
  if (label === 'bool') return n === 0n ? 'false' : n === 1n ? 'true' : `true (0x${n.toString(16)})`;
  if (label === 'address' || label === 'address payable' || label.startsWith('contract ') || label.startsWith('interface ')) {
    return `0x${Buffer.from(bytes).toString('hex').padStart(40, '0')}`;
  }
  if (/^bytes\d+$/.test(label)) return `0x${Buffer.from(bytes).toString('hex')}`;
  if (label.startsWith('enum ')) {
    const simple = label.slice(5).split('.').pop() ?? '';
    const names = options.enums?.get(simple);
    const name = names && n < BigInt(names.length) ? names[Number(n)] : undefined;
    return name !== undefined ? `${simple}.${name} (${n})` : n.toString();
  }
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/**
 * A string or bytes in solc's encoding: up to 31 bytes inline with length*2 in the last byte;
 * longer, length*2+1 in the slot and the data from keccak(slot), of which at most
 * MAX_DATA_BYTES are read.
 */
function bytesValue(isString: boolean, slot: bigint, word: (slot: bigint) => Uint8Array | null): string | null {
  const w = word(slot);
  if (!w) return null;
  const n = toBig(w);
  let data: Uint8Array;
  let length: bigint;
  if ((n & 1n) === 0n) {
    length = BigInt(w[31]! >> 1);
    if (length > 31n || w.subarray(0, 31).some((b, i) => i >= Number(length) && b !== 0)) return `malformed (0x${Buffer.from(w).toString('hex')})`;
    data = w.subarray(0, Number(length));
  } else {
    length = (n - 1n) / 2n;
    if (length < 32n) return `malformed (0x${Buffer.from(w).toString('hex')})`;
    const shown = Number(length < BigInt(MAX_DATA_BYTES) ? length : BigInt(MAX_DATA_BYTES));
    const start = BigInt(keccakOfHex(slotHex(slot % WORD)));
    const parts: Uint8Array[] = [];
    let missing = false;
    for (let i = 0; i * 32 < shown; i++) {
      const part = word(start + BigInt(i));
      if (!part) missing = true;
      else parts.push(part);
    }
    if (missing) return null;
    data = Buffer.concat(parts).subarray(0, shown);
  }
  const cut = BigInt(data.length) < length;
  const shown = isString ? JSON.stringify(new TextDecoder('utf-8', { fatal: false }).decode(data)) : `0x${Buffer.from(data).toString('hex')}`;
  return cut ? `${shown}… (${length} bytes)` : shown;
}
