import { describe, expect, it } from 'vitest';
import { compileForTest } from '../../../test/helpers/solc.js';
import { STORAGE_KINDS_PATH, storageKindsSource } from '../../../test/helpers/storageKinds.js';
import { openZeppelinSources } from '../../../test/web/fixtures.js';
import { keccakOfHex } from '../../core/keccak.js';
import type { StorageLayout } from '../../core/storageLayout.js';
import type { Hex } from '../../core/types.js';
import { erc7201Slot, namespacedLayouts } from './namespacedLayout.js';
import { sourceTypes } from './sourceTypes.js';
import { decodeStorage, MAX_DATA_BYTES, slotHex } from './storageValues.js';

/*
 * The decoder against solc's own layouts (compiled here), with storage written as solc writes
 * it; and the ERC-7201 layouts laid out from sources against the layouts solc gives the same
 * structs when they are declared as state variables.
 */

const MIRROR_PATH = 'contracts/Mirror.sol';

function layoutsOf(sources: Record<string, string>, file: string, name: string): StorageLayout {
  const output = compileForTest('solc', {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([k, content]) => [k, { content }])),
    settings: { outputSelection: { [file]: { [name]: ['storageLayout'] } } },
  });
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  return (output.contracts![file]![name] as { storageLayout: StorageLayout }).storageLayout;
}

/** Storage as solc writes it: words by slot, values placed at their offsets. */
class Storage {
  readonly words = new Map<bigint, bigint>();
  put(slot: bigint, offset: number, size: number, value: bigint): void {
    const bits = BigInt(size * 8);
    const masked = value & ((1n << bits) - 1n);
    const shift = BigInt(offset * 8);
    const old = this.words.get(slot) ?? 0n;
    this.words.set(slot, (old & ~(((1n << bits) - 1n) << shift)) | (masked << shift));
  }
  putBytes(slot: bigint, data: Uint8Array): void {
    if (data.length < 32) {
      const word = Buffer.alloc(32);
      Buffer.from(data).copy(word);
      word[31] = data.length * 2;
      this.words.set(slot, BigInt(`0x${word.toString('hex')}`));
      return;
    }
    this.words.set(slot, BigInt(data.length * 2 + 1));
    const start = BigInt(keccakOfHex(slotHex(slot)));
    for (let i = 0; i * 32 < data.length; i++) {
      const part = Buffer.alloc(32);
      Buffer.from(data.subarray(i * 32, i * 32 + 32)).copy(part);
      this.words.set(start + BigInt(i), BigInt(`0x${part.toString('hex')}`));
    }
  }
  read = (slot: bigint): Hex | undefined => slotHex(this.words.get(slot) ?? 0n);
}

const kindsSources = { [STORAGE_KINDS_PATH]: storageKindsSource(1) };
const kinds = layoutsOf(kindsSources, STORAGE_KINDS_PATH, 'StorageKinds');
const entry = (label: string) => {
  const found = kinds.storage.find((e) => e.label === label);
  if (!found) throw new Error(`no ${label}`);
  return { slot: BigInt(found.slot), offset: found.offset, size: Number(kinds.types![found.type]!.numberOfBytes) };
};

describe('storage values decoded by solc layouts', () => {
  const storage = new Storage();
  const set = (label: string, value: bigint) => {
    const e = entry(label);
    storage.put(e.slot, e.offset, e.size, value);
  };
  set('big', 2n ** 200n + 5n);
  set('small', -5n);
  set('neg', -123456789012345678901234567890n);
  set('flag', 1n);
  set('owner', 0xabcdef0123456789abcdef0123456789abcdef01n);
  set('phase', 1n);
  set('selector', 0x12345678n);
  set('token', 0x1111111111111111111111111111111111111111n);
  set('root', 2n ** 255n + 1n);
  set('price', -42n);
  storage.putBytes(entry('shortName').slot, Buffer.from('short <b>name</b>'));
  const long = 'x'.repeat(40) + 'é'.repeat(20);
  storage.putBytes(entry('longName').slot, Buffer.from(long));
  const blob = Buffer.alloc(400, 0xab);
  storage.putBytes(entry('blob').slot, blob);
  set('list', 3n);
  const position = entry('position');
  const positionType = kinds.types![kinds.storage.find((e) => e.label === 'position')!.type]!;
  const member = (label: string, value: bigint) => {
    const m = positionType.members!.find((x) => x.label === label)!;
    storage.put(position.slot + BigInt(m.slot), m.offset, Number(kinds.types![m.type]!.numberOfBytes), value);
  };
  member('amount', 77n);
  member('delta', -9n);
  member('closed', 1n);
  member('who', 0x2222222222222222222222222222222222222222n);
  const triple = entry('triple');
  storage.put(triple.slot, 0, 2, 65535n);
  storage.put(triple.slot, 2, 2, 2n);
  storage.put(triple.slot, 4, 2, 3n);

  const types = sourceTypes([{ content: kindsSources[STORAGE_KINDS_PATH] }]);
  const decoded = decodeStorage(kinds, storage.read, { enums: types.enums, valueTypes: types.valueTypes });
  const value = (name: string) => decoded.rows.find((r) => r.name === name)?.value;

  it('reads value types, packed or alone, by their offsets and sizes', () => {
    expect(decoded.wanted).toEqual([]);
    expect(value('big')).toBe((2n ** 200n + 5n).toString());
    expect(value('small')).toBe('-5');
    expect(value('neg')).toBe('-123456789012345678901234567890');
    expect(value('flag')).toBe('true');
    expect(value('owner')).toBe('0xabcdef0123456789abcdef0123456789abcdef01');
    expect(value('phase')).toBe('Phase.Locked (1)');
    expect(value('selector')).toBe('0x12345678');
    expect(value('token')).toBe('0x1111111111111111111111111111111111111111');
    expect(value('root')).toBe(slotHex(2n ** 255n + 1n));
    // A user-defined value type, decoded as the type under it.
    expect(value('price')).toBe('-42');
  });

  it('reads short and long strings and bytes, bounded', () => {
    expect(value('shortName')).toBe(JSON.stringify('short <b>name</b>'));
    expect(value('longName')).toBe(JSON.stringify(long));
    expect(value('blob')).toBe(`0x${'ab'.repeat(MAX_DATA_BYTES)}… (400 bytes)`);
  });

  it('gives a dynamic array its length, a mapping no value, a struct and a small static array their parts', () => {
    expect(value('list')).toBe('length 3');
    expect(value('balances')).toBe('mapping');
    expect(value('position')).toBe('struct, 4 members');
    expect(value('position.amount')).toBe('77');
    expect(value('position.delta')).toBe('-9');
    expect(value('position.closed')).toBe('true');
    expect(value('position.who')).toBe('0x2222222222222222222222222222222222222222');
    expect(value('triple[0]')).toBe('65535');
    expect(value('triple[2]')).toBe('3');
    expect(value('gap')).toMatch(/^40 elements \(not shown/);
    expect(decoded.rows.some((r) => r.name.startsWith('gap['))).toBe(false);
  });

  it('asks for the slots it lacks: the variables first, a long string data once its length is known', () => {
    const first = decodeStorage(kinds, () => undefined);
    expect(first.rows.every((r) => r.value === null || r.value === 'mapping' || /element|member/.test(r.value))).toBe(true);
    const known = new Map<bigint, Hex>(first.wanted.map((slot) => [slot, storage.read(slot)!]));
    const second = decodeStorage(kinds, (slot) => known.get(slot));
    const dataStart = BigInt(keccakOfHex(slotHex(entry('blob').slot)));
    expect(second.wanted).toContain(dataStart);
    expect(second.wanted.length).toBe(Math.ceil(Buffer.byteLength(long) / 32) + MAX_DATA_BYTES / 32);
  });

  it('does not take a malformed short string for text', () => {
    const bad = new Storage();
    bad.words.set(entry('shortName').slot, 0xffn << 8n);
    const row = decodeStorage(kinds, bad.read).rows.find((r) => r.name === 'shortName');
    expect(row?.value).toMatch(/^malformed/);
  });
});

describe('ERC-7201 namespaces laid out from the sources', () => {
  it('lays a namespace out as solc lays the same struct out as a state variable', () => {
    const sources = {
      ...kindsSources,
      [MIRROR_PATH]: `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.28;\nimport {StorageKinds} from "./StorageKinds.sol";\ncontract Mirror is StorageKinds(1, 2, 3, "", "", "") { KindsStorage internal mirror; }\n`,
    };
    const solcMirror = layoutsOf(sources, MIRROR_PATH, 'Mirror');
    const struct = Object.values(solcMirror.types!).find((t) => t.label === 'struct StorageKinds.KindsStorage')!;
    const [ours] = namespacedLayouts(sourceTypes(Object.values(sources).map((content) => ({ content }))));
    expect(ours?.id).toBe('solproof.storage.Kinds');
    expect(ours?.layout?.storage.map((m) => [m.label, m.slot, m.offset])).toEqual(struct.members!.map((m) => [m.label, m.slot, m.offset]));
  });

  it("lays out OpenZeppelin's namespaces at their documented slots", () => {
    const entry = '@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol';
    const oz = openZeppelinSources(entry);
    const owned = openZeppelinSources('@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol');
    const all = { ...oz, ...owned };
    const found = namespacedLayouts(sourceTypes(Object.values(all).map((content) => ({ content }))));
    const ids = found.map((n) => n.id).sort();
    expect(ids).toEqual(['openzeppelin.storage.ERC20', 'openzeppelin.storage.Initializable', 'openzeppelin.storage.Ownable']);
    for (const n of found) {
      // Each source states its slot as a constant beside the struct: the slot computed here is that one.
      const stated = Object.values(all).flatMap((text) => [...text.matchAll(/bytes32 private constant \w+ =\s*(0x[0-9a-f]{64})/gi)].map((m) => BigInt(m[1]!)));
      expect(stated).toContain(n.slot);
      expect(n.slot).toBe(erc7201Slot(n.id));
      expect(n.unknownType).toBeNull();
    }
    const erc20 = found.find((n) => n.id === 'openzeppelin.storage.ERC20')!;
    expect(erc20.layout?.storage.map((m) => [m.label, m.slot])).toEqual([
      ['_balances', '0'],
      ['_allowances', '1'],
      ['_totalSupply', '2'],
      ['_name', '3'],
      ['_symbol', '4'],
    ]);
  });

  it('names a member type it cannot lay out, and skips annotations in strings', () => {
    const found = namespacedLayouts(
      sourceTypes([
        {
          content: `contract C {\n  string s = "/// @custom:storage-location erc7201:fake";\n  /// @custom:storage-location erc7201:x.y\n  struct S { uint256 a; function() external f; }\n}\n`,
        },
      ]),
    );
    expect(found.map((n) => [n.id, n.unknownType])).toEqual([['x.y', 'function() external']]);
  });

  it("keeps the namespaces of the contract's bases, each struct laid out from its own members", () => {
    const source = `
      abstract contract Base {
        /// @custom:storage-location erc7201:base.main
        struct Main { uint8 a; uint8 b; }
      }
      library Helpers { struct Main { uint256 x; } }
      contract Other {
        /// @custom:storage-location erc7201:other.main
        struct Main { bool c; }
      }
      contract Child is Base, Helpers.Thing(uint256(1), (2)) {}
      /// @custom:storage-location erc7201:file.level
      struct Loose { uint256 z; }
    `;
    const types = sourceTypes([{ content: source }]);
    expect(types.bases.get('Child')).toEqual(['Base', 'Thing']);
    expect(types.namespaces.map((n) => [n.id, n.container])).toEqual([
      ['base.main', 'Base'],
      ['other.main', 'Other'],
      ['file.level', null],
    ]);
    const child = namespacedLayouts(types, 'Child');
    expect(child.map((n) => n.id)).toEqual(['base.main', 'file.level']);
    expect(child[0]!.layout?.storage.map((m) => [m.label, m.slot, m.offset])).toEqual([
      ['a', '0', 0],
      ['b', '0', 1],
    ]);
    // A contract the sources do not declare: every namespace, nothing known to leave out.
    expect(namespacedLayouts(types, 'Unknown').map((n) => n.id)).toEqual(['base.main', 'other.main', 'file.level']);
    expect(namespacedLayouts(types, 'Other').map((n) => n.id)).toEqual(['other.main', 'file.level']);
  });
});

describe('mapping lookups', () => {
  it('a key path through a mapping of mappings reaches the value solc stores there; a wrong key is named', async () => {
    const { encodeAbiParameters, keccak256 } = await import('viem');
    const source = `pragma solidity ^0.8.0;
contract Books {
    uint256 public count;
    mapping(address => mapping(uint256 => uint128)) public shelves;
}
`;
    const layout = layoutsOf({ 'Books.sol': source }, 'Books.sol', 'Books');
    const who = '0x00000000000000000000000000000000000000aa';
    // Solidity's rule, by viem's encoder: keccak256(abi.encode(key, slot)) at each level.
    const outer = BigInt(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who, 1n])));
    const inner = BigInt(keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [5n, outer])));
    const storage = new Storage();
    storage.put(inner, 0, 16, 777n);
    const decoded = decodeStorage(layout, storage.read, { lookups: new Map([['shelves', [who, '5']]]) });
    expect(decoded.rows.map((r) => [r.name, r.value, r.depth])).toEqual([
      ['count', '0', 0],
      ['shelves', 'mapping', 0],
      [`shelves[${who}]`, 'mapping', 1],
      [`shelves[${who}][5]`, '777', 2],
    ]);
    expect(decoded.rows[3]!.slot).toBe(inner);
    const wrong = decodeStorage(layout, storage.read, { lookups: new Map([['shelves', ['nobody']]]) });
    expect(wrong.rows.at(-1)).toMatchObject({ name: 'shelves[nobody]', value: 'not a key of this mapping (address): not an address (0x and 40 hex digits)' });
  });
});
