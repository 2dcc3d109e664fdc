import { expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import type { Address } from '../core/types.js';
import { sampleVerifiedContract } from '../../test/helpers/testDatabase.js';
import {
  countVerifiedContracts,
  getVerifiedContract,
  insertVerifiedContract,
  listReplacedVerifications,
  listVerifiedContracts,
  saveVerifiedContract,
} from './verifiedContracts.js';
import { getProxyRecord, saveProxyRecord } from './proxyRecords.js';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;

describeOnDialects('verified contracts', (dialect) => {
    const stores = useTestStores(dialect);

    it('stores a contract and reads it back field for field', async () => {
      const record = sampleVerifiedContract('0x00000000000000000000000000000000000000aA', {
        codeFormat: 'solidity-standard-json-input',
        optimizationUsed: false,
        viaIR: true,
        runs: 0,
        libraries: [{ name: 'contracts/Lib.sol:Lib', address: addr(9) }],
        creationMatch: null,
        runtimeMatch: 'partial',
        matchKind: 'partial',
        constructorArguments: '00000000000000000000000000000000000000000000000000000000000000ff',
        transformations: { runtime: [{ type: 'immutable', offset: 120, id: '3' }] },
        receipt: 'r'.repeat(50),
        verifiedAt: 1_700_000_000_000,
      });
      expect(await insertVerifiedContract(stores.store.db, record)).toBe('inserted');
      expect(await getVerifiedContract(stores.other.db, '0x00000000000000000000000000000000000000AA')).toEqual({
        ...record,
        address: '0x00000000000000000000000000000000000000aa',
      });
      expect(await getVerifiedContract(stores.store.db, addr(0xdead))).toBeNull();
    });

    it('keeps the first of two concurrent inserts for one address and says so', async () => {
      for (let i = 0; i < 10; i++) {
        const address = addr(1000 + i);
        const outcomes = await Promise.all([
          insertVerifiedContract(stores.store.db, sampleVerifiedContract(address, { contractName: 'First' })),
          insertVerifiedContract(stores.other.db, sampleVerifiedContract(address, { contractName: 'Second' })),
        ]);
        expect([...outcomes].sort()).toEqual(['exists', 'inserted']);
        const winner = outcomes[0] === 'inserted' ? 'First' : 'Second';
        expect((await getVerifiedContract(stores.store.db, address))?.contractName).toBe(winner);
      }
      const mixedCase = addr(1000).replace(/[a-f]/g, (c) => c.toUpperCase()) as Address;
      expect(await insertVerifiedContract(stores.store.db, sampleVerifiedContract(mixedCase))).toBe('exists');
    });

    it('replaces a record only with a better one, keeping the old one in the history', async () => {
      const address = addr(5000);
      const partial = sampleVerifiedContract(address, { matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial', receipt: 'a'.repeat(50), verifiedAt: 1 });
      const full = sampleVerifiedContract(address, { contractName: 'Exact', receipt: 'b'.repeat(50), verifiedAt: 2 });
      const better = (candidate: typeof full) => (stored: { matchKind: string }) => candidate.matchKind === 'full' && stored.matchKind !== 'full';
      expect(await saveVerifiedContract(stores.store.db, partial, better(partial))).toBe('inserted');
      expect(await saveVerifiedContract(stores.store.db, partial, better(partial))).toBe('not_better');
      expect(await saveVerifiedContract(stores.other.db, full, better(full))).toBe('replaced');
      expect(await saveVerifiedContract(stores.store.db, full, better(full))).toBe('not_better');
      expect((await getVerifiedContract(stores.store.db, address))?.contractName).toBe('Exact');
      expect(await listReplacedVerifications(stores.other.db, address)).toEqual([
        { replacedAt: expect.any(Number), replacedBy: 'b'.repeat(50), receipt: 'a'.repeat(50), matchKind: 'partial', verifiedAt: 1 },
      ]);
    });

    it('of concurrent better matches for one record, exactly one replaces it', async () => {
      const address = addr(6000);
      await saveVerifiedContract(stores.store.db, sampleVerifiedContract(address, { matchKind: 'partial' }), () => false);
      const full = (name: string) => sampleVerifiedContract(address, { contractName: name });
      const outcomes = await Promise.all([
        saveVerifiedContract(stores.store.db, full('One'), (s) => s.matchKind !== 'full'),
        saveVerifiedContract(stores.other.db, full('Two'), (s) => s.matchKind !== 'full'),
      ]);
      expect([...outcomes].sort()).toEqual(['not_better', 'replaced']);
      expect(await listReplacedVerifications(stores.store.db, address)).toHaveLength(1);
    });

    it('stores unproven constructor arguments as unknown, and whether the creation code was compared', async () => {
      const address = addr(7000);
      await saveVerifiedContract(stores.store.db, sampleVerifiedContract(address, { constructorArguments: null, creationMatch: null, creationCompared: false }), () => false);
      expect(await getVerifiedContract(stores.store.db, address)).toMatchObject({ constructorArguments: null, creationMatch: null, creationCompared: false });
    });

    it('records a proxy link, verified or not, replaces it after an upgrade, and reads it back checked', async () => {
      const proxy = addr(2000);
      const detection = { chain: [{ address: proxy, implementation: addr(2001), pattern: 'eip1967' as const }], conflicts: [] };
      const record = { address: proxy, implementation: addr(2001), finalImplementation: addr(2001), pattern: 'eip1967' as const, detection, blockNumber: 12_345, checkedAt: 1_700_000_000_123, receipt: null };
      await saveProxyRecord(stores.store.db, record);
      expect(await getProxyRecord(stores.other.db, proxy.toUpperCase().replace('0X', '0x'))).toEqual(record);
      await saveProxyRecord(stores.store.db, { ...record, implementation: addr(2002), finalImplementation: addr(2002), blockNumber: 12_400 });
      expect(await getProxyRecord(stores.store.db, proxy)).toMatchObject({ implementation: addr(2002), blockNumber: 12_400 });
      // What does not check out in a stored detection is left out, never shown.
      await stores.store.db.updateTable('proxyRecords').set({ pattern: 'bogus', detection: '{"chain":[{"address":"<b>","implementation":"x"}],"admin":"<script>"}' }).execute();
      expect(await getProxyRecord(stores.store.db, proxy)).toMatchObject({ pattern: 'eip1967', detection: { chain: [], conflicts: [] } });
      expect(await getProxyRecord(stores.store.db, addr(2999))).toBeNull();
    });

    it('lists newest first, a page at a time', async () => {
      await stores.store.db.deleteFrom('verifiedContracts').execute();
      for (let i = 0; i < 5; i++) {
        await insertVerifiedContract(stores.store.db, sampleVerifiedContract(addr(3000 + i), { verifiedAt: 1_000 + i }));
      }
      expect(await countVerifiedContracts(stores.store.db)).toBe(5);
      const page1 = await listVerifiedContracts(stores.store.db, { limit: 2, offset: 0 });
      const page2 = await listVerifiedContracts(stores.store.db, { limit: 2, offset: 2 });
      const page3 = await listVerifiedContracts(stores.store.db, { limit: 2, offset: 4 });
      expect([...page1, ...page2, ...page3].map((c) => c.address)).toEqual(
        [4, 3, 2, 1, 0].map((i) => addr(3000 + i)),
      );
    });
});
