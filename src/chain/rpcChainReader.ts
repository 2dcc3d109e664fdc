import type { ChainHistory } from '../bytecodeDatabase/ports.js';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Address, Hex } from '../core/types.js';
import type { ChainLog, ContractCreation, LogFilter, LogReader, StorageSlotReader } from '../verify/index.js';
import { blockHash, creationsInBlock } from './blockCreations.js';
import { creationInTransaction, findCreation } from './findCreation.js';
import { chainUnavailable, createJsonRpc, isExecutionFailure, RpcFailure } from './jsonRpc.js';
import * as v from './rpcValues.js';
import { transactionOrigin } from './transactionOrigin.js';

export interface RpcChainReaderOptions {
  /** JSON-RPC over HTTP(S). May carry credentials: it is never logged. */
  rpcUrl: string;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  /** Per trace, full block or ots request. Default the larger of 30 s and timeoutMs. */
  traceTimeoutMs?: number;
  /** Retries after the first attempt, for connection failures and rate limits only. Default 2. */
  retryCount?: number;
  logger?: Logger | undefined;
  /** Try `ots_getContractCreator` first; once the node refuses it, it is not asked again. Default true. */
  useOtterscan?: boolean;
  /** Cap on transactions of one block traced one by one in the creation search. Default 256. */
  maxBlockTransactions?: number;
  /** Cap on the size of one trace or block answer. Default 64 MiB. */
  maxTraceResponseBytes?: number;
  /** Gas given to every eth_call (explorer reads, proxy getters). Default 10,000,000. */
  callGas?: number;
}

/**
 * A ChainReader over one JSON-RPC endpoint. Every method throws
 * SolproofError('chain_unavailable', retryable) when the node is down, times out or
 * answers with an error; "nothing there" is a value ('0x', null), never a throw.
 * Addresses and hex come back in lower case.
 */
export function createRpcChainReader(options: RpcChainReaderOptions): ChainHistory & LogReader & StorageSlotReader {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const callGas = options.callGas ?? 10_000_000;
  const rpc = createJsonRpc({
    rpcUrl: options.rpcUrl,
    timeoutMs,
    heavyTimeoutMs: options.traceTimeoutMs ?? Math.max(30_000, timeoutMs),
    retryCount: options.retryCount ?? 2,
    heavyMaxResponseBytes: options.maxTraceResponseBytes ?? 64 * 1024 * 1024,
    logger: options.logger,
  });
  const findOptions = {
    useOtterscan: options.useOtterscan ?? true,
    maxBlockTransactions: options.maxBlockTransactions ?? 256,
    logger: options.logger,
  };

  async function guarded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof SolproofError) throw e;
      throw chainUnavailable(e);
    }
  }

  return {
    chainId: () =>
      guarded(async () => {
        const id = v.quantity('eth_chainId', await rpc.request('eth_chainId', []), 'chain id');
        if (id > BigInt(Number.MAX_SAFE_INTEGER)) throw v.malformed('eth_chainId', 'chain id');
        return Number(id);
      }),

    getBlockNumber: () => guarded(async () => v.quantity('eth_blockNumber', await rpc.request('eth_blockNumber', []))),

    getCode: (address: Address, blockNumber?: bigint) =>
      guarded(async () => {
        const params = [v.normalizeAddress(address), v.blockTag(blockNumber)];
        return v.hexData('eth_getCode', await rpc.request('eth_getCode', params), 'code');
      }),

    getStorageAt: (address: Address, slot: Hex, blockNumber?: bigint) =>
      guarded(async () => {
        if (!/^0x[0-9a-fA-F]{1,64}$/.test(slot)) throw new SolproofError('invalid_input', { problem: 'invalid_storage_slot' });
        const params = [v.normalizeAddress(address), slotWord(slot), v.blockTag(blockNumber)];
        const value = await rpc.request('eth_getStorageAt', params);
        if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(value)) {
          throw v.malformed('eth_getStorageAt', 'storage value');
        }
        // Some nodes trim leading zeros; callers compare whole words.
        return slotWord(value);
      }),

    getStorageSlots: (address: Address, slots: readonly Hex[], blockNumber: bigint) =>
      guarded(async () => {
        if (slots.some((slot) => !/^0x[0-9a-fA-F]{1,64}$/.test(slot))) throw new SolproofError('invalid_input', { problem: 'invalid_storage_slot' });
        const target = v.normalizeAddress(address);
        const tag = v.blockTag(blockNumber);
        const values = await rpc.requestMany(
          'eth_getStorageAt',
          slots.map((slot) => [target, slotWord(slot), tag]),
        );
        return values.map((value) => {
          if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(value)) throw v.malformed('eth_getStorageAt', 'storage value');
          return slotWord(value);
        });
      }),

    call: (to: Address, data: Hex, blockNumber?: bigint) =>
      guarded(async () => {
        const input = v.hexData('eth_call', data, 'call data');
        try {
          const result = await rpc.request('eth_call', [
            // A bounded gas allowance: a view that loops must not run to the node's whole cap.
            { to: v.normalizeAddress(to), data: input, gas: `0x${callGas.toString(16)}` },
            v.blockTag(blockNumber),
          ]);
          return v.hexData('eth_call', result, 'return data');
        } catch (e) {
          if (e instanceof RpcFailure && isExecutionFailure(e)) return null;
          throw e;
        }
      }),

    getLogs: (filter: LogFilter, limit = 1000) =>
      guarded(async () => {
        const topic0 =
          filter.topic0 === undefined ? undefined : typeof filter.topic0 === 'string' ? filter.topic0.toLowerCase() : filter.topic0.map((t) => t.toLowerCase());
        const params = {
          ...(filter.address ? { address: v.normalizeAddress(filter.address) } : {}),
          fromBlock: v.blockTag(filter.fromBlock),
          toBlock: filter.toBlock === 'latest' ? 'latest' : v.blockTag(filter.toBlock),
          topics: topic0 ? [topic0] : [],
        };
        const result = await rpc.request('eth_getLogs', [params]);
        if (!Array.isArray(result)) throw v.malformed('eth_getLogs', 'log list');
        return result.slice(0, limit).map((raw): ChainLog => {
          const log = v.record('eth_getLogs', raw, 'log');
          const topics = Array.isArray(log.topics) ? log.topics.map((t) => v.hash('eth_getLogs', t, 'topic')) : [];
          return {
            address: v.address('eth_getLogs', log.address),
            topics,
            data: v.hexData('eth_getLogs', log.data),
            blockNumber: v.quantity('eth_getLogs', log.blockNumber),
            transactionHash: v.hash('eth_getLogs', log.transactionHash),
            transactionIndex: v.quantity('eth_getLogs', log.transactionIndex),
            logIndex: v.quantity('eth_getLogs', log.logIndex),
          };
        });
      }),

    blockHash: (n: bigint) => guarded(() => blockHash(rpc, n)),

    creationsInBlock: (n: bigint) => guarded(() => creationsInBlock(rpc, n)),

    creationInTransaction: (address: Address, transactionHash: Hex) =>
      guarded(() => creationInTransaction(rpc, v.normalizeAddress(address), v.hash('creationInTransaction', transactionHash))),

    transactionOrigin: (transactionHash: Hex) => guarded(() => transactionOrigin(rpc, v.hash('transactionOrigin', transactionHash))),

    findCreation: (address: Address): Promise<ContractCreation | null> =>
      guarded(async () => {
        const target = v.normalizeAddress(address);
        try {
          return await findCreation(rpc, target, findOptions);
        } catch (e) {
          // Refusing an oversized trace is a deliberate bound; the runtime code still verifies.
          if (e instanceof RpcFailure && e.kind === 'too_large') {
            options.logger?.warn({ address: target, method: e.method }, 'trace too large; creation not used');
            return null;
          }
          throw e;
        }
      }),
  };
}

/** A 32-byte word: the slot form every node accepts, and the value form callers compare. */
function slotWord(hex: string): Hex {
  return `0x${hex.slice(2).toLowerCase().padStart(64, '0')}`;
}
