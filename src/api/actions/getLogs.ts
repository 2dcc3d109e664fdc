import { isSolproofError } from '../../core/errors.js';
import { knownHex, parseAddress } from '../../core/hex.js';
import { TEXT } from '../../texts/index.js';
import type { Services } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

const MAX_LOGS = 1000;

function parseBlock(text: string, fallback: bigint | 'latest'): bigint | 'latest' | null {
  if (text === '') return fallback;
  if (text.toLowerCase() === 'latest') return 'latest';
  if (/^\d{1,18}$/.test(text)) return BigInt(text);
  if (/^0x[0-9a-fA-F]{1,15}$/.test(text)) return BigInt(text);
  return null;
}

const hex = (n: bigint): string => `0x${n.toString(16)}`;

/**
 * `module=logs&action=getLogs` for one address (OpenZeppelin's upgrades plugin finds a proxy's
 * creation transaction with it). No match: status "0", message `No records found`, as Etherscan.
 */
export async function getLogs(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  const given = params.text('address');
  if (!given) return fail(TEXT.missingParameter('address'));
  const address = parseAddress(given);
  if (!address) return fail(TEXT.invalidAddress);
  const fromBlock = parseBlock(params.text('fromblock'), 0n);
  const toBlock = parseBlock(params.text('toblock'), 'latest');
  if (fromBlock === null || fromBlock === 'latest') return fail(TEXT.invalidParameter('fromBlock', 'expected a block number'));
  if (toBlock === null) return fail(TEXT.invalidParameter('toBlock', "expected a block number or 'latest'"));
  const topic0 = params.text('topic0');
  if (topic0 && !/^0x[0-9a-fA-F]{64}$/.test(topic0)) return fail(TEXT.invalidParameter('topic0', 'expected a 32-byte hex topic'));
  try {
    const logs = await s.chain.getLogs({ address, fromBlock, toBlock, ...(topic0 ? { topic0: knownHex(topic0) } : {}) }, MAX_LOGS);
    if (logs.length === 0) return { status: '0', message: 'No records found', result: [] };
    return ok(
      logs.map((log) => ({
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockNumber: hex(log.blockNumber),
        logIndex: hex(log.logIndex),
        transactionHash: log.transactionHash,
        transactionIndex: hex(log.transactionIndex),
      })),
      caller.okMessage,
    );
  } catch (e) {
    if (isSolproofError(e, 'chain_unavailable')) return fail(TEXT.nodeUnavailable);
    throw e;
  }
}
