import type { Address, Hex, VyperInput } from '../core/types.js';
import type { CompiledContract } from './compiledContract.js';
import type { SolcInput, SolcOutput } from './solcTypes.js';
import type { VyperOutput } from './vyper/vyperTypes.js';

/**
 * Compiles a standard JSON input with one exact compiler version.
 * `version` is the long form without the leading `v`: `0.8.26+commit.8a97fa7a`.
 * Throws SolproofError with compiler_version_not_found, compiler_download_failed,
 * compile_timeout, compile_out_of_memory or compiler_crashed. Solidity errors come back
 * in `output.errors`, not as a throw.
 * When `signal` fires the compile is stopped where it is (waiting for a compiler or a slot, or
 * running: its worker or process is stopped) and the promise rejects with compile_cancelled.
 */
export interface Compiler {
  compile(version: string, input: SolcInput, signal?: AbortSignal): Promise<SolcOutput>;
}

/**
 * Compiles a Vyper standard JSON input with one Vyper release. `version` is the long form
 * without prefix (`0.4.1+commit.8a93dd27`), or a release alone (`0.4.4`) that the compiler
 * sources know the commit of. Throws SolproofError as Compiler does (compiler_version_not_found
 * and compiler_download_failed with `compiler: 'vyper'`); Vyper's own errors come back in
 * `output.errors`.
 */
export interface VyperCompiler {
  compile(version: string, input: VyperInput, signal?: AbortSignal): Promise<VyperOutput>;
}

/**
 * Compilations already made (the bytecode database): a contract found here needs no compile.
 * Keyed by the compiler version and the input without its outputSelection (its language is
 * part of it: a Vyper input is never taken for a solc one).
 */
export interface KnownCompilations {
  /** The contract `sourcePath:contractName` of compiling `input` with `version`, or null when not stored. */
  find(version: string, input: SolcInput | VyperInput, sourcePath: string, contractName: string): Promise<CompiledContract | null>;
}

/** Where and how a contract was created. */
export interface ContractCreation {
  /** The init code that ran: creation bytecode followed by the constructor arguments. */
  creationCode: Hex;
  transactionHash: Hex;
  blockNumber: bigint;
  /** The account or factory that created the contract. */
  creator: Address;
  /** True when the creation happened inside a call (CREATE/CREATE2 from a factory). */
  byFactory: boolean;
}

/** Read access to the chain the service serves. */
export interface ChainReader {
  chainId(): Promise<number>;
  /** Runtime code at an address ('0x' when none), optionally at a block. */
  getCode(address: Address, blockNumber?: bigint): Promise<Hex>;
  /** The creation of a contract, or null when it cannot be found. */
  findCreation(address: Address): Promise<ContractCreation | null>;
  getStorageAt(address: Address, slot: Hex, blockNumber?: bigint): Promise<Hex>;
  /** eth_call; returns null when the call reverts. */
  call(to: Address, data: Hex, blockNumber?: bigint): Promise<Hex | null>;
  getBlockNumber(): Promise<bigint>;
}

/** Many storage slots of one address at one block, read together (JSON-RPC batches). */
export interface StorageSlotReader {
  /** The words at `slots` in order; throws as ChainReader does when the node fails. */
  getStorageSlots(address: Address, slots: readonly Hex[], blockNumber: bigint): Promise<Hex[]>;
}

/**
 * Event logs, for Etherscan's `module=logs&action=getLogs` (OpenZeppelin's plugin finds creations
 * with it) and for the chain follower (proxies' upgrade events, of any address).
 */
export interface LogFilter {
  /** One address; every address when left out. */
  address?: Address;
  fromBlock: bigint;
  toBlock: bigint | 'latest';
  /** One first topic, or any of several. */
  topic0?: Hex | readonly Hex[];
}

export interface ChainLog {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: bigint;
  transactionHash: Hex;
  transactionIndex: bigint;
  logIndex: bigint;
}

export interface LogReader {
  /** eth_getLogs; at most `limit` logs (default 1000). */
  getLogs(filter: LogFilter, limit?: number): Promise<ChainLog[]>;
}
