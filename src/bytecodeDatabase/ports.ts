import type { Address, Hex } from '../core/types.js';
import type { ChainReader, ContractCreation } from '../verify/index.js';

/** A contract created in a block: by a transaction without `to`, or inside a call (a factory). */
export interface BlockCreation {
  address: Address;
  transactionHash: Hex;
  blockNumber: bigint;
  /** The account that sent the transaction (for a creation inside a call too; the factory is `factory`). */
  creator: Address;
  /** The contract whose code ran CREATE/CREATE2; null for a transaction's own creation. */
  factory: Address | null;
  /** The init code that ran: creation bytecode followed by constructor arguments. */
  initCode: Hex;
}

/** Who sent a transaction, in which block, and that block's time. */
export interface TransactionOrigin {
  sender: Address;
  blockNumber: bigint;
  /** The block's timestamp, in seconds since the Unix epoch. */
  timestamp: bigint;
}

/** What the chain follower, the generation check and the creation lookup read, beside the verifier's ChainReader. */
export interface ChainHistory extends ChainReader {
  /** The hash of block `n`; null when the chain has no such block yet. */
  blockHash(n: bigint): Promise<Hex | null>;
  /**
   * The contracts created in block `n`. `traced` is false when the node serves no traces:
   * then only transactions' own creations are listed (a factory's children are not seen).
   */
  creationsInBlock(n: bigint): Promise<{ creations: BlockCreation[]; traced: boolean }>;
  /** The creation of `address` in a known transaction, or null when it did not create it. */
  creationInTransaction(address: Address, transactionHash: Hex): Promise<ContractCreation | null>;
  /** The sender, block and block time of a mined transaction; null when the node does not know it. */
  transactionOrigin(transactionHash: Hex): Promise<TransactionOrigin | null>;
}
