import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { SAMPLE_DOCUMENTS, sampleVerifiedContract, saveSampleDocuments } from '../../test/helpers/testDatabase.js';
import type { Address } from '../core/types.js';
import { forgetDeploymentsAfter, latestDeployment, recordDeployment } from './deployments.js';
import { readInputDocument, saveInputDocument } from './inputDocuments.js';
import { getProxyRecord, saveProxyRecord } from './proxyRecords.js';
import {
  allVerifiedContracts,
  countVerifiedContracts,
  getRecordedCode,
  getVerifiedAbi,
  getVerifiedContract,
  insertVerifiedContract,
  listReplacedVerifications,
  listVerifiedContracts,
  removeVerifiedContracts,
  saveVerifiedContract,
  takeOffRecord,
  verifiedDeployedAfter,
} from './verifiedContracts.js';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;

describeOnDialects('verified contracts', (dialect) => {
  const stores = useTestStores(dialect);
  beforeAll(async () => {
    await saveSampleDocuments(stores.store.db);
  });

  it('stores a contract and reads it back field for field, its documents from the bytecode database', async () => {
    const record = sampleVerifiedContract('0x00000000000000000000000000000000000000aA', {
      libraries: [{ name: 'contracts/Lib.sol:Lib', address: addr(9) }],
      creationMatch: null,
      runtimeMatch: 'partial',
      matchKind: 'partial',
      constructorArguments: '00000000000000000000000000000000000000000000000000000000000000ff',
      transformations: {
        applied: {
          runtime: [{ type: 'replace', reason: 'immutable', offset: 120, id: '3' }],
          creation: [{ type: 'insert', reason: 'constructorArguments', offset: 16 }],
        },
        values: { runtime: { immutables: { '3': `0x${'00'.repeat(31)}2a` } }, creation: { constructorArguments: `0x${'00'.repeat(31)}ff` } },
      },
      receipt: 'r'.repeat(50),
      verifiedAt: 1_700_000_000_000,
    });
    expect(await insertVerifiedContract(stores.store.db, record)).toBe('inserted');
    const { inputDocumentId: _doc, deploymentId: _deployment, ...fields } = record;
    expect(await getVerifiedContract(stores.other.db, '0x00000000000000000000000000000000000000AA')).toEqual({
      ...fields,
      ...SAMPLE_DOCUMENTS,
      metadata: '{"compiler":{"version":"0.8.26+commit.8a97fa7a"}}',
      settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' },
      language: 'Solidity',
      address: '0x00000000000000000000000000000000000000aa',
      deployment: null,
      // The sample's metadata lists no sources: nothing tells its files apart, all are published.
      unpublishedSources: 0,
    });
    expect(await getVerifiedAbi(stores.other.db, '0x00000000000000000000000000000000000000aa')).toBe(SAMPLE_DOCUMENTS.abi);
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
    const partial = sampleVerifiedContract(address, {
      matchKind: 'partial',
      runtimeMatch: 'partial',
      creationMatch: 'partial',
      receipt: 'a'.repeat(50),
      verifiedAt: 1,
    });
    const full = sampleVerifiedContract(address, { contractName: 'Exact', receipt: 'b'.repeat(50), verifiedAt: 2 });
    const better = (candidate: typeof full) => (stored: { matchKind: string }) => candidate.matchKind === 'full' && stored.matchKind !== 'full';
    expect(await saveVerifiedContract(stores.store.db, partial, better(partial))).toBe('inserted');
    expect(await saveVerifiedContract(stores.store.db, partial, better(partial))).toBe('not_better');
    expect(await saveVerifiedContract(stores.other.db, full, better(full))).toBe('replaced');
    expect(await saveVerifiedContract(stores.store.db, full, better(full))).toBe('not_better');
    expect((await getVerifiedContract(stores.store.db, address))?.contractName).toBe('Exact');
    expect(await listReplacedVerifications(stores.other.db, address)).toEqual([
      {
        replacedAt: expect.any(Number),
        replacedBy: 'b'.repeat(50),
        reason: 'replaced',
        receipt: 'a'.repeat(50),
        matchKind: 'partial',
        method: 'submitted',
        verifiedAt: 1,
      },
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
    await saveVerifiedContract(
      stores.store.db,
      sampleVerifiedContract(address, { constructorArguments: null, creationMatch: null, creationCompared: false }),
      () => false,
    );
    expect(await getVerifiedContract(stores.store.db, address)).toMatchObject({ constructorArguments: null, creationMatch: null, creationCompared: false });
  });

  it('records a proxy link, verified or not, replaces it after an upgrade, and reads it back checked', async () => {
    const proxy = addr(2000);
    const detection = { chain: [{ address: proxy, implementation: addr(2001), pattern: 'eip1967' as const }], conflicts: [] };
    const record = {
      address: proxy,
      implementation: addr(2001),
      finalImplementation: addr(2001),
      pattern: 'eip1967' as const,
      detection,
      blockNumber: 12_345,
      checkedAt: 1_700_000_000_123,
      receipt: null,
    };
    await saveProxyRecord(stores.store.db, record);
    expect(await getProxyRecord(stores.other.db, proxy.toUpperCase().replace('0X', '0x'))).toEqual(record);
    await saveProxyRecord(stores.store.db, { ...record, implementation: addr(2002), finalImplementation: addr(2002), blockNumber: 12_400 });
    expect(await getProxyRecord(stores.store.db, proxy)).toMatchObject({ implementation: addr(2002), blockNumber: 12_400 });
    // What does not check out in a stored detection is left out, never shown.
    await stores.store.db
      .updateTable('proxyRecords')
      .set({ pattern: 'bogus', detection: '{"chain":[{"address":"<b>","implementation":"x"}],"admin":"<script>"}' })
      .execute();
    expect(await getProxyRecord(stores.store.db, proxy)).toMatchObject({ pattern: 'eip1967', detection: { chain: [], conflicts: [] } });
    expect(await getProxyRecord(stores.store.db, addr(2999))).toBeNull();
  });

  it('lists newest first a page at a time by keyset, counts without scanning, and streams the whole list', async () => {
    await removeVerifiedContracts(
      stores.store.db,
      (await listVerifiedContracts(stores.store.db, { limit: 1000 })).map((c) => c.address),
      'replaced',
    );
    expect(await countVerifiedContracts(stores.store.db)).toBe(0);
    for (let i = 0; i < 5; i++) {
      await insertVerifiedContract(stores.store.db, sampleVerifiedContract(addr(3000 + i), { verifiedAt: 1_000 + (i >> 1) }));
    }
    expect(await countVerifiedContracts(stores.other.db)).toBe(5);
    const page1 = await listVerifiedContracts(stores.store.db, { limit: 2 });
    const page2 = await listVerifiedContracts(stores.store.db, { limit: 2, after: page1[1]! });
    // A contract verified meanwhile does not shift the pages after it.
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(addr(3999), { verifiedAt: 5_000 }));
    const page3 = await listVerifiedContracts(stores.store.db, { limit: 2, after: page2[1]! });
    const newestFirst = [4, 3, 2, 1, 0].map((i) => addr(3000 + i));
    expect([...page1, ...page2, ...page3].map((c) => c.address)).toEqual(newestFirst);
    const all: string[] = [];
    for await (const c of allVerifiedContracts(stores.store.db, 2)) all.push(c.address);
    expect(all).toEqual([addr(3999), ...newestFirst]);
    expect(await removeVerifiedContracts(stores.store.db, [addr(3999), addr(3000)], 'chain_reset')).toBe(2);
    expect(await countVerifiedContracts(stores.store.db)).toBe(4);
    expect(await getVerifiedContract(stores.store.db, addr(3000))).toBeNull();
    expect(await listReplacedVerifications(stores.store.db, addr(3000))).toMatchObject([{ reason: 'chain_reset' }]);
  });

  const deployed = (address: Address, codeByte: string, blockNumber: number | null = 10) =>
    recordDeployment(stores.store.db, {
      address,
      generation: 'g-records',
      transactionHash: `0x${codeByte.repeat(32)}`,
      blockNumber,
      creator: null,
      factory: null,
      creationCodeHash: null,
      runtimeCodeHash: `0x${codeByte.repeat(32)}`,
      runtimeFingerprint: 'fp',
    });

  it('takes a record off only while it still links the deployment found gone, once however many ask', async () => {
    const address = addr(8000);
    const first = await deployed(address, '01');
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(address, { deploymentId: first }));
    expect(await getRecordedCode(stores.other.db, address)).toEqual({ deploymentId: first, runtimeCodeHash: `0x${'01'.repeat(32)}` });
    expect(await takeOffRecord(stores.store.db, address, 'another-deployment', 'code_changed')).toBe(false);
    const before = await countVerifiedContracts(stores.store.db);
    const outcomes = await Promise.all([
      takeOffRecord(stores.store.db, address, first, 'code_changed'),
      takeOffRecord(stores.other.db, address, first, 'code_changed'),
    ]);
    expect([...outcomes].sort()).toEqual([false, true]);
    expect(await countVerifiedContracts(stores.store.db)).toBe(before - 1);
    expect(await getRecordedCode(stores.store.db, address)).toBeNull();
    expect(await listReplacedVerifications(stores.store.db, address)).toMatchObject([{ reason: 'code_changed' }]);
  });

  it('a verdict on the code the address holds now replaces a record of other code, however strong', async () => {
    const address = addr(8100);
    const before = await deployed(address, '02');
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(address, { deploymentId: before, contractName: 'Gone' }));
    const sameCode = await recordDeployment(stores.store.db, {
      address,
      generation: 'g-records',
      transactionHash: null,
      blockNumber: null,
      creator: null,
      factory: null,
      creationCodeHash: null,
      runtimeCodeHash: `0x${'02'.repeat(32)}`,
      runtimeFingerprint: 'fp',
    });
    const partial = { matchKind: 'partial' as const, runtimeMatch: 'partial' as const, creationMatch: null };
    expect(await saveVerifiedContract(stores.store.db, sampleVerifiedContract(address, { deploymentId: sameCode, ...partial }), () => false)).toBe(
      'not_better',
    );
    const after = await deployed(address, '03');
    expect(
      await saveVerifiedContract(stores.store.db, sampleVerifiedContract(address, { deploymentId: after, contractName: 'Now', ...partial }), () => false),
    ).toBe('replaced');
    expect((await getVerifiedContract(stores.store.db, address))?.contractName).toBe('Now');
    expect(await listReplacedVerifications(stores.store.db, address)).toMatchObject([{ reason: 'code_changed' }]);
  });

  it('copies matched through a removed address name the oldest remaining submitted record of their code, or none', async () => {
    const compiledContractId = 'compiled-of-the-repoint-test';
    const [original, later, copyA, copyB] = [addr(8200), addr(8201), addr(8202), addr(8203)];
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(original, { compiledContractId, verifiedAt: 1 }));
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(later, { compiledContractId, verifiedAt: 2 }));
    for (const copy of [copyA, copyB]) {
      await insertVerifiedContract(
        stores.store.db,
        sampleVerifiedContract(copy, { compiledContractId, method: 'similar', similarTo: original, verifiedAt: 3 }),
      );
    }
    const through = async () =>
      (
        await stores.store.db
          .selectFrom('verifiedContracts')
          .select(['address', 'similarTo'])
          .where('address', 'in', [copyA, copyB])
          .orderBy('address')
          .execute()
      ).map((r) => r.similarTo);
    expect(await removeVerifiedContracts(stores.store.db, [original], 'rolled_back')).toBe(1);
    expect(await through()).toEqual([later, later]);
    expect(await removeVerifiedContracts(stores.other.db, [later], 'code_changed')).toBe(1);
    expect(await through()).toEqual([null, null]);
    expect(await listReplacedVerifications(stores.store.db, original)).toMatchObject([{ reason: 'rolled_back' }]);
  });

  it('finds the records and forgets the deployments of the blocks a rollback removed, in their generation only', async () => {
    const kept = addr(8300);
    const rolled = addr(8301);
    const keptDeployment = await deployed(kept, '04', 10);
    const rolledDeployment = await deployed(rolled, '05', 12);
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(kept, { deploymentId: keptDeployment }));
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(rolled, { deploymentId: rolledDeployment }));
    expect(await verifiedDeployedAfter(stores.store.db, 'g-records', 10, 100)).toEqual([rolled]);
    expect(await verifiedDeployedAfter(stores.store.db, 'another-generation', 0, 100)).toEqual([]);
    expect(await forgetDeploymentsAfter(stores.store.db, 'another-generation', 10)).toBe(0);
    expect(await forgetDeploymentsAfter(stores.store.db, 'g-records', 11)).toBe(1);
    expect(await latestDeployment(stores.store.db, rolled, 'g-records')).toBeNull();
    expect(await latestDeployment(stores.store.db, kept, 'g-records')).not.toBeNull();
  });

  it('gives back a submitted standard JSON input byte for byte, its sources stored once', async () => {
    const text =
      '{"language":"Solidity","sources":{"b.sol":{"content":"contract B {}"},"a.sol":{"keccak256":"0x12","content":"contract A {}\\n"}},"settings":{"optimizer":{"enabled":true,"runs":1e3},"outputSelection":{"*":{"*":["abi"]}}}}';
    const input = JSON.parse(text) as Record<string, unknown>;
    const id = await saveInputDocument(stores.store.db, { kind: 'standard-json', input });
    expect(await saveInputDocument(stores.other.db, { kind: 'standard-json', input: JSON.parse(text) })).toBe(id);
    expect(await readInputDocument(stores.other.db, id)).toBe(JSON.stringify(JSON.parse(text)));
    const stored = await stores.store.db.selectFrom('inputDocuments').select('document').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.document).not.toContain('contract A');
  });
});
