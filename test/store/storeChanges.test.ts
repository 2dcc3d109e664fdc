/**
 * The versions that answers kept in memory are checked against: they move when a record or a
 * key's standing changes, in this process at once and from another process's connection (on
 * PostgreSQL through the triggers' notifications), never for a key's last use, and they say
 * "keep nothing" while notifications cannot be heard.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { createApiKey, revokeApiKey, touchApiKey } from '../../src/store/apiKeys.js';
import type { Store } from '../../src/store/openStore.js';
import type { ChangeGroup } from '../../src/store/storeChanges.js';
import { insertVerifiedContract, removeVerifiedContracts } from '../../src/store/verifiedContracts.js';
import { describeOnDialects, useTestStores } from '../helpers/dialects.js';
import { PG_TEST_URL, sampleVerifiedContract, saveSampleDocuments } from '../helpers/testDatabase.js';

/** The group's version once the store hears changes (PostgreSQL opens its listener on the first ask). */
async function heard(store: Store, group: ChangeGroup): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = store.changes.version(group);
    if (v >= 0) return v;
    if (Date.now() > deadline) throw new Error('the store never started hearing changes');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once the group's version differs from `from` (another process's commit arrives by notification). */
async function movedFrom(store: Store, group: ChangeGroup, from: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = store.changes.version(group);
    if (v >= 0 && v !== from) return v;
    if (Date.now() > deadline) throw new Error(`${group} never moved from ${from}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const;

describeOnDialects('store changes', (dialect) => {
  const stores = useTestStores(dialect);
  // What only PostgreSQL has (notifications, a listening connection): defined for it alone, not skipped on SQLite.
  const postgresOnly = (title: string, fn: () => Promise<void>): void => {
    if (dialect === 'postgres') it(title, fn);
  };

  it("this process's writes move their group at once; a key's last use moves nothing", async () => {
    const { store } = stores;
    const keys = await heard(store, 'keys');
    const created = await createApiKey(store.db);
    const afterCreate = store.changes.version('keys');
    expect(afterCreate).toBeGreaterThan(keys);
    await saveSampleDocuments(store.db);
    const records = await heard(store, 'records');
    await touchApiKey(store.db, created.id, Date.now());
    // On PostgreSQL the create's own notification may still arrive: the other test shows a last use is not announced there.
    if (dialect === 'sqlite') expect(store.changes.version('keys')).toBe(afterCreate);

    expect(await insertVerifiedContract(store.db, sampleVerifiedContract(address(1)))).toBe('inserted');
    const afterInsert = store.changes.version('records');
    expect(afterInsert).toBeGreaterThan(records);
    expect(await removeVerifiedContracts(store.db, [address(1)], 'code_changed')).toBe(1);
    expect(store.changes.version('records')).toBeGreaterThan(afterInsert);
    const beforeRevoke = store.changes.version('keys');
    expect(await revokeApiKey(store.db, created.id)).toBe(true);
    expect(store.changes.version('keys')).toBeGreaterThan(beforeRevoke);
  });

  it("another process's commits move the group: a revoked key, a new record", async () => {
    const { store, other } = stores;
    await saveSampleDocuments(other.db);
    const before = await heard(store, 'keys');
    const created = await createApiKey(other.db);
    const keys = await movedFrom(store, 'keys', before);
    const records = store.changes.version('records');
    // A key's last use, written by the other process, then a record: once the record is heard,
    // the last use would have been too (PostgreSQL delivers notifications in commit order).
    await touchApiKey(other.db, created.id, Date.now());
    expect(await insertVerifiedContract(other.db, sampleVerifiedContract(address(2)))).toBe('inserted');
    await movedFrom(store, 'records', records);
    // SQLite only learns that another connection committed something: every group moves.
    if (dialect === 'postgres') expect(store.changes.version('keys')).toBe(keys);
    const beforeRevoke = store.changes.version('keys');
    expect(await revokeApiKey(other.db, created.id)).toBe(true);
    await movedFrom(store, 'keys', beforeRevoke);
  });

  postgresOnly('a job announced by another process wakes the listeners, and moves no version', async () => {
    const { store, other } = stores;
    const records = await heard(store, 'records');
    const keys = store.changes.version('keys');
    let announced = 0;
    const arrived = new Promise<void>((resolve) => {
      const stop = store.changes.onJobQueued(() => {
        announced++;
        stop();
        resolve();
      });
    });
    await other.changes.announceJobQueued();
    await arrived;
    expect(announced).toBe(1);
    expect(store.changes.version('records')).toBe(records);
    expect(store.changes.version('keys')).toBe(keys);
  });

  postgresOnly('a job listener is woken once the store starts listening: an announcement before that was not heard', async () => {
    const fresh = await stores.tdb.open();
    try {
      let woken = 0;
      const stop = fresh.changes.onJobQueued(() => woken++);
      // Nothing announced: the wake-up is the start of listening itself.
      await heard(fresh, 'records');
      expect(woken).toBe(1);
      const before = woken;
      await stores.other.changes.announceJobQueued();
      const deadline = Date.now() + 10_000;
      while (woken === before) {
        if (Date.now() > deadline) throw new Error('the announcement never arrived');
        await new Promise((r) => setTimeout(r, 10));
      }
      stop();
    } finally {
      await fresh.close();
    }
  });

  postgresOnly('a lost notification connection keeps nothing until it is back, then moves every group', async () => {
    const { store } = stores;
    const records = await heard(store, 'records');
    const admin = new pg.Client({ connectionString: PG_TEST_URL });
    await admin.connect();
    try {
      // The listening connection is the one whose last statement was LISTEN.
      const { rowCount } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen solproof_changes' and pid <> pg_backend_pid()",
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const deadline = Date.now() + 10_000;
    while (store.changes.version('records') >= 0) {
      if (Date.now() > deadline) throw new Error('the lost listener was never noticed');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await heard(store, 'records')).toBeGreaterThan(records);
  });
});
