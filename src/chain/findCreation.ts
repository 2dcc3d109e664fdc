import { getContractAddress } from 'viem';
import type { Logger } from '../core/log.js';
import type { Address, Hex } from '../core/types.js';
import type { ContractCreation } from '../verify/index.js';
import { type CreateFrame, findCreateInCallTrace, findCreateInParityTraces } from './creationTraces.js';
import { isStateUnavailable, type JsonRpc, RpcFailure } from './jsonRpc.js';
import * as v from './rpcValues.js';

export interface FindCreationOptions {
  /** Ask `ots_getContractCreator` first (remembered as absent once the node refuses it). */
  useOtterscan: boolean;
  /** At most this many transactions of one block are traced one by one. */
  maxBlockTransactions: number;
  logger?: Logger | undefined;
}

/** An EIP-7702 delegation designator: an account with code that no transaction created. */
const DELEGATION = /^0xef0100[0-9a-f]{40}$/;

/**
 * Finds the transaction and init code that created `address` (lower case), or null when
 * the node cannot tell (no contract, genesis allocation, no traces or history for a
 * factory creation). Throws RpcFailure when the node is down or answers nonsense.
 */
export async function findCreation(rpc: JsonRpc, address: Address, options: FindCreationOptions): Promise<ContractCreation | null> {
  if (options.useOtterscan) {
    const ots = await rpc.optional('ots_getContractCreator', [address], { heavy: true });
    if (ots.supported) {
      if (ots.result === null) return null;
      const found = v.record('ots_getContractCreator', ots.result, 'creator');
      return creationInTransaction(rpc, address, v.hash('ots_getContractCreator', found.hash));
    }
  }
  return searchCreation(rpc, address, options);
}

/** The creation of `address` in transaction `txHash` (direct, or by a factory when traces are served); null when it did not create it. */
export async function creationInTransaction(rpc: JsonRpc, address: Address, txHash: Hex): Promise<ContractCreation | null> {
  const [txRaw, receiptRaw] = await Promise.all([rpc.request('eth_getTransactionByHash', [txHash]), rpc.request('eth_getTransactionReceipt', [txHash])]);
  // The node just named this transaction; not having it is a node fault, not "no creation".
  const tx = v.record('eth_getTransactionByHash', txRaw, 'transaction');
  const receipt = v.record('eth_getTransactionReceipt', receiptRaw, 'receipt');
  const blockNumber = v.quantity('eth_getTransactionByHash', tx.blockNumber, 'block number');
  const direct = directCreation(address, txHash, blockNumber, tx, receipt);
  if (direct) return direct;
  const frame = await createFrameInTransaction(rpc, txHash, address);
  if (!frame) return null;
  return {
    creationCode: frame.initCode,
    transactionHash: txHash,
    blockNumber,
    creator: frame.creator,
    byFactory: frame.depth > 0,
  };
}

/** A transaction without `to` whose receipt names the address: its input is the init code. */
function directCreation(
  address: Address,
  txHash: Hex,
  blockNumber: bigint,
  tx: Record<string, unknown>,
  receipt: Record<string, unknown>,
): ContractCreation | null {
  const to = v.optionalAddress('eth_getTransactionByHash', tx.to, 'to');
  const created = v.optionalAddress('eth_getTransactionReceipt', receipt.contractAddress, 'contractAddress');
  if (to !== null || created !== address || !succeeded(receipt)) return null;
  return {
    creationCode: v.hexData('eth_getTransactionByHash', tx.input ?? tx.data, 'input'),
    transactionHash: txHash,
    blockNumber,
    creator: v.address('eth_getTransactionByHash', tx.from, 'from'),
    byFactory: false,
  };
}

function succeeded(receipt: Record<string, unknown>): boolean {
  // Receipts before Byzantium carry a state root instead of a status.
  if (receipt.status === undefined || receipt.status === null) return true;
  return v.quantity('eth_getTransactionReceipt', receipt.status, 'status') === 1n;
}

/**
 * The creation frame of `address` in one transaction's trace; null when the trace has
 * none, undefined when the node serves neither trace method.
 */
async function createFrameInTransaction(rpc: JsonRpc, txHash: Hex, address: Address): Promise<CreateFrame | null | undefined> {
  const debug = await rpc.optional('debug_traceTransaction', [txHash, { tracer: 'callTracer' }], { heavy: true });
  if (debug.supported) return findCreateInCallTrace(debug.result, address);
  const parity = await rpc.optional('trace_transaction', [txHash], { heavy: true });
  if (parity.supported) return findCreateInParityTraces(parity.result, address);
  return undefined;
}

/** Without ots: the first block with code by binary search, then that block's transactions. */
async function searchCreation(rpc: JsonRpc, address: Address, options: FindCreationOptions): Promise<ContractCreation | null> {
  const head = v.quantity('eth_blockNumber', await rpc.request('eth_blockNumber', []));
  const codeAt = async (block: bigint): Promise<Hex> => v.hexData('eth_getCode', await rpc.request('eth_getCode', [address, v.blockTag(block)]), 'code');
  const headCode = await codeAt(head);
  if (headCode === '0x' || DELEGATION.test(headCode)) return null;

  let low = 0n;
  let high = head;
  let highCode = headCode;
  try {
    const genesisCode = await codeAt(0n);
    if (genesisCode !== '0x') return null;
    // Invariant: no code at `low`, code at `high`. At most 64 probes for any chain height.
    while (high - low > 1n) {
      const mid = (low + high) / 2n;
      const code = await codeAt(mid);
      if (code === '0x') low = mid;
      else {
        high = mid;
        highCode = code;
      }
    }
  } catch (e) {
    if (e instanceof RpcFailure && isStateUnavailable(e)) {
      options.logger?.warn({ address, nodeMessage: e.message }, 'network node keeps no history for the creation search');
      return null;
    }
    throw e;
  }
  if (highCode !== headCode) {
    // The address was emptied and re-created (CREATE2 after selfdestruct): the search may
    // have landed on an older incarnation, whose init code says nothing about today's code.
    options.logger?.warn({ address, block: String(high) }, 'code changed since the creation found; creation not used');
    return null;
  }
  return creationInBlock(rpc, address, high, options);
}

async function creationInBlock(rpc: JsonRpc, address: Address, blockNumber: bigint, options: FindCreationOptions): Promise<ContractCreation | null> {
  const tag = v.blockTag(blockNumber);
  const block = v.record('eth_getBlockByNumber', await rpc.request('eth_getBlockByNumber', [tag, true], { heavy: true }), 'block');
  if (!Array.isArray(block.transactions)) throw v.malformed('eth_getBlockByNumber', 'transactions');
  const txs = block.transactions.map((t) => v.record('eth_getBlockByNumber', t, 'transaction'));

  // A deployment's address follows from sender and nonce, so only a matching one needs its receipt.
  for (const tx of txs) {
    if (v.optionalAddress('eth_getBlockByNumber', tx.to, 'to') !== null) continue;
    const from = v.address('eth_getBlockByNumber', tx.from, 'from');
    const nonce = v.quantity('eth_getBlockByNumber', tx.nonce, 'nonce');
    if (getContractAddress({ from, nonce }).toLowerCase() !== address) continue;
    const txHash = v.hash('eth_getBlockByNumber', tx.hash);
    const receipt = v.record('eth_getTransactionReceipt', await rpc.request('eth_getTransactionReceipt', [txHash]), 'receipt');
    const direct = directCreation(address, txHash, blockNumber, tx, receipt);
    if (direct) return direct;
  }

  const fromFrame = (frame: CreateFrame, txHash: Hex): ContractCreation => ({
    creationCode: frame.initCode,
    transactionHash: txHash,
    blockNumber,
    creator: frame.creator,
    byFactory: frame.depth > 0,
  });

  const debugBlock = await rpc.optional('debug_traceBlockByNumber', [tag, { tracer: 'callTracer' }], {
    heavy: true,
  });
  if (debugBlock.supported) {
    if (!Array.isArray(debugBlock.result)) throw v.malformed('debug_traceBlockByNumber', 'traces');
    let found: ContractCreation | null = null;
    for (const [i, item] of debugBlock.result.entries()) {
      if (!v.isRecord(item)) continue;
      const frame = findCreateInCallTrace(item.result, address);
      if (!frame) continue;
      // Older nodes omit txHash; the results come in block order.
      const txHash = v.hash('debug_traceBlockByNumber', item.txHash ?? txs[i]?.hash, 'txHash');
      found = fromFrame(frame, txHash);
    }
    return found;
  }

  const parityBlock = await rpc.optional('trace_block', [tag], { heavy: true });
  if (parityBlock.supported) {
    const frame = findCreateInParityTraces(parityBlock.result, address);
    if (!frame?.transactionHash) return null;
    return fromFrame(frame, frame.transactionHash);
  }

  if (txs.length > options.maxBlockTransactions) {
    options.logger?.warn(
      { address, block: String(blockNumber), transactions: txs.length, max: options.maxBlockTransactions },
      'creation block has too many transactions to trace one by one; only the last ones are traced',
    );
  }
  // Newest first: when several transactions touched the address, the last creation stayed.
  const traced = txs.slice(-options.maxBlockTransactions).reverse();
  for (const tx of traced) {
    const txHash = v.hash('eth_getBlockByNumber', tx.hash);
    const frame = await createFrameInTransaction(rpc, txHash, address);
    if (frame === undefined) return null;
    if (frame) return fromFrame(frame, txHash);
  }
  return null;
}
