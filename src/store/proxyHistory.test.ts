import { expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import type { Address, Hex } from '../core/types.js';
import { forgetProxyHistory, type ProxyHistoryRow, proxyHistoryOf, recordProxyHistory } from './proxyHistory.js';

const PROXY = '0x00000000000000000000000000000000000000AA' as Address;
const row = (blockNumber: number, logIndex: number, target: string): ProxyHistoryRow => ({
  proxy: PROXY,
  target: target as Address,
  kind: 'implementation',
  blockNumber,
  logIndex,
  transactionHash: `0x${blockNumber.toString(16).padStart(64, '0')}` as Hex,
});

describeOnDialects('proxy history', (dialect) => {
  const stores = useTestStores(dialect);

  it('a block recorded again writes nothing twice; a rollback forgets the blocks above its ancestor, a reset all', async () => {
    const db = stores.store.db;
    const v1 = row(3, 0, '0x00000000000000000000000000000000000000B1');
    const v2 = row(7, 2, '0x00000000000000000000000000000000000000b2');
    await recordProxyHistory(db, [v2, v1]);
    await recordProxyHistory(db, [v1]);
    await recordProxyHistory(db, [v2]);
    const read = await proxyHistoryOf(stores.other.db, [PROXY]);
    expect(read.map((r) => [r.target, r.blockNumber, r.logIndex])).toEqual([
      ['0x00000000000000000000000000000000000000b1', 3, 0],
      ['0x00000000000000000000000000000000000000b2', 7, 2],
    ]);
    expect(read[0]!.proxy).toBe(PROXY.toLowerCase());
    expect(await forgetProxyHistory(db, { above: 5 })).toBe(1);
    expect((await proxyHistoryOf(db, [PROXY])).map((r) => r.blockNumber)).toEqual([3]);
    await forgetProxyHistory(db);
    expect(await proxyHistoryOf(db, [PROXY])).toEqual([]);
  });
});
