import type { Kysely } from 'kysely';
import { keccak256 } from 'viem';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects } from '../../test/helpers/dialects.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/testDatabase.js';
import type { Address } from '../core/types.js';
import { creationCodeOf, latestDeployment, type NewDeployment, recordDeployment, saveCreationCode } from './deployments.js';
import { migrateToLatest, type Store } from './openStore.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const FACTORY = '0x00000000000000000000000000000000000000f1';

const deployment = (address: string, extra: Partial<NewDeployment> = {}): NewDeployment => ({
  address: address as Address,
  generation: 'g1',
  transactionHash: `0x${'ab'.repeat(32)}`,
  blockNumber: 7,
  creator: null,
  factory: null,
  creationCodeHash: null,
  runtimeCodeHash: `0x${'cd'.repeat(32)}`,
  runtimeFingerprint: 'fp',
  ...extra,
});

describeOnDialects('deployments', (dialect) => {
  const opened: Store[] = [];
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    for (const d of databases.splice(0)) await d.dispose();
  });
  async function store(options: { migrate?: boolean } = {}): Promise<Store> {
    const tdb = await createTestDatabase(dialect);
    databases.push(tdb);
    const s = await tdb.open(options);
    opened.push(s);
    return s;
  }

  it('migration 0007 adds the block time and clears creators that named the factory', async () => {
    const s = await store({ migrate: false });
    await migrateToLatest(s, { upTo: '0006_bytecode_database' });
    const raw = s.db.withoutPlugins() as unknown as Kysely<any>;
    const row = (id: string, address: string, creator: string | null, factory: string | null) => ({
      id,
      address,
      generation: 'g1',
      transaction_hash: null,
      block_number: 3,
      creator,
      factory,
      creation_code_hash: null,
      runtime_code_hash: '0x01',
      runtime_fingerprint: 'fp',
      found_at: 1,
    });
    await raw
      .insertInto('deployments')
      .values([
        row('a', '0x00000000000000000000000000000000000000b1', FACTORY, FACTORY),
        row('b', '0x00000000000000000000000000000000000000b2', ACCOUNT, FACTORY),
        row('c', '0x00000000000000000000000000000000000000b3', ACCOUNT, null),
      ])
      .execute();

    await migrateToLatest(s);
    const rows = await s.db.selectFrom('deployments').select(['id', 'creator', 'factory', 'blockTimestamp']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'a', creator: null, factory: FACTORY, blockTimestamp: null },
      { id: 'b', creator: ACCOUNT, factory: FACTORY, blockTimestamp: null },
      { id: 'c', creator: ACCOUNT, factory: null, blockTimestamp: null },
    ]);
  });

  it('recording a deployment again adds the facts it lacked and keeps those it had', async () => {
    const s = await store();
    const address = '0x00000000000000000000000000000000000000c1';
    const id = await recordDeployment(s.db, deployment(address, { factory: FACTORY }));
    const initCode = '0x6080604052deadbeef';
    const hash = await saveCreationCode(s.db, initCode);
    expect(hash).toBe(keccak256(initCode));
    expect(
      await recordDeployment(
        s.db,
        deployment(address, { creator: ACCOUNT, factory: null, creationCodeHash: hash, blockTimestamp: 1_700_000_000, blockNumber: 9 }),
      ),
    ).toBe(id);

    const found = await latestDeployment(s.db, address, 'g1');
    expect(found).toMatchObject({ id, creator: ACCOUNT, factory: FACTORY, blockNumber: 7, creationCodeHash: hash, blockTimestamp: 1_700_000_000 });
    expect(await creationCodeOf(s.db, hash)).toBe(initCode);
    expect(await creationCodeOf(s.db, keccak256('0x00'))).toBeNull();
  });
});
