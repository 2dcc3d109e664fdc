import { ADDRESS_PATTERN } from '../core/hex.js';
import type { Address, Hex } from '../core/types.js';
import { isRecord } from './rpcValues.js';

/** A CREATE/CREATE2 frame found in a transaction trace. */
export interface CreateFrame {
  /** The init code the frame ran: creation bytecode plus constructor arguments. */
  initCode: Hex;
  creator: Address;
  /** 0 for the transaction's own creation, more for a creation inside a call. */
  depth: number;
  /** Set when the trace covers several transactions (block traces). */
  transactionHash?: Hex | undefined;
}

const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

function lowerHex(value: unknown, pattern: RegExp): `0x${string}` | null {
  return typeof value === 'string' && pattern.test(value) ? (value.toLowerCase() as `0x${string}`) : null;
}

/** A creation found in a trace, with the address it created. */
export interface CreatedFrame extends CreateFrame {
  address: Address;
}

/**
 * Every creation in a `callTracer` result, in execution order. A frame counts only when it
 * and all its parents succeeded: code deployed under a reverted call was undone.
 */
export function createFramesInCallTrace(root: unknown): CreatedFrame[] {
  const out: CreatedFrame[] = [];
  // Iterative, so a deep call tree (up to 1024 frames deep) cannot exhaust the stack.
  const stack: { frame: unknown; depth: number }[] = [{ frame: root, depth: 0 }];
  while (stack.length > 0) {
    const { frame, depth } = stack.pop()!;
    if (!isRecord(frame) || frame.error !== undefined) continue;
    const type = typeof frame.type === 'string' ? frame.type.toUpperCase() : '';
    if (type === 'CREATE' || type === 'CREATE2') {
      const address = lowerHex(frame.to, ADDRESS_PATTERN);
      const initCode = lowerHex(frame.input, HEX_DATA);
      const creator = lowerHex(frame.from, ADDRESS_PATTERN);
      if (address && initCode && creator) out.push({ address, initCode, creator, depth });
    }
    if (Array.isArray(frame.calls)) {
      // Reversed so frames pop in execution order.
      for (let i = frame.calls.length - 1; i >= 0; i--) stack.push({ frame: frame.calls[i], depth: depth + 1 });
    }
  }
  return out;
}

/**
 * Searches a `callTracer` result for the frame that created `address`. When the address was
 * created more than once in the transaction, the last creation wins, since that is the code
 * that stayed.
 */
export function findCreateInCallTrace(root: unknown, address: Address): CreateFrame | null {
  const target = address.toLowerCase();
  const frames = createFramesInCallTrace(root).filter((f) => f.address === target);
  const last = frames[frames.length - 1];
  if (!last) return null;
  const { address: _address, ...frame } = last;
  return frame;
}

/**
 * Every creation in Parity-style traces (`trace_transaction`, `trace_block`), in order,
 * skipping creations that failed or sit under a failed frame.
 */
export function createFramesInParityTraces(traces: unknown): CreatedFrame[] {
  if (!Array.isArray(traces)) return [];
  const failed = new Set<string>();
  const key = (tx: unknown, path: number[]): string => `${String(tx)}:${path.join('.')}`;
  for (const t of traces) {
    if (isRecord(t) && t.error !== undefined && Array.isArray(t.traceAddress)) {
      failed.add(key(t.transactionHash ?? t.transactionPosition, t.traceAddress as number[]));
    }
  }
  const out: CreatedFrame[] = [];
  for (const t of traces) {
    if (!isRecord(t) || t.type !== 'create' || t.error !== undefined) continue;
    if (!isRecord(t.action) || !isRecord(t.result) || !Array.isArray(t.traceAddress)) continue;
    const address = lowerHex(t.result.address, ADDRESS_PATTERN);
    if (!address) continue;
    const path = t.traceAddress as number[];
    const tx = t.transactionHash ?? t.transactionPosition;
    let undone = false;
    for (let n = 0; n < path.length && !undone; n++) undone = failed.has(key(tx, path.slice(0, n)));
    if (undone) continue;
    const initCode = lowerHex(t.action.init, HEX_DATA);
    const creator = lowerHex(t.action.from, ADDRESS_PATTERN);
    if (!initCode || !creator) continue;
    const transactionHash = lowerHex(t.transactionHash, HASH);
    out.push({ address, initCode, creator, depth: path.length, transactionHash: transactionHash ?? undefined });
  }
  return out;
}

/** Searches Parity-style traces for the creation of `address` (the last one wins). */
export function findCreateInParityTraces(traces: unknown, address: Address): CreateFrame | null {
  const target = address.toLowerCase();
  const frames = createFramesInParityTraces(traces).filter((f) => f.address === target);
  const last = frames[frames.length - 1];
  if (!last) return null;
  const { address: _address, ...frame } = last;
  return frame;
}
