import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOWER_POSITION } from '../../src/bytecodeDatabase/chainGeneration.js';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { SQLITE_FILE_NAME } from '../../src/store/openStore.js';
import { until } from '../deploy/cluster.js';
import { apiGet, verifyAndWait } from '../helpers/api.js';
import { clientsOn, deployBuilt } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const RESTARTS = 5;
const GENESIS_RESET = 'restarted from genesis';

const source = (i: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Kept${i} { uint256 public constant N = ${i}; function n() external pure returns (uint256) { return N; } }
`;

/** What a user sees of the records: the list's table, the CSV, getsourcecode of each address. */
interface Seen {
  list: string;
  csv: string;
  sources: unknown[];
}

async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

const devnetUrl = (service: RunningService): string => {
  const url = /started a local devnet \(anvil\) at (\S+), chain id/.exec(service.output())?.[1];
  if (!url) throw new Error(`no devnet URL in the output:\n${service.output()}`);
  return url;
};

/** Until the chain follower of `service` has handled block `head` (read from its store). */
const followerAt = (service: RunningService, head: number) =>
  until('the follower at the head', async () => {
    const db = new Database(join(service.dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('select value from chain_state where name = ?').get(FOLLOWER_POSITION) as { value: string } | undefined;
      return row && Number(row.value) >= head ? true : undefined;
    } finally {
      db.close();
    }
  });

/** `npm start` as a terminal runs it: the embedded devnet on the data dir, in a process group of its own (Ctrl-C reaches all of it). */
const start = (dataDir: string) => startService({ dataDir, ownProcessGroup: true, args: ['--rate-free', '1000'] });

describe('the embedded devnet keeps its chain and every record across restarts', () => {
  let dataDir: string;
  let key: string;
  let service: RunningService | undefined;
  const addresses: string[] = [];

  const seen = async (s: RunningService): Promise<Seen> => {
    const page = await (await fetch(`${s.baseUrl}/contracts`)).text();
    const csv = await fetch(`${s.baseUrl}/verified-contracts.csv`);
    expect(csv.status).toBe(200);
    const sources = [];
    for (const address of addresses) {
      const env = await apiGet(s.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key });
      sources.push(env.result);
    }
    return { list: /<div class="table-wrap">[\s\S]*?<\/table><\/div>/.exec(page)?.[0] ?? `no table: ${page}`, csv: await csv.text(), sources };
  };

  beforeAll(async () => {
    dataDir = await newDataDir();
    key = await createKey(dataDir);
  });

  afterAll(async () => {
    await service?.stop();
  });

  it(`${RESTARTS} stops by SIGINT and starts: the same genesis, and the list, the CSV and getsourcecode unchanged`, async () => {
    service = await start(dataDir);
    const clients = clientsOn(devnetUrl(service), devnetAccounts(1)[0]!.privateKey);
    for (const i of [1, 2]) {
      const built = await build('0.8.28', standardInput({ [`K${i}.sol`]: source(i) }), `K${i}.sol`, `Kept${i}`);
      const address = await deployBuilt(clients, built);
      const { status } = await verifyAndWait(service.apiUrl, key, singleFileFields(address, built, `Kept${i}`, source(i)));
      expect(status?.result).toBe('Pass - Verified');
      addresses.push(address);
    }
    const before = await seen(service);
    expect(before.csv.trim().split('\n')).toHaveLength(3);
    for (const address of addresses) expect(before.list).toContain(address);
    const genesis = (await rpc(devnetUrl(service), 'eth_getBlockByNumber', ['0x0', false])).hash as string;

    for (let restart = 1; restart <= RESTARTS; restart++) {
      await service.interrupt();
      expect(service.process.exitCode, service.output()).toBe(0);
      expect(service.output()).not.toContain(GENESIS_RESET);
      service = await start(dataDir);
      const url = devnetUrl(service);
      const [block0, block1] = await Promise.all([rpc(url, 'eth_getBlockByNumber', ['0x0', false]), rpc(url, 'eth_getBlockByNumber', ['0x1', false])]);
      expect({ restart, genesis: block0.hash }).toEqual({ restart, genesis });
      // The first block of the chain still builds on that genesis.
      expect(block1.parentHash).toBe(genesis);
      // A block more, and the follower at the head past it: it compared the genesis with the one it had (a round starts with that).
      await rpc(url, 'anvil_mine', ['0x1']);
      await followerAt(service, Number(await rpc(url, 'eth_blockNumber', [])));
      expect(service.output()).not.toContain(GENESIS_RESET);
      expect(await seen(service)).toEqual(before);
    }
    await service.interrupt();
    expect(service.output()).not.toContain(GENESIS_RESET);
  }, 600_000);

  it('a new chain (the devnet state removed) is still seen as one: its records are taken off', async () => {
    if (service && service.process.exitCode === null && service.process.signalCode === null) await service.interrupt();
    rmSync(join(dataDir, 'devnet-state.json'));
    service = await start(dataDir);
    await service.outputWith(GENESIS_RESET, 60_000);
    const after = await seen(service);
    expect(after.csv.trim().split('\n')).toHaveLength(1);
    for (const address of addresses) expect(after.list).not.toContain(address);
    expect(after.sources).toEqual(addresses.map(() => [expect.objectContaining({ SourceCode: '' })]));
  }, 120_000);
});
