/**
 * A store written by the previous release (its rows, captured by
 * scripts/capture-release-fixture.mjs from that release's own service) migrates in place, and
 * the new service serves every record byte for byte as the release did: getabi,
 * getsourcecode, the CSV, and the receipts' verdicts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/chain/devnet.js';
import { migrateToLatest } from '../../src/store/openStore.js';
import { failureWithReceipt } from '../helpers/api.js';
import { describeOnDialects } from '../helpers/dialects.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'previous-release');
const tables = JSON.parse(readFileSync(join(FIXTURE, 'tables.json'), 'utf8')) as {
  migrations: string[];
  tables: Record<string, Record<string, unknown>[]>;
};
const answers = JSON.parse(readFileSync(join(FIXTURE, 'answers.json'), 'utf8')) as {
  csv: string;
  addresses: Record<string, { getabi: string; getsourcecode: string }>;
};
const RELEASE_SCHEMA = '0003_quotas';

describeOnDialects('a store written by the previous release', (dialect) => {
  let tdb: TestDatabase;
  let devnet: Devnet;
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    expect(tables.migrations[tables.migrations.length - 1]).toBe(RELEASE_SCHEMA);
    tdb = await createTestDatabase(dialect);
    const store = await tdb.open({ migrate: false });
    try {
      await migrateToLatest(store, { upTo: RELEASE_SCHEMA });
      const raw = store.db.withoutPlugins() as unknown as Kysely<any>;
      for (const [table, rows] of Object.entries(tables.tables)) {
        for (const row of rows) await raw.insertInto(table).values(row).execute();
      }
    } finally {
      await store.close();
    }
    // The release's answers were read with a key (the fixture keeps only its hash); a new one reads the same.
    key = await createKey(tdb.dataDir, tdb.databaseUrl ? ['--database-url', tdb.databaseUrl] : []);
    // The chain the release served: a record is served only while its address holds code (these
    // records are older than the bytecode database and name none, so any code stands for theirs).
    devnet = await startDevnet({});
    for (const row of tables.tables['verified_contracts']!) {
      const res = await fetch(devnet.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [row['address'], '0x6000'] }),
      });
      expect(((await res.json()) as { error?: unknown }).error).toBeUndefined();
    }
    service = await startService({
      dataDir: tdb.dataDir,
      rpcUrl: devnet.rpcUrl,
      args: ['--rate-free', '10000', ...(tdb.databaseUrl ? ['--database-url', tdb.databaseUrl] : [])],
    });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await devnet?.stop();
    await tdb?.dispose();
  });

  const api = async (query: string): Promise<string> => (await fetch(`${service.apiUrl}?${query}&apikey=${key}`)).text();

  it('serves getabi byte for byte as the release did, and getsourcecode with the proven compilation as its standard JSON', async () => {
    const addresses = Object.keys(answers.addresses);
    expect(addresses.length).toBeGreaterThanOrEqual(7);
    let standardJson = 0;
    for (const address of addresses) {
      const expected = answers.addresses[address]!;
      expect(await api(`module=contract&action=getabi&address=${address}`), `getabi ${address}`).toBe(expected.getabi);
      const served = await api(`module=contract&action=getsourcecode&address=${address}`);
      const release = JSON.parse(expected.getsourcecode) as { result: Record<string, string>[] };
      if (!release.result[0]!.SourceCode!.startsWith('{{')) {
        expect(served, `getsourcecode ${address}`).toBe(expected.getsourcecode);
        continue;
      }
      // The release served the input as submitted. What is published now is the proven compilation: its language, its
      // sources and the settings compiled, without the outputSelection the compile ignores. Every other field is the same.
      standardJson++;
      const submitted = JSON.parse(release.result[0]!.SourceCode!.slice(1, -1)) as {
        language: string;
        sources: Record<string, { content: string }>;
        settings: Record<string, unknown>;
      };
      const { outputSelection: _ignored, ...settings } = submitted.settings;
      const record = (JSON.parse(served) as { result: Record<string, string>[] }).result[0]!;
      const published = JSON.parse(record.SourceCode!.slice(1, -1)) as typeof submitted;
      // The settings compiled: the submitted ones, with the libraries the submission's fields named merged in.
      expect(published, `getsourcecode ${address}`).toEqual({ language: submitted.language, sources: published.sources, settings: published.settings });
      expect(published.settings).toMatchObject(settings);
      expect(published.settings).not.toHaveProperty('outputSelection');
      // The sources its metadata lists (a library's input may carry the contracts that use it), each as submitted.
      expect(Object.keys(published.sources)).toContain(record.ContractFileName);
      for (const [path, source] of Object.entries(published.sources)) expect(source).toEqual({ content: submitted.sources[path]!.content });
      expect({ ...record, SourceCode: '' }).toEqual({ ...release.result[0], SourceCode: '' });
    }
    expect(standardJson).toBeGreaterThan(0);
  });

  it('serves the CSV byte for byte', async () => {
    const res = await fetch(`${service.baseUrl}/verified-contracts.csv`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(answers.csv);
  });

  it('still answers every receipt with its verdict', async () => {
    const jobs = tables.tables['verification_jobs']!.filter((j) => j['kind'] === 'source');
    expect(jobs.map((j) => j['state'])).toEqual(expect.arrayContaining(['pass', 'fail']));
    for (const job of jobs) {
      const body = JSON.parse(await api(`module=contract&action=checkverifystatus&guid=${job['receipt']}&verbose=1`)) as { result: string };
      // A job finished by the older release answers the text it stored, then the way to its receipt page.
      expect(body.result).toEqual(job['state'] === 'pass' ? 'Pass - Verified' : failureWithReceipt(`Fail - Unable to verify. ${String(job['result_text'])}`));
    }
  });

  it('counts the moved records on the start page without counting the table', async () => {
    const page = await (await fetch(`${service.baseUrl}/`)).text();
    const n = tables.tables['verified_contracts']!.length;
    expect(page).toContain(`(${n} in all)`);
  });

  it("answers its records' storage layouts null, saying they were verified before layouts were kept", async () => {
    const address = Object.keys(answers.addresses)[0]!;
    const chainId = (await (
      await fetch(devnet.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
    ).json()) as { result: string };
    const sourcify = await fetch(`${service.baseUrl}/sourcify/v2/contract/${Number(chainId.result)}/${address}?fields=storageLayout,transientStorageLayout`);
    expect(sourcify.status).toBe(200);
    expect(await sourcify.json()).toMatchObject({ storageLayout: null, transientStorageLayout: null });
    const json = await fetch(`${service.baseUrl}/address/${address}/storage-layout.json`);
    expect(json.status).toBe(200);
    const note = 'not kept: verified before storage layouts were kept (an operator can add it with solproof store layouts)';
    expect(await json.json()).toMatchObject({ storageLayout: null, notes: { storageLayout: note, transientStorageLayout: note } });
  });
});
