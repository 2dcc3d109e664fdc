import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects } from '../../test/helpers/dialects.js';
import { createTestDatabase, sampleVerifiedContract, saveSampleDocuments, type TestDatabase } from '../../test/helpers/testDatabase.js';
import type { Store } from './openStore.js';
import { SQLITE_FILE_NAME } from './openStore.js';
import { storeStats } from './storeStats.js';
import { insertVerifiedContracts } from './verifiedContracts.js';

describeOnDialects('storeStats', (dialect) => {
  let tdb: TestDatabase | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    await tdb?.dispose();
    store = undefined;
    tdb = undefined;
  });

  it('counts copies once in compilations and sources, and grows in bytes as contracts are stored', async () => {
    tdb = await createTestDatabase(dialect);
    store = await tdb.open();
    const empty = await storeStats(store.db, store.dialect, tdb.dataDir);
    expect(empty).toMatchObject({ dialect, verifiedContracts: 0, compilations: 0, compiledContracts: 0, sources: 0, deployments: 0 });
    expect(empty.bytes).toBeGreaterThan(0);

    await saveSampleDocuments(store.db);
    const copies = Array.from({ length: 300 }, (_, i) => sampleVerifiedContract(`0x${(i + 1).toString(16).padStart(40, '0')}`));
    expect(await insertVerifiedContracts(store.db, copies)).toBe(300);
    const filled = await storeStats(store.db, store.dialect, tdb.dataDir);
    expect(filled).toMatchObject({ verifiedContracts: 300, compilations: 1, compiledContracts: 1, sources: 1, inputDocuments: 1 });
    expect(filled.bytes).toBeGreaterThan(empty.bytes);
    expect(filled.parts.length).toBeGreaterThan(0);
    if (dialect === 'sqlite') {
      const base = path.join(tdb.dataDir, SQLITE_FILE_NAME);
      const onDisk = [base, `${base}-wal`, `${base}-shm`].reduce((sum, f) => sum + (statSync(f, { throwIfNoEntry: false })?.size ?? 0), 0);
      expect(filled.bytes).toBe(onDisk);
    } else {
      const names = filled.parts.map((p) => p.name);
      expect(names).toContain('verified_contracts');
      expect(filled.parts.find((p) => p.name === 'verified_contracts')!.bytes).toBeGreaterThan(0);
    }
  });
});
