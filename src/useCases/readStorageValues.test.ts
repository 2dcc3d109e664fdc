import { describe, expect, it } from 'vitest';
import { compileForTest } from '../../test/helpers/solc.js';
import { STORAGE_KINDS_PATH, storageKindsSource } from '../../test/helpers/storageKinds.js';
import type { StorageLayout } from '../core/storageLayout.js';
import type { Address, Hex } from '../core/types.js';
import type { VerifiedContract } from '../store/verifiedContracts.js';
import type { ContractLayouts } from './readContract.js';
import { readStorageValues } from './readStorageValues.js';
import type { Services } from './services.js';

/*
 * The use case's bounds with a node that answers, one that never does and one that fails:
 * reads go in rounds at one block and stop at the slot bound; a slow node leaves the layout
 * without values once the time limit passes, never later.
 */

const ADDRESS = '0x00000000000000000000000000000000000000c0' as Address;
const source = storageKindsSource(1);
const output = compileForTest('solc', {
  language: 'Solidity',
  sources: { [STORAGE_KINDS_PATH]: { content: source } },
  settings: { outputSelection: { '*': { '*': ['storageLayout'] } } },
});
const layout = (output.contracts![STORAGE_KINDS_PATH]!['StorageKinds'] as { storageLayout: StorageLayout }).storageLayout;
const layouts: ContractLayouts = {
  storageLayout: { layout, missing: null },
  transientStorageLayout: { layout: null, missing: { reason: 'compiler_too_old', since: '0.8.27' } },
};
const contract = {
  address: ADDRESS,
  contractName: 'StorageKinds',
  language: 'Solidity',
  sourcePath: STORAGE_KINDS_PATH,
  compiledContractId: 'k'.repeat(64),
  sources: [{ path: STORAGE_KINDS_PATH, content: source }],
} as VerifiedContract;

/** A node whose every slot holds 81 (as a string's length word: 40 bytes, long, so its data is then asked for). */
function chain(behaviour: 'answer' | 'hang' | 'fail') {
  const calls: { slots: readonly Hex[]; block: bigint }[] = [];
  const chainPart = {
    getBlockNumber: async () => 99n,
    getStorageSlots: (_address: Address, slots: readonly Hex[], block: bigint): Promise<Hex[]> => {
      calls.push({ slots, block });
      if (behaviour === 'hang') return new Promise(() => {});
      if (behaviour === 'fail') return Promise.reject(new Error('node down'));
      return Promise.resolve(slots.map(() => `0x${'0'.repeat(62)}51` as Hex));
    },
  };
  return { s: { chain: chainPart, store: {} } as unknown as Pick<Services, 'chain' | 'store'>, calls };
}

const none = { record: null, implementation: null };

describe('readStorageValues', () => {
  it('reads at one block in rounds, and names the namespaces of the sources', async () => {
    const { s, calls } = chain('answer');
    const values = await readStorageValues(s, ADDRESS, { contract, layouts }, none);
    expect(values.problem).toBeNull();
    expect(values.blockNumber).toBe(99n);
    expect(calls.every((c) => c.block === 99n)).toBe(true);
    // The variables first, then the data of the strings whose length words say they are long.
    expect(calls.length).toBe(2);
    expect(values.own.rows?.find((r) => r.name === 'big')?.value).toBe('81');
    expect(values.own.rows?.find((r) => r.name === 'longName')?.value).toMatch(/^"/);
    expect(values.own.namespaces.map((n) => n.id)).toEqual(['solproof.storage.Kinds']);
    expect(values.own.namespaces[0]!.rows?.find((r) => r.name === 'counter')?.value).toBe('81');
    expect(values.unreadSlots).toBe(0);
  });

  it('reads no more slots than its bound, and counts those it left', async () => {
    const { s, calls } = chain('answer');
    const values = await readStorageValues(s, ADDRESS, { contract, layouts }, none, { maxSlots: 5 });
    expect(calls.flatMap((c) => c.slots).length).toBe(5);
    expect(values.unreadSlots).toBeGreaterThan(0);
    expect(values.own.rows?.filter((r) => r.value === null).length).toBeGreaterThan(0);
  });

  it('gives up on a node that does not answer within the limit: the layout without values', async () => {
    const { s } = chain('hang');
    const started = Date.now();
    const values = await readStorageValues(s, ADDRESS, { contract, layouts }, none, { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(values.problem).toBe('timed_out');
    expect(values.blockNumber).toBeNull();
    expect(values.own.rows?.length).toBeGreaterThan(10);
    expect(values.own.rows?.every((r) => r.value === null || r.value === 'mapping' || /element|member/.test(r.value))).toBe(true);
  });

  it('says when the node could not be asked', async () => {
    const { s } = chain('fail');
    const values = await readStorageValues(s, ADDRESS, { contract, layouts }, none);
    expect(values.problem).toBe('chain_unavailable');
    expect(values.own.rows?.find((r) => r.name === 'big')?.value).toBeNull();
  });
});
