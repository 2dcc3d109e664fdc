import { describe, expect, it } from 'vitest';
import { abiFunctions, CallError, coerceArguments, encodeCall, findFunction, parseWei, toJsonValue } from './contractCalls.js';

const ABI = JSON.stringify([
  { type: 'constructor', inputs: [{ name: 'x', type: 'uint256' }], stateMutability: 'nonpayable' },
  { type: 'function', name: 'balanceOf', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ name: '', type: 'uint256' }], stateMutability: 'view' },
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
    stateMutability: 'nonpayable',
  },
  { type: 'function', name: 'set', inputs: [{ name: 'v', type: 'uint8' }], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'set', inputs: [{ name: 'v', type: 'string' }], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'deposit', inputs: [], outputs: [], stateMutability: 'payable' },
  {
    type: 'function',
    name: 'put',
    inputs: [
      {
        name: 'p',
        type: 'tuple',
        components: [
          { name: 'id', type: 'int16' },
          { name: 'tags', type: 'bytes4[]' },
        ],
      },
      { name: 'flags', type: 'bool[2]' },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  { type: 'event', name: 'Transfer', inputs: [] },
  // Solidity 0.4 style: no stateMutability, no type on the function.
  { name: 'owner', inputs: [], outputs: [{ name: '', type: 'address' }], constant: true, payable: false },
]);

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('abiFunctions', () => {
  it('lists functions with canonical signatures, overload indexes and read/write kinds', () => {
    const fns = abiFunctions(ABI);
    expect(fns.map((f) => [f.signature, f.index, f.readOnly, f.payable])).toEqual([
      ['balanceOf(address)', 0, true, false],
      ['transfer(address,uint256)', 0, false, false],
      ['set(uint8)', 0, false, false],
      ['set(string)', 1, false, false],
      ['deposit()', 0, false, true],
      ['put((int16,bytes4[]),bool[2])', 0, false, false],
      ['owner()', 0, true, false],
    ]);
    expect(fns[1]!.selector).toBe('0xa9059cbb');
  });

  it('gives nothing for an unreadable ABI', () => {
    expect(abiFunctions('not json')).toEqual([]);
    expect(abiFunctions('{"a":1}')).toEqual([]);
  });
});

describe('findFunction', () => {
  const fns = abiFunctions(ABI);
  it('finds by signature (spaces ignored), selector, name and overload index', () => {
    expect(findFunction(fns, 'transfer(address, uint256)').signature).toBe('transfer(address,uint256)');
    expect(findFunction(fns, '0xA9059CBB').signature).toBe('transfer(address,uint256)');
    expect(findFunction(fns, 'balanceOf').signature).toBe('balanceOf(address)');
    expect(findFunction(fns, 'set', 1).signature).toBe('set(string)');
    expect(findFunction(fns, 'set', '0').signature).toBe('set(uint8)');
  });

  it('refuses ambiguous, unknown and missing names with a text', () => {
    expect(() => findFunction(fns, 'set')).toThrow(/overloaded: give the signature \(set\(uint8\), set\(string\)\)/);
    expect(() => findFunction(fns, 'set', 2)).toThrow(CallError);
    expect(() => findFunction(fns, 'mint(address)')).toThrow(/No function mint\(address\)/);
    expect(() => findFunction(fns, undefined)).toThrow(/Missing function/);
    expect(() => findFunction(fns, 'x'.repeat(2000))).toThrow(/Missing function/);
  });
});

describe('encodeCall', () => {
  const fns = abiFunctions(ABI);
  it('encodes like any Ethereum tool', () => {
    const transfer = findFunction(fns, 'transfer');
    expect(encodeCall(transfer, [ALICE, '1000'])).toBe(
      '0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000003e8',
    );
    // hex integers and lower-case addresses too
    expect(encodeCall(transfer, [ALICE.toLowerCase(), '0x3e8'])).toBe(encodeCall(transfer, [ALICE, 1000]));
  });

  it('takes arrays and tuples as JSON values or JSON text', () => {
    const put = findFunction(fns, 'put');
    const a = encodeCall(put, [{ id: '-5', tags: ['0x01020304'] }, [true, false]]);
    const b = encodeCall(put, ['["-5", ["0x01020304"]]', '[true, "false"]']);
    expect(a).toBe(b);
    expect(a.startsWith(findFunction(fns, 'put').selector)).toBe(true);
  });

  it('names the argument and the problem on bad input', () => {
    const transfer = findFunction(fns, 'transfer');
    expect(() => encodeCall(transfer, [ALICE])).toThrow('transfer(address,uint256) takes 2 argument(s), 1 given');
    expect(() => encodeCall(transfer, ['0x1234', '1'])).toThrow('Argument to: expected an address');
    expect(() => encodeCall(transfer, ['0x70997970c51812DC3A010C7d01b50e0d17dc79C8', '1'])).toThrow(/checksum/);
    expect(() => encodeCall(transfer, [ALICE, '-1'])).toThrow('Argument amount: out of range for uint256');
    expect(() => encodeCall(transfer, [ALICE, '1e18'])).toThrow('Argument amount: expected an integer (uint256)');
    expect(() => encodeCall(findFunction(fns, 'set(uint8)'), ['256'])).toThrow('out of range for uint8');
    expect(() =>
      encodeCall(findFunction(fns, 'put'), [
        ['1', ['0x01']],
        [true, false],
      ]),
    ).toThrow('Argument p.tags[0]: expected exactly 4 bytes in hex');
    expect(() => encodeCall(findFunction(fns, 'put'), [['1', []], [true]])).toThrow('Argument flags: expected exactly 2 elements');
    expect(() => encodeCall(transfer, 'nope')).toThrow('args must be a JSON array');
  });

  it('bounds the amount of data one request may carry', () => {
    const put = findFunction(fns, 'put');
    expect(() =>
      coerceArguments(put, [
        ['1', Array(2000).fill('0x01020304')],
        [true, true],
      ]),
    ).toThrow(/at most 1024 elements/);
    expect(() => coerceArguments(findFunction(fns, 'set(string)'), ['x'.repeat(70_000)])).toThrow(/at most 65536 characters/);
  });
});

describe('values', () => {
  it('turns integers into decimal strings for JSON', () => {
    expect(toJsonValue([1n, { a: -2n, b: ['x', true] }])).toEqual(['1', { a: '-2', b: ['x', true] }]);
  });

  it('reads wei amounts', () => {
    expect(parseWei(undefined)).toBe(0n);
    expect(parseWei('')).toBe(0n);
    expect(parseWei('1000000000000000000')).toBe(10n ** 18n);
    expect(parseWei('0x10')).toBe(16n);
    expect(() => parseWei('-1')).toThrow(CallError);
    expect(() => parseWei('1.5')).toThrow(CallError);
  });
});
