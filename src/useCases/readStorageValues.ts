/**
 * What a verified contract's storage holds now, for its page's Storage tab: every variable of
 * solc's layout and of the ERC-7201 namespaces its sources mark, read at one block and decoded
 * by type (verify/'s decoder); for a proxy, also its own storage read with its implementation's
 * layout. The reads are bounded (at most MAX_SLOTS slots a page, in JSON-RPC batches) and so
 * is their time: a node that does not answer within the limit leaves the layout shown without
 * values, with a note, and never holds the page back longer.
 */
import type { StorageLayout } from '../core/storageLayout.js';
import type { Address, Hex } from '../core/types.js';
import type { ProxyRecord } from '../store/proxyRecords.js';
import type { VerifiedContract } from '../store/verifiedContracts.js';
import { decodeStorage, type NamespacedLayout, namespacedLayouts, type StorageRow, slotHex, sourceTypes } from '../verify/index.js';
import { publishedFiles } from './published.js';
import { type ContractLayouts, readStorageLayouts } from './readContract.js';
import type { Services } from './services.js';

/** Slots read for one page at most (its variables, namespaces and proxy view together). */
export const MAX_SLOTS = 512;
/** How long the page waits for the node. */
export const STORAGE_READ_MS = 2_000;
/** Rounds of reads: a long string's data is known only once its length is. */
const MAX_ROUNDS = 4;

/** A key (or a path of keys, for a mapping of mappings) to look up in the mapping of that name, wherever the page shows it. */
export interface MappingLookup {
  name: string;
  keys: readonly string[];
}

/** One ERC-7201 namespace's rows, or the member type that kept it from being laid out. */
export interface NamespaceValues {
  id: string;
  struct: string;
  slot: bigint;
  rows: StorageRow[] | null;
  unknownType: string | null;
}

/** One layout's variables with their values, and the namespaces its sources mark. */
export interface StorageSection {
  /** Null when the contract has no storage layout (the page says why). */
  rows: StorageRow[] | null;
  namespaces: NamespaceValues[];
}

export interface StorageValues {
  /** The block the values were read at; null when none were read. */
  blockNumber: bigint | null;
  /** Why no value is shown: the node took longer than the limit, or could not be asked. */
  problem: 'timed_out' | 'chain_unavailable' | null;
  /** How long the page waited, for the note. */
  timeoutMs: number;
  /** Slots left unread by the bound (their values are shown as not read). */
  unreadSlots: number;
  own: StorageSection;
  /** The proxy's storage read with its implementation's layout, for a proxy whose implementation is verified. */
  asProxy: { implementation: Address; contractName: string; section: StorageSection } | null;
}

interface Plan {
  layout: StorageLayout | null;
  namespaces: NamespacedLayout[];
  enums: ReadonlyMap<string, readonly string[]>;
  valueTypes: ReadonlyMap<string, string>;
}

const NO_PLAN: Plan = { layout: null, namespaces: [], enums: new Map(), valueTypes: new Map() };

/**
 * What the sources of a compilation tell for one of its contracts, kept per compilation and
 * contract: the sources never change, and scanning megabytes of them on every page view would
 * hold the event loop each time.
 */
const fromSources = new Map<string, Omit<Plan, 'layout'>>();
const KEPT_SOURCE_SCANS = 128;

function planOf(contract: VerifiedContract, layouts: ContractLayouts): Plan {
  if (contract.language !== 'Solidity') return { ...NO_PLAN, layout: layouts.storageLayout.layout };
  const key = `${contract.compiledContractId}:${contract.sourcePath}:${contract.contractName}`;
  let found = fromSources.get(key);
  if (found) {
    // Most recently used last: the oldest is the first dropped.
    fromSources.delete(key);
  } else {
    const types = sourceTypes(publishedFiles(contract));
    found = { namespaces: namespacedLayouts(types, contract.contractName), enums: types.enums, valueTypes: types.valueTypes };
    if (fromSources.size >= KEPT_SOURCE_SCANS) fromSources.delete(fromSources.keys().next().value!);
  }
  fromSources.set(key, found);
  return { layout: layouts.storageLayout.layout, ...found };
}

function decodePlan(plan: Plan, read: (slot: bigint) => Hex | undefined, wanted: bigint[], lookups: ReadonlyMap<string, readonly string[]>): StorageSection {
  const take = (decoded: { rows: StorageRow[]; wanted: bigint[] }): StorageRow[] => {
    wanted.push(...decoded.wanted);
    return decoded.rows;
  };
  return {
    rows: plan.layout ? take(decodeStorage(plan.layout, read, { enums: plan.enums, valueTypes: plan.valueTypes, lookups })) : null,
    namespaces: plan.namespaces.map((n) => ({
      id: n.id,
      struct: n.struct,
      slot: n.slot,
      rows: n.layout ? take(decodeStorage(n.layout, read, { enums: plan.enums, valueTypes: plan.valueTypes, base: n.slot, lookups })) : null,
      unknownType: n.unknownType,
    })),
  };
}

/**
 * The Storage tab's values at `address`: of its verified contract (`verified`, with its layouts as
 * the page read them; null for an address whose own code is not verified), and for a proxy whose
 * implementation is verified its storage as the implementation lays it out.
 */
export async function readStorageValues(
  s: Pick<Services, 'chain' | 'store'>,
  address: Address,
  verified: { contract: VerifiedContract; layouts: ContractLayouts } | null,
  proxy: { record: ProxyRecord | null; implementation: VerifiedContract | null },
  options: { timeoutMs?: number; maxSlots?: number; lookup?: MappingLookup | null } = {},
): Promise<StorageValues> {
  const lookups = new Map<string, readonly string[]>(options.lookup ? [[options.lookup.name, options.lookup.keys]] : []);
  const timeoutMs = options.timeoutMs ?? STORAGE_READ_MS;
  const maxSlots = options.maxSlots ?? MAX_SLOTS;
  const own: Plan = verified ? planOf(verified.contract, verified.layouts) : NO_PLAN;
  const implementation = proxy.record ? proxy.implementation : null;
  const asProxy = implementation ? planOf(implementation, await readStorageLayouts(s, implementation)) : null;

  const values = new Map<bigint, Hex>();
  const decode = () => {
    const wanted: bigint[] = [];
    const read = (slot: bigint) => values.get(slot);
    const ownSection = decodePlan(own, read, wanted, lookups);
    const proxySection = asProxy ? decodePlan(asProxy, read, wanted, lookups) : null;
    return { ownSection, proxySection, wanted: [...new Set(wanted)].filter((slot) => !values.has(slot)) };
  };
  const answer = (blockNumber: bigint | null, problem: StorageValues['problem']): StorageValues => {
    const { ownSection, proxySection, wanted } = decode();
    return {
      blockNumber,
      problem,
      timeoutMs,
      unreadSlots: problem ? 0 : wanted.length,
      own: ownSection,
      asProxy:
        implementation && proxySection ? { implementation: implementation.address, contractName: implementation.contractName, section: proxySection } : null,
    };
  };

  if (decode().wanted.length === 0) return answer(null, null);
  let stopped = false;
  const work = async (): Promise<bigint> => {
    const blockNumber = await s.chain.getBlockNumber();
    for (let round = 0; round < MAX_ROUNDS && !stopped; round++) {
      const toRead = decode().wanted.slice(0, maxSlots - values.size);
      if (toRead.length === 0) break;
      const words = await s.chain.getStorageSlots(address, toRead.map(slotHex), blockNumber);
      if (stopped) break;
      for (const [i, slot] of toRead.entries()) values.set(slot, words[i]!);
    }
    return blockNumber;
  };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed_out'>((resolve) => {
    timer = setTimeout(() => resolve('timed_out'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([work(), timedOut]);
    if (outcome === 'timed_out') {
      stopped = true;
      values.clear();
      return answer(null, 'timed_out');
    }
    return answer(outcome, null);
  } catch {
    stopped = true;
    values.clear();
    return answer(null, 'chain_unavailable');
  } finally {
    clearTimeout(timer);
  }
}
