import { concat, encodeAbiParameters, keccak256, pad, toBytes, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { mappingValueSlot } from './mappingKey.js';

const SLOT = 7n;
const slotOf = (keyType: string, key: string, valueTypes?: ReadonlyMap<string, string>) => {
  const found = mappingValueSlot(keyType, key, SLOT, valueTypes);
  return 'slot' in found ? found.slot : found.error;
};
/** Solidity's rule, by viem's ABI encoder: keccak256(abi.encode(key, slot)). */
const byAbi = (type: string, value: unknown) => BigInt(keccak256(encodeAbiParameters([{ type }, { type: 'uint256' }], [value, SLOT])));

describe('mappingValueSlot', () => {
  it('value-type keys hash as abi.encode(key, slot): addresses, integers (negative too), bool, bytesN, enums', () => {
    const who = '0x00000000000000000000000000000000000b0b00';
    expect(slotOf('address', who)).toBe(byAbi('address', who));
    expect(slotOf('contract IERC20', who.toUpperCase().replace('0X', '0x'))).toBe(byAbi('address', who));
    expect(slotOf('uint256', '12345')).toBe(byAbi('uint256', 12345n));
    expect(slotOf('uint64', '0xff')).toBe(byAbi('uint64', 255n));
    expect(slotOf('int8', '-3')).toBe(byAbi('int8', -3));
    expect(slotOf('bool', 'true')).toBe(byAbi('bool', true));
    expect(slotOf('bytes4', '0xa9059cbb')).toBe(byAbi('bytes4', '0xa9059cbb'));
    expect(slotOf('enum C.Phase', '2')).toBe(byAbi('uint8', 2));
    // A user-defined value type is its underlying type.
    expect(slotOf('C.Price', '-1', new Map([['Price', 'int96']]))).toBe(byAbi('int96', -1n));
  });

  it('string and bytes keys hash their bytes with the slot, unpadded', () => {
    expect(slotOf('string', 'héllo')).toBe(BigInt(keccak256(concat([toHex(toBytes('héllo')), pad(toHex(SLOT))]))));
    expect(slotOf('bytes', '0x0102')).toBe(BigInt(keccak256(concat(['0x0102', pad(toHex(SLOT))]))));
  });

  it('names what is wrong with a key', () => {
    expect(slotOf('address', 'nobody')).toBe('not an address (0x and 40 hex digits)');
    expect(slotOf('uint8', '256')).toBe('out of range for uint8');
    expect(slotOf('int8', '-129')).toBe('out of range for int8');
    expect(slotOf('uint256', '1.5')).toBe('not a number');
    expect(slotOf('bool', 'yes')).toBe('not true or false');
    expect(slotOf('bytes4', '0x01')).toBe('not 4 bytes of hex (0x and 8 hex digits)');
  });
});
