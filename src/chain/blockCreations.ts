import type { BlockCreation } from '../bytecodeDatabase/ports.js';
import type { Address, Hex } from '../core/types.js';
import { createFramesInCallTrace, createFramesInParityTraces } from './creationTraces.js';
import type { JsonRpc } from './jsonRpc.js';
import * as v from './rpcValues.js';

/**
 * The contracts created in block `n`: from the block's traces when the node serves them
 * (`debug_traceBlockByNumber` with callTracer, else `trace_block`), which show factory
 * creations too; else from the receipts of transactions without `to` (`traced: false`).
 * Creations under a reverted frame are left out; an address created twice keeps the last.
 */
export async function creationsInBlock(rpc: JsonRpc, n: bigint): Promise<{ creations: BlockCreation[]; traced: boolean }> {
  const tag = v.blockTag(n);
  const blockRaw = await rpc.request('eth_getBlockByNumber', [tag, true], { heavy: true });
  if (blockRaw === null) return { creations: [], traced: true };
  const block = v.record('eth_getBlockByNumber', blockRaw, 'block');
  if (!Array.isArray(block.transactions)) throw v.malformed('eth_getBlockByNumber', 'transactions');
  const txs = block.transactions.map((t) => v.record('eth_getBlockByNumber', t, 'transaction'));
  if (txs.length === 0) return { creations: [], traced: true };
  const senders = new Map<string, Address>();
  for (const tx of txs) senders.set(v.hash('eth_getBlockByNumber', tx.hash), v.address('eth_getBlockByNumber', tx.from, 'from'));

  const debug = await rpc.optional('debug_traceBlockByNumber', [tag, { tracer: 'callTracer' }], { heavy: true });
  if (debug.supported) {
    if (!Array.isArray(debug.result)) throw v.malformed('debug_traceBlockByNumber', 'traces');
    const out: BlockCreation[] = [];
    for (const [i, item] of debug.result.entries()) {
      if (!v.isRecord(item)) continue;
      // Older nodes omit txHash; the results come in block order.
      const transactionHash = v.hash('debug_traceBlockByNumber', item.txHash ?? txs[i]?.hash, 'txHash');
      for (const frame of createFramesInCallTrace(item.result)) {
        out.push({
          address: frame.address,
          transactionHash,
          blockNumber: n,
          creator: senders.get(transactionHash) ?? frame.creator,
          factory: frame.depth > 0 ? frame.creator : null,
          initCode: frame.initCode,
        });
      }
    }
    return { creations: lastPerAddress(out), traced: true };
  }
  const parity = await rpc.optional('trace_block', [tag], { heavy: true });
  if (parity.supported) {
    const out: BlockCreation[] = [];
    for (const frame of createFramesInParityTraces(parity.result)) {
      if (!frame.transactionHash) continue;
      out.push({
        address: frame.address,
        transactionHash: frame.transactionHash,
        blockNumber: n,
        creator: senders.get(frame.transactionHash) ?? frame.creator,
        factory: frame.depth > 0 ? frame.creator : null,
        initCode: frame.initCode,
      });
    }
    return { creations: lastPerAddress(out), traced: true };
  }

  const out: BlockCreation[] = [];
  for (const tx of txs) {
    if (v.optionalAddress('eth_getBlockByNumber', tx.to, 'to') !== null) continue;
    const transactionHash = v.hash('eth_getBlockByNumber', tx.hash);
    const receipt = v.record('eth_getTransactionReceipt', await rpc.request('eth_getTransactionReceipt', [transactionHash]), 'receipt');
    const created = v.optionalAddress('eth_getTransactionReceipt', receipt.contractAddress, 'contractAddress');
    if (created === null || !succeeded(receipt)) continue;
    out.push({
      address: created,
      transactionHash,
      blockNumber: n,
      creator: v.address('eth_getBlockByNumber', tx.from, 'from'),
      factory: null,
      initCode: v.hexData('eth_getBlockByNumber', tx.input ?? tx.data, 'input'),
    });
  }
  return { creations: out, traced: false };
}

function succeeded(receipt: Record<string, unknown>): boolean {
  if (receipt.status === undefined || receipt.status === null) return true;
  return v.quantity('eth_getTransactionReceipt', receipt.status, 'status') === 1n;
}

function lastPerAddress(creations: BlockCreation[]): BlockCreation[] {
  const byAddress = new Map<string, BlockCreation>();
  for (const c of creations) {
    byAddress.delete(c.address);
    byAddress.set(c.address, c);
  }
  return [...byAddress.values()];
}

/** The hash of block `n`, or null when there is no such block. */
export async function blockHash(rpc: JsonRpc, n: bigint): Promise<Hex | null> {
  const raw = await rpc.request('eth_getBlockByNumber', [v.blockTag(n), false]);
  if (raw === null) return null;
  return v.hash('eth_getBlockByNumber', v.record('eth_getBlockByNumber', raw, 'block').hash, 'block hash');
}
