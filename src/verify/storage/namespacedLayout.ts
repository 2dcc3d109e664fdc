/**
 * ERC-7201 namespaces: a struct marked `@custom:storage-location erc7201:<id>` lives at
 * keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~0xff, and solc's storage layout does not
 * list it. Its layout is laid out here from the struct's members as the sources write them,
 * by solc's rules (value types packed in order, a struct, array, mapping, string or bytes
 * starting a new slot and the next member after it too). A member of a type the sources do
 * not declare in a way this can lay out (a constant array length, a function type) stops the
 * layout: that namespace is reported as not laid out, with the type.
 */
import { keccakOfHex, keccakOfText } from '../../core/keccak.js';
import type { StorageLayout, StorageLayoutEntry, StorageLayoutType } from '../../core/storageLayout.js';
import type { SourceTypes } from './sourceTypes.js';
import { slotHex } from './storageValues.js';

/** The root slot of ERC-7201 namespace `id`. */
export function erc7201Slot(id: string): bigint {
  const inner = BigInt(keccakOfText(id)) - 1n;
  return BigInt(keccakOfHex(slotHex((inner + 2n ** 256n) % 2n ** 256n))) & ~0xffn;
}

export type NamespacedLayout =
  | { id: string; struct: string; slot: bigint; layout: StorageLayout; unknownType: null }
  | { id: string; struct: string; slot: bigint; layout: null; unknownType: string };

const MAX_NAMESPACES = 16;
const MAX_NESTING = 4;

class UnknownType extends Error {
  constructor(readonly type: string) {
    super(type);
  }
}

/**
 * The contracts `name` inherits from, itself included, as the sources' headers say; null when
 * the sources do not declare `name`.
 */
function inherited(types: SourceTypes, name: string): Set<string> | null {
  if (!types.bases.has(name)) return null;
  const seen = new Set<string>();
  const pending = [name];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(types.bases.get(next) ?? []));
  }
  return seen;
}

/**
 * The namespaces the sources mark, each with its layout or the member type that stopped it.
 * With `contractName`, only those of the contracts it inherits from (and those at file level).
 */
export function namespacedLayouts(types: SourceTypes, contractName?: string): NamespacedLayout[] {
  const seen = new Set<string>();
  const out: NamespacedLayout[] = [];
  const bases = contractName ? inherited(types, contractName) : null;
  for (const { id, struct, container, members } of types.namespaces) {
    if (seen.has(id) || out.length >= MAX_NAMESPACES) continue;
    if (bases && container !== null && !bases.has(container)) continue;
    seen.add(id);
    const slot = erc7201Slot(id);
    const table: Record<string, StorageLayoutType> = {};
    try {
      // The annotated struct's own members (another struct of the same name elsewhere is not it).
      const storage = layOut(members, types, table, 1);
      out.push({ id, struct, slot, layout: { storage, types: table }, unknownType: null });
    } catch (e) {
      if (!(e instanceof UnknownType)) throw e;
      out.push({ id, struct, slot, layout: null, unknownType: e.type });
    }
  }
  return out;
}

/** The key of `written` in `table`, its entry added (and those of its parts). */
function typeOf(written: string, types: SourceTypes, table: Record<string, StorageLayoutType>, depth: number): string {
  const name = written.trim().replace(/\s+/g, ' ');
  if (depth > MAX_NESTING) throw new UnknownType(name);
  const add = (key: string, type: StorageLayoutType): string => {
    table[key] ??= type;
    return key;
  };
  const array = /^(.*)\[\s*(\d*)\s*\]$/.exec(name);
  if (array) {
    const base = typeOf(array[1]!, types, table, depth + 1);
    const baseType = table[base]!;
    if (array[2] === '') return add(`t_array(${base})dyn_storage`, { encoding: 'dynamic_array', label: `${baseType.label}[]`, numberOfBytes: '32', base });
    const count = Number(array[2]);
    const size = Number(baseType.numberOfBytes);
    const slots = size <= 16 ? Math.ceil(count / Math.floor(32 / size)) : count * Math.ceil(size / 32);
    return add(`t_array(${base})${count}_storage`, { encoding: 'inplace', label: `${baseType.label}[${count}]`, numberOfBytes: String(slots * 32), base });
  }
  if (name.startsWith('mapping')) {
    // A mapping's own slot holds nothing; its key and value types are laid out for lookups by key
    // (a part that cannot be laid out leaves the mapping shown as one, with no lookup).
    const parts = mappingParts(name);
    try {
      if (!parts) throw new UnknownType(name);
      const key = typeOf(parts.key, types, table, depth + 1);
      const value = typeOf(parts.value, types, table, depth + 1);
      return add(`t_mapping(${key},${value})`, {
        encoding: 'mapping',
        label: `mapping(${table[key]!.label} => ${table[value]!.label})`,
        numberOfBytes: '32',
        key,
        value,
      });
    } catch (e) {
      if (!(e instanceof UnknownType)) throw e;
      return add(`t_mapping(${name})`, { encoding: 'mapping', label: name, numberOfBytes: '32' });
    }
  }
  if (name === 'string' || name === 'bytes') return add(`t_${name}_storage`, { encoding: 'bytes', label: name, numberOfBytes: '32' });
  const simple = name.split('.').pop()!;
  const elementary = elementarySize(simple === 'address payable' ? 'address' : simple);
  if (elementary !== null) return add(`t_${simple.replace(' ', '_')}`, { encoding: 'inplace', label: simple, numberOfBytes: String(elementary) });
  if (types.enums.has(simple)) return add(`t_enum(${simple})`, { encoding: 'inplace', label: `enum ${simple}`, numberOfBytes: '1' });
  const under = types.valueTypes.get(simple);
  if (under !== undefined) {
    const size = elementarySize(under);
    if (size === null) throw new UnknownType(name);
    return add(`t_userDefinedValueType(${simple})`, { encoding: 'inplace', label: simple, numberOfBytes: String(size) });
  }
  const struct = types.structs.get(simple);
  if (struct) {
    const key = `t_struct(${simple})_storage`;
    if (table[key]) return key;
    const members = layOut(struct.members, types, table, depth + 1);
    const last = members.at(-1);
    const used = last ? Number(last.slot) + Math.ceil((last.offset + Number(table[last.type]!.numberOfBytes)) / 32) : 1;
    return add(key, { encoding: 'inplace', label: `struct ${simple}`, numberOfBytes: String(Math.max(1, used) * 32), members });
  }
  if (types.contracts.has(simple)) return add(`t_contract(${simple})`, { encoding: 'inplace', label: `contract ${simple}`, numberOfBytes: '20' });
  throw new UnknownType(name);
}

/** A mapping's key and value types as written (`mapping(address account => uint256)`), their names dropped. */
function mappingParts(written: string): { key: string; value: string } | null {
  const inner = /^mapping\s*\((.*)\)$/s.exec(written)?.[1];
  if (inner === undefined) return null;
  let depth = 0;
  for (let i = 0; i < inner.length - 1; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === '=' && inner[i + 1] === '>') {
      return { key: withoutName(inner.slice(0, i)), value: withoutName(inner.slice(i + 2)) };
    }
  }
  return null;
}

/** A type as written with its optional name (`address account`, `uint256 balance`), the name dropped. */
function withoutName(part: string): string {
  const text = part.trim();
  if (text.endsWith(')') || text.endsWith(']') || text === 'address payable') return text;
  const named = /^(.*\S)\s+[A-Za-z_$][\w$]*$/s.exec(text);
  return named ? named[1]! : text;
}

/** Members laid out by solc's rules. */
function layOut(members: { type: string; name: string }[], types: SourceTypes, table: Record<string, StorageLayoutType>, depth: number): StorageLayoutEntry[] {
  const out: StorageLayoutEntry[] = [];
  let slot = 0;
  let offset = 0;
  for (const member of members) {
    const key = typeOf(member.type, types, table, depth);
    const type = table[key]!;
    const size = Number(type.numberOfBytes);
    const whole = type.encoding !== 'inplace' || type.members !== undefined || type.base !== undefined;
    if (whole || offset + size > 32) {
      if (offset > 0) slot++;
      offset = 0;
    }
    out.push({ astId: 0, contract: '', label: member.name, offset, slot: String(slot), type: key });
    if (whole) {
      slot += Math.ceil(size / 32);
      offset = 0;
    } else {
      offset += size;
    }
  }
  return out;
}

/** The size in bytes of an elementary value type, or null when `name` is none. */
function elementarySize(name: string): number | null {
  if (name === 'address') return 20;
  if (name === 'bool') return 1;
  if (name === 'uint' || name === 'int') return 32;
  const int = /^u?int(\d+)$/.exec(name);
  if (int) {
    const bits = Number(int[1]);
    return bits >= 8 && bits <= 256 && bits % 8 === 0 ? bits / 8 : null;
  }
  const bytes = /^bytes(\d+)$/.exec(name);
  if (bytes) {
    const n = Number(bytes[1]);
    return n >= 1 && n <= 32 ? n : null;
  }
  return null;
}
