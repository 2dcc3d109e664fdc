/**
 * Where, when and by whom a contract was created, as Etherscan's getcontractcreation tells it.
 * Finding a creation can cost a search over the chain's history (a node without Otterscan's
 * `ots_` methods is probed block by block), so it is found once per chain generation and
 * kept in the deployments table, its init code in the code table.
 */

import type { Kysely } from 'kysely';
import { knownAddress, knownAddressOrNull, knownHex, parseHex } from '../core/hex.js';
import { keccakOfHex } from '../core/keccak.js';
import type { Logger } from '../core/log.js';
import type { Address, Hex } from '../core/types.js';
import type { Database } from '../store/database.js';
import { creationCodeOf, type Deployment, latestDeployment, recordDeployment, saveCreationCode } from '../store/deployments.js';
import { type ContractCreation, deployedCodeFingerprint } from '../verify/index.js';
import type { ChainGeneration } from './chainGeneration.js';
import type { ChainHistory } from './ports.js';

/** One contract's creation. */
export interface CreationFacts {
  address: Address;
  transactionHash: Hex;
  blockNumber: bigint;
  /** The creation block's time, in seconds since the Unix epoch. */
  timestamp: bigint;
  /** The account that sent the creation transaction (for a factory's creation too): Etherscan's contractCreator. */
  sender: Address;
  /** The contract whose code ran CREATE/CREATE2; null for a transaction's own creation. */
  factory: Address | null;
  /** The init code that ran: creation bytecode followed by the constructor arguments. */
  creationCode: Hex;
}

/** What the API asks. */
export interface CreationLookup {
  /**
   * The creation of `address`: from the store when it was found before, else found on the chain
   * and stored. Null when the address holds no contract or its creation cannot be told (a
   * genesis allocation, a node without the history or traces it needs). Chain errors propagate.
   */
  creationOf(address: Address): Promise<CreationFacts | null>;
}

export interface ContractCreationsDeps {
  db: Kysely<Database>;
  chain: ChainHistory;
  generation: ChainGeneration;
  logger: Logger;
}

export class ContractCreations implements CreationLookup {
  /** Lookups under way, so one address asked twice at once is searched once. */
  private readonly pending = new Map<string, Promise<CreationFacts | null>>();

  constructor(private readonly deps: ContractCreationsDeps) {}

  creationOf(address: Address): Promise<CreationFacts | null> {
    const key = knownAddress(address);
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.lookUp(key).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    return lookup;
  }

  private async lookUp(address: Address): Promise<CreationFacts | null> {
    const { db, chain } = this.deps;
    const generation = await this.deps.generation.current();
    const known = await latestDeployment(db, address, generation);
    const stored = known ? await storedFacts(db, known) : null;
    if (stored) return stored;

    // A recorded transaction needs no search; the deployment's other facts are read from it.
    let creation: ContractCreation | null = null;
    let runtimeCodeHash = known?.runtimeCodeHash ?? null;
    let runtimeFingerprint = known?.runtimeFingerprint ?? null;
    if (known?.transactionHash) creation = await chain.creationInTransaction(address, knownHex(known.transactionHash));
    if (!creation) {
      const runtimeCode = await chain.getCode(address);
      if (runtimeCode === '0x') return null;
      runtimeCodeHash = keccakOfHex(runtimeCode);
      creation = await chain.findCreation(address);
      if (!creation) return null;
      runtimeFingerprint = deployedCodeFingerprint(runtimeCode.slice(2), creation.creationCode.slice(2));
    }
    const origin = await chain.transactionOrigin(creation.transactionHash);
    if (!origin) {
      this.deps.logger.warn({ address, transaction: creation.transactionHash }, 'the node does not know the creation transaction it named');
      return null;
    }
    const facts: CreationFacts = {
      address,
      transactionHash: creation.transactionHash,
      blockNumber: origin.blockNumber,
      timestamp: origin.timestamp,
      sender: origin.sender,
      factory: creation.byFactory ? creation.creator : null,
      creationCode: creation.creationCode,
    };
    const creationCodeHash = await saveCreationCode(db, facts.creationCode);
    await recordDeployment(db, {
      address,
      generation,
      transactionHash: facts.transactionHash,
      blockNumber: Number(facts.blockNumber),
      creator: facts.sender,
      factory: facts.factory,
      creationCodeHash,
      runtimeCodeHash: runtimeCodeHash!,
      runtimeFingerprint: runtimeFingerprint!,
      blockTimestamp: Number(facts.timestamp),
    });
    return facts;
  }
}

/** A recorded deployment that holds every fact of its creation, with its init code; null when something is missing. */
async function storedFacts(db: Kysely<Database>, d: Deployment): Promise<CreationFacts | null> {
  if (d.transactionHash === null || d.blockNumber === null || d.creator === null || d.blockTimestamp === null || d.creationCodeHash === null) {
    return null;
  }
  const stored = await creationCodeOf(db, d.creationCodeHash);
  const creationCode = stored === null ? null : parseHex(stored.startsWith('0x') ? stored : `0x${stored}`);
  const transactionHash = parseHex(d.transactionHash);
  if (creationCode === null || transactionHash === null) return null;
  return {
    address: d.address,
    transactionHash,
    blockNumber: BigInt(d.blockNumber),
    timestamp: BigInt(d.blockTimestamp),
    sender: knownAddress(d.creator),
    factory: knownAddressOrNull(d.factory),
    creationCode,
  };
}
