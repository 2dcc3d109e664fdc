import { isSolproofError } from '../../core/errors.js';
import { parseAddress } from '../../core/hex.js';
import { TEXT } from '../../texts/index.js';
import type { CreationFacts, Services } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

/** Etherscan answers at most this many addresses per request. */
export const MAX_CONTRACT_ADDRESSES = 5;

/** One entry of the result, with Etherscan's names; every value a string. */
export interface ContractCreationEntry {
  contractAddress: string;
  /** The account that sent the creation transaction, also when a factory created the contract. */
  contractCreator: string;
  txHash: string;
  blockNumber: string;
  /** The creation block's time in seconds since the Unix epoch. */
  timestamp: string;
  /** The factory contract that ran CREATE/CREATE2; "" for a transaction's own creation. */
  contractFactory: string;
  /** The init code that ran: creation bytecode followed by the constructor arguments. */
  creationBytecode: string;
}

function entry(facts: CreationFacts): ContractCreationEntry {
  return {
    contractAddress: facts.address,
    contractCreator: facts.sender,
    txHash: facts.transactionHash,
    blockNumber: facts.blockNumber.toString(),
    timestamp: facts.timestamp.toString(),
    contractFactory: facts.factory ?? '',
    creationBytecode: facts.creationCode,
  };
}

/**
 * `getcontractcreation`: the creation of up to 5 contracts (`contractaddresses`, comma-separated),
 * in the order asked; addresses without a contract are left out, and when none has one the
 * answer is Etherscan's `No data found` (status "0", result null).
 */
export async function getContractCreation(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  const text = params.text('contractaddresses');
  if (!text) return fail(TEXT.missingParameter('contractaddresses'));
  const given = text.split(',').map((a) => a.trim());
  if (given.length > MAX_CONTRACT_ADDRESSES) return fail(TEXT.tooManyContractAddresses(MAX_CONTRACT_ADDRESSES, given.length));
  const bad = given.find((a) => parseAddress(a) === null);
  if (bad !== undefined) return fail(TEXT.invalidAddressIn('contractaddresses', bad));
  const addresses = [...new Set(given.map((a) => parseAddress(a)!))];
  try {
    const found = await Promise.all(addresses.map((a) => s.creations.creationOf(a)));
    const result = found.filter((f): f is CreationFacts => f !== null).map(entry);
    if (result.length === 0) return { status: '0', message: TEXT.noDataFound, result: null };
    return ok(result, caller.okMessage);
  } catch (e) {
    if (isSolproofError(e, 'chain_unavailable')) return fail(TEXT.nodeUnavailable);
    throw e;
  }
}
