import { type AbiFunction, type AbiParameter, decodeAbiParameters, encodeFunctionData, isAddress, toFunctionSelector, toFunctionSignature } from 'viem';
import type { Address, Hex } from '../core/types.js';
import type { ChainReader } from '../verify/index.js';

/**
 * Reading and writing contracts from the explorer: a function is picked from a STORED ABI
 * (never one from the request), its arguments are checked against that ABI's types, and the
 * call data is built with viem.
 */

/** A failure the page shows to the user, with the HTTP status it goes out with. */
export class CallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A function of a stored ABI, normalised (old ABIs carry `constant`/`payable` instead of `stateMutability`). */
export interface ContractFunction {
  abi: AbiFunction;
  /** `name(type,...)`, the canonical signature. */
  signature: string;
  selector: Hex;
  /** Position among the ABI's functions of the same name (for overloads). */
  index: number;
  readOnly: boolean;
  payable: boolean;
}

/** Limits on what one request may carry. */
const MAX_ARRAY_LENGTH = 1024;
const MAX_VALUES = 4096;
const MAX_STRING_LENGTH = 65_536;

interface RawAbiItem {
  type?: unknown;
  name?: unknown;
  inputs?: unknown;
  outputs?: unknown;
  stateMutability?: unknown;
  constant?: unknown;
  payable?: unknown;
}

/**
 * The functions of an ABI given as JSON text, in ABI order. An unreadable ABI gives an
 * empty list: the page still shows the rest of the contract.
 */
export function abiFunctions(abiText: string): ContractFunction[] {
  let items: unknown;
  try {
    items = JSON.parse(abiText);
  } catch {
    return [];
  }
  if (!Array.isArray(items)) return [];
  const functions: ContractFunction[] = [];
  const seen = new Map<string, number>();
  for (const raw of items as RawAbiItem[]) {
    if (!raw || typeof raw !== 'object') continue;
    // Solidity before 0.5 may leave out `type` on functions.
    if ((raw.type ?? 'function') !== 'function' || typeof raw.name !== 'string') continue;
    const stateMutability =
      typeof raw.stateMutability === 'string' ? raw.stateMutability : raw.constant === true ? 'view' : raw.payable === true ? 'payable' : 'nonpayable';
    const abi = {
      type: 'function',
      name: raw.name,
      inputs: Array.isArray(raw.inputs) ? raw.inputs : [],
      outputs: Array.isArray(raw.outputs) ? raw.outputs : [],
      stateMutability,
    } as AbiFunction;
    let signature: string;
    let selector: Hex;
    try {
      signature = toFunctionSignature(abi);
      selector = toFunctionSelector(signature);
    } catch {
      continue;
    }
    const index = seen.get(abi.name) ?? 0;
    seen.set(abi.name, index + 1);
    functions.push({
      abi,
      signature,
      selector,
      index,
      readOnly: stateMutability === 'view' || stateMutability === 'pure',
      payable: stateMutability === 'payable',
    });
  }
  return functions;
}

/**
 * Finds the function a request names: a signature (`balanceOf(address)`, spaces ignored),
 * a 4-byte selector, or a name with an optional overload index.
 */
export function findFunction(functions: readonly ContractFunction[], name: unknown, index?: unknown): ContractFunction {
  if (typeof name !== 'string' || name.length === 0 || name.length > 1024) {
    throw new CallError(400, 'Missing function: give its signature, e.g. "balanceOf(address)", or its name');
  }
  const wanted = name.replace(/\s+/g, '');
  if (/^0x[0-9a-fA-F]{8}$/.test(wanted)) {
    const bySelector = functions.find((f) => f.selector === wanted.toLowerCase());
    if (bySelector) return bySelector;
    throw new CallError(404, `No function with selector ${wanted} in this contract's ABI`);
  }
  if (wanted.includes('(')) {
    const bySignature = functions.find((f) => f.signature === wanted);
    if (bySignature) return bySignature;
    throw new CallError(404, `No function ${wanted} in this contract's ABI`);
  }
  const named = functions.filter((f) => f.abi.name === wanted);
  if (named.length === 0) throw new CallError(404, `No function named ${wanted} in this contract's ABI`);
  if (index !== undefined && index !== null && index !== '') {
    const i = typeof index === 'number' ? index : typeof index === 'string' && /^\d{1,4}$/.test(index) ? Number(index) : NaN;
    const byIndex = Number.isInteger(i) ? named[i] : undefined;
    if (!byIndex) throw new CallError(400, `Function ${wanted} has ${named.length} overload(s); index ${String(index).slice(0, 8)} is not one of them`);
    return byIndex;
  }
  if (named.length > 1) {
    throw new CallError(400, `${wanted} is overloaded: give the signature (${named.map((f) => f.signature).join(', ')})`);
  }
  return named[0]!;
}

interface Budget {
  values: number;
}

function argError(path: string, problem: string): CallError {
  return new CallError(400, `Argument ${path}: ${problem}`);
}

/** Array values may come as JSON text (from a form field) or as JSON arrays. */
function asList(value: unknown, path: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // reported below
      }
    }
  }
  throw argError(path, 'expected a JSON array, e.g. ["1", "2"]');
}

function coerce(param: AbiParameter, value: unknown, path: string, budget: Budget): unknown {
  if (++budget.values > MAX_VALUES) throw new CallError(400, `Too many values: at most ${MAX_VALUES}`);
  const type = param.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const inner = { ...param, type: array[1]! } as AbiParameter;
    const list = asList(value, path);
    if (list.length > MAX_ARRAY_LENGTH) throw argError(path, `at most ${MAX_ARRAY_LENGTH} elements`);
    if (array[2] !== '' && list.length !== Number(array[2])) throw argError(path, `expected exactly ${array[2]} elements`);
    return list.map((v, i) => coerce(inner, v, `${path}[${i}]`, budget));
  }
  if (type === 'tuple') {
    const components = 'components' in param ? (param.components as readonly AbiParameter[]) : [];
    let fields: unknown[];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      fields = components.map((c, i) => (c.name && c.name in record ? record[c.name] : record[String(i)]));
    } else {
      fields = asList(value, path);
    }
    if (fields.length !== components.length) throw argError(path, `expected ${components.length} fields`);
    return components.map((c, i) => coerce(c, fields[i], `${path}.${c.name || i}`, budget));
  }
  const intMatch = /^(u?)int(\d*)$/.exec(type);
  if (intMatch) {
    let n: bigint;
    if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
    else if (typeof value === 'string' && /^\s*-?(?:\d{1,80}|0x[0-9a-fA-F]{1,64})\s*$/.test(value)) {
      const text = value.trim();
      n = text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text);
    } else throw argError(path, `expected an integer (${type})`);
    const bits = BigInt(intMatch[2] || '256');
    const [min, max] = intMatch[1] ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
    if (n < min || n > max) throw argError(path, `out of range for ${type}`);
    return n;
  }
  switch (type) {
    case 'bool':
      if (value === true || value === 'true' || value === '1' || value === 1) return true;
      if (value === false || value === 'false' || value === '0' || value === 0) return false;
      throw argError(path, 'expected true or false');
    case 'address': {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw argError(path, 'expected an address (0x and 40 hex digits)');
      if (!isAddress(text, { strict: true })) throw argError(path, 'the address checksum (its letter case) is wrong');
      return text.toLowerCase();
    }
    case 'string':
      if (typeof value !== 'string') throw argError(path, 'expected text');
      if (value.length > MAX_STRING_LENGTH) throw argError(path, `at most ${MAX_STRING_LENGTH} characters`);
      return value;
    case 'bytes': {
      const text = typeof value === 'string' ? value.trim() : '';
      if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(text) || text.length > 2 + 2 * MAX_STRING_LENGTH) {
        throw argError(path, 'expected hex bytes, e.g. 0x1234');
      }
      return text.toLowerCase();
    }
    case 'function':
      return coerce({ ...param, type: 'bytes24' } as AbiParameter, value, path, budget);
  }
  const fixedBytes = /^bytes(\d+)$/.exec(type);
  if (fixedBytes) {
    const size = Number(fixedBytes[1]);
    const text = typeof value === 'string' ? value.trim() : '';
    if (!new RegExp(`^0x[0-9a-fA-F]{${size * 2}}$`).test(text)) throw argError(path, `expected exactly ${size} bytes in hex`);
    return text.toLowerCase();
  }
  throw argError(path, `type ${type} is not supported here`);
}

/** Checks `args` against the function's inputs and converts them to what viem encodes. */
export function coerceArguments(fn: ContractFunction, args: unknown): unknown[] {
  const given = args === undefined || args === null ? [] : args;
  if (!Array.isArray(given)) throw new CallError(400, 'args must be a JSON array');
  const inputs = fn.abi.inputs;
  if (given.length !== inputs.length) {
    throw new CallError(400, `${fn.signature} takes ${inputs.length} argument(s), ${given.length} given`);
  }
  const budget: Budget = { values: 0 };
  return inputs.map((input, i) => coerce(input, given[i], input.name || `#${i + 1}`, budget));
}

/** The call data for `fn` with `args` (checked first). */
export function encodeCall(fn: ContractFunction, args: unknown): Hex {
  const values = coerceArguments(fn, args);
  try {
    return encodeFunctionData({ abi: [fn.abi], functionName: fn.abi.name, args: values } as Parameters<typeof encodeFunctionData>[0]);
  } catch (error) {
    throw new CallError(400, `The arguments cannot be encoded: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** A value ready for JSON: integers as decimal strings, tuples as objects or arrays. */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJsonValue(v)]));
  }
  return value;
}

export interface ReadResult {
  function: string;
  outputs: { name: string; type: string; value: unknown }[];
}

/** Runs a read-only function through eth_call against `address` and decodes the answer. */
export async function readFunction(chain: ChainReader, address: Address, fn: ContractFunction, args: unknown): Promise<ReadResult> {
  if (!fn.readOnly) throw new CallError(400, `${fn.signature} changes state: use Write Contract`);
  const data = encodeCall(fn, args);
  let returned: Hex | null;
  try {
    returned = await chain.call(address, data);
  } catch {
    throw new CallError(502, 'The network node could not be reached; please try again later');
  }
  if (returned === null) throw new CallError(422, `The call to ${fn.signature} reverted`);
  const outputs = fn.abi.outputs;
  if (outputs.length > 0 && returned === '0x') {
    throw new CallError(422, `The contract returned no data for ${fn.signature} (no such function at this address?)`);
  }
  let values: readonly unknown[];
  try {
    values = decodeAbiParameters(outputs, returned);
  } catch {
    throw new CallError(422, `The answer of ${fn.signature} does not decode with this ABI`);
  }
  return {
    function: fn.signature,
    outputs: outputs.map((o, i) => ({ name: o.name ?? '', type: o.type, value: toJsonValue(values[i]) })),
  };
}

/** A transaction value in wei (decimal or 0x hex); '' or absent is zero. */
export function parseWei(value: unknown): bigint {
  if (value === undefined || value === null || value === '') return 0n;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\s*(?:\d{1,78}|0x[0-9a-fA-F]{1,64})\s*$/.test(value)) {
    const n = BigInt(value.trim());
    if (n < 2n ** 256n) return n;
  }
  throw new CallError(400, 'value must be an amount of wei (a non-negative integer)');
}
