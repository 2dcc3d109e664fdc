import { SolproofError } from '../core/errors.js';
import { parseAddress } from '../core/hex.js';
import { isRecord } from '../core/json.js';
import type { Address, Hex } from '../core/types.js';
import { RpcFailure } from './jsonRpc.js';

// What a node sends is outside input: every value is checked before the service uses it.

const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** Validates an address handed in by the service and returns it in lower case. */
export function normalizeAddress(address: string): Address {
  const parsed = typeof address === 'string' ? parseAddress(address) : null;
  if (parsed === null) throw new SolproofError('invalid_input', { problem: 'invalid_address', address: String(address).slice(0, 60) });
  return parsed;
}

/** A block number as a JSON-RPC block parameter. */
export function blockTag(blockNumber: bigint | undefined): string {
  if (blockNumber === undefined) return 'latest';
  if (blockNumber < 0n) throw new SolproofError('invalid_input', { problem: 'negative_block_number' });
  return `0x${blockNumber.toString(16)}`;
}

export function malformed(method: string, what: string): RpcFailure {
  return new RpcFailure(method, 'malformed', `unexpected ${what} in the answer`);
}

export function hexData(method: string, value: unknown, what = 'data'): Hex {
  if (typeof value !== 'string' || !HEX_DATA.test(value)) throw malformed(method, what);
  return value.toLowerCase() as Hex;
}

export function quantity(method: string, value: unknown, what = 'number'): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value !== 'string' || !QUANTITY.test(value)) throw malformed(method, what);
  return BigInt(value);
}

export function address(method: string, value: unknown, what = 'address'): Address {
  const parsed = typeof value === 'string' ? parseAddress(value) : null;
  if (parsed === null) throw malformed(method, what);
  return parsed;
}

/** An address field that is null or absent for contract creations. */
export function optionalAddress(method: string, value: unknown, what = 'address'): Address | null {
  return value === null || value === undefined ? null : address(method, value, what);
}

export function hash(method: string, value: unknown, what = 'hash'): Hex {
  if (typeof value !== 'string' || !HASH.test(value)) throw malformed(method, what);
  return value.toLowerCase() as Hex;
}

export function record(method: string, value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw malformed(method, what);
  return value;
}

export { isRecord };
