import type { Address, Hex } from '../../core/types.js';
import { cborTailRange } from '../cborTail.js';
import type { ProxyPattern } from './proxyTypes.js';

/** A proxy recognised from its runtime code alone. */
export type BytecodeProxyMatch =
  | { pattern: Exclude<ProxyPattern, 'sequence_wallet'>; implementation: Address }
  /** Sequence wallets keep the implementation in storage at the slot named by their own address. */
  | { pattern: 'sequence_wallet' };

interface FixedShape {
  pattern: 'clone44' | 'push0_clone' | 'vyper_forwarder';
  prefix: string;
  suffix: string;
}

// Every shape ends in RETURN/REVERT, so bytes after it never run: clones with immutable
// args append their args there, and a trailing tail cannot change where calls go.
const FIXED_SHAPES: readonly FixedShape[] = [
  // 0age / Solady 44-byte clone
  { pattern: 'clone44', prefix: '3d3d3d3d363d3d37363d73', suffix: '5af43d3d93803e602a57fd5bf3' },
  // ERC-7511
  { pattern: 'push0_clone', prefix: '365f5f375f5f365f73', suffix: '5af43d5f5f3e5f3d91602a57fd5bf3' },
  // Solady LibClone PUSH0 form
  { pattern: 'push0_clone', prefix: '5f5f365f5f37365f73', suffix: '5af43d5f5f3e6029573d5ffd5b3d5ff3' },
  // Vyper create_forwarder_to (0.2+)
  { pattern: 'vyper_forwarder', prefix: '366000600037611000600036600073', suffix: '5af4602c57600080fd5b6110006000f3' },
  // Vyper beta form used by Uniswap v1 exchanges
  { pattern: 'vyper_forwarder', prefix: '366000600037611000600036600073', suffix: '5af41558576110006000f3' },
];

const EIP1167_PREFIX = '363d3d373d3d3d363d';
const EIP1167_MIDDLE = '5af43d82803e903d91';
const SEQUENCE_WALLET = '363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3';
const EIP7702_PREFIX = 'ef0100';

/**
 * Recognises the proxies whose target is fixed in the code: EIP-1167 (with vanity PUSHn
 * and trailing immutable args), the 44-byte clone, both PUSH0 clones, both Vyper
 * forwarders, the Sequence wallet, and EIP-7702 delegation designators.
 * Returns null for anything else; the address is not checked for code here.
 */
export function matchProxyBytecode(code: Hex): BytecodeProxyMatch | null {
  const hex = code.slice(2).toLowerCase();

  if (hex.length === 46 && hex.startsWith(EIP7702_PREFIX)) {
    return { pattern: 'eip7702', implementation: `0x${hex.slice(6)}` };
  }

  if (hex.startsWith(EIP1167_PREFIX)) {
    const clone = matchEip1167(hex);
    if (clone) return { pattern: 'eip1167', implementation: clone };
  }

  for (const shape of FIXED_SHAPES) {
    if (!hex.startsWith(shape.prefix)) continue;
    const addressEnd = shape.prefix.length + 40;
    if (hex.startsWith(shape.suffix, addressEnd)) {
      return { pattern: shape.pattern, implementation: `0x${hex.slice(shape.prefix.length, addressEnd)}` };
    }
  }

  if (hex.startsWith(SEQUENCE_WALLET)) return { pattern: 'sequence_wallet' };
  return null;
}

function matchEip1167(hex: string): Address | null {
  const pushOpcode = parseInt(hex.slice(EIP1167_PREFIX.length, EIP1167_PREFIX.length + 2), 16);
  // PUSH1..PUSH20: vanity addresses with leading zero bytes use a shorter push.
  if (!(pushOpcode >= 0x60 && pushOpcode <= 0x73)) return null;
  const size = pushOpcode - 0x5f;
  const addressStart = EIP1167_PREFIX.length + 2;
  const addressEnd = addressStart + size * 2;
  // The JUMPDEST sits 23 bytes after the pushed address starts; a shorter push moves it.
  const jumpTarget = (23 + size).toString(16).padStart(2, '0');
  const suffix = `${EIP1167_MIDDLE}60${jumpTarget}57fd5bf3`;
  if (hex.length < addressEnd + suffix.length || !hex.startsWith(suffix, addressEnd)) return null;
  return `0x${hex.slice(addressStart, addressEnd).padStart(40, '0')}`;
}

// Safe's proxy fallback (1.1.1 with solc 0.5, 1.3.0 and 1.4.1 with solc 0.7.6 all compile
// to this body): mask slot 0, answer masterCopy() itself, else delegatecall to it.
const KNOWN_SAFE_PROXY_BODIES: readonly string[] = [
  '608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fe',
];

/** True when the code is a known Safe (Gnosis) proxy runtime, whatever its metadata hash. */
export function isKnownSafeProxyCode(code: Hex): boolean {
  const body = stripMetadata(code.slice(2).toLowerCase());
  return KNOWN_SAFE_PROXY_BODIES.includes(body);
}

/**
 * Removes the CBOR metadata Solidity and Vyper append (its length is in the last two
 * bytes) when the tail looks like one; returns the hex unchanged otherwise.
 */
export function stripMetadata(hex: string): string {
  const range = cborTailRange(hex);
  if (!range || range.length === 2) return hex;
  const mapHeader = parseInt(hex.slice(range.start * 2, range.start * 2 + 2), 16);
  // A CBOR map of 1..5 entries: the only shape compilers write.
  return mapHeader >= 0xa1 && mapHeader <= 0xa5 ? hex.slice(0, range.start * 2) : hex;
}

/**
 * True when the 4 selector bytes appear byte-aligned anywhere in the code. A superset of
 * "a PUSH4 of the selector": Safe proxies compare against a PUSH32 and Vyper keeps
 * selector tables in data.
 */
export function codeContainsSelector(code: Hex, selector: string): boolean {
  const hex = code.slice(2).toLowerCase();
  const needle = selector.toLowerCase();
  for (let at = hex.indexOf(needle); at !== -1; at = hex.indexOf(needle, at + 1)) {
    if (at % 2 === 0) return true;
  }
  return false;
}

/**
 * True when DELEGATECALL (or the older CALLCODE) occurs as an instruction, skipping push
 * data and the metadata tail. A contract without one cannot run another contract's code
 * on its own storage, so whatever its getters answer, it is not a proxy.
 */
export function hasDelegateCall(code: Hex): boolean {
  const hex = stripMetadata(code.slice(2).toLowerCase());
  const length = hex.length / 2;
  for (let pc = 0; pc < length; pc++) {
    const opcode = parseInt(hex.slice(pc * 2, pc * 2 + 2), 16);
    if (opcode === 0xf4 || opcode === 0xf2) return true;
    if (opcode >= 0x60 && opcode <= 0x7f) pc += opcode - 0x5f;
  }
  return false;
}
