import type { TransactionOrigin } from '../bytecodeDatabase/ports.js';
import type { Hex } from '../core/types.js';
import type { JsonRpc } from './jsonRpc.js';
import * as v from './rpcValues.js';

/**
 * Who sent transaction `txHash`, its block and that block's time: two reads
 * (`eth_getTransactionByHash`, then the block without its transactions). Null when the node
 * does not know the transaction or it is still pending.
 */
export async function transactionOrigin(rpc: JsonRpc, txHash: Hex): Promise<TransactionOrigin | null> {
  const txRaw = await rpc.request('eth_getTransactionByHash', [txHash]);
  if (txRaw === null) return null;
  const tx = v.record('eth_getTransactionByHash', txRaw, 'transaction');
  if (tx.blockNumber === null || tx.blockNumber === undefined) return null;
  const blockNumber = v.quantity('eth_getTransactionByHash', tx.blockNumber, 'block number');
  const sender = v.address('eth_getTransactionByHash', tx.from, 'from');
  const blockRaw = await rpc.request('eth_getBlockByNumber', [v.blockTag(blockNumber), false]);
  if (blockRaw === null) return null;
  const block = v.record('eth_getBlockByNumber', blockRaw, 'block');
  const timestamp = v.quantity('eth_getBlockByNumber', block.timestamp, 'timestamp');
  return { sender, blockNumber, timestamp };
}
