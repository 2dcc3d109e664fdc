/**
 * What a copy costs on disk: an OpenZeppelin ERC-20 is verified once, then 1,000 copies of it
 * (other names, symbols and supplies) are deployed and verified by the chain follower as
 * similar matches. Each copy adds its deployment and its verified record, never its sources
 * or compilation again: the store grows by under 4 KB a copy. Each dialect runs a devnet and
 * a service of its own.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { createPublicClient, createWalletClient, encodeDeployData, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Devnet, devnetAccounts, freePort, startDevnet } from '../../src/chain/devnet.js';
import type { Store } from '../../src/store/openStore.js';
import { countVerifiedContracts } from '../../src/store/verifiedContracts.js';
import { apiGet, verifyAndWait } from '../helpers/api.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { describeOnDialects } from '../helpers/dialects.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const COPIES = 1000;
const require = createRequire(import.meta.url);
const OZ_DIR = dirname(require.resolve('@openzeppelin/contracts/package.json'));
const OZ_FILES = [
  'token/ERC20/ERC20.sol',
  'token/ERC20/IERC20.sol',
  'token/ERC20/extensions/IERC20Metadata.sol',
  'utils/Context.sol',
  'interfaces/draft-IERC6093.sol',
];
const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract StoredToken is ERC20 {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(msg.sender, supply);
    }
}
`;

/** Bytes the store's tables take: SQLite's used pages (after a checkpoint), PostgreSQL's relations. */
async function storeBytes(store: Store): Promise<number> {
  if (store.dialect === 'sqlite') {
    await sql`pragma wal_checkpoint(PASSIVE)`.execute(store.db);
    const pragma = async (name: string): Promise<number> =>
      Number(Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(store.db)).rows[0]!)[0]);
    return ((await pragma('page_count')) - (await pragma('freelist_count'))) * (await pragma('page_size'));
  }
  await sql`vacuum analyze`.execute(store.db).catch(() => undefined);
  const rows = await sql<{ bytes: string }>`
    select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = current_schema()`.execute(store.db);
  return Number(Object.values(rows.rows[0]!)[0]);
}

describeOnDialects('what a verified copy costs on disk', (dialect) => {
  let port: number;
  let devnet: Devnet;
  let tdb: TestDatabase;
  let service: RunningService;
  let store: Store;
  let key: string;
  let token: Built;

  beforeAll(async () => {
    port = await freePort();
    devnet = await startDevnet({ port });
    tdb = await createTestDatabase(dialect);
    const dbArgs = tdb.databaseUrl ? ['--database-url', tdb.databaseUrl] : [];
    key = await createKey(tdb.dataDir, dbArgs);
    service = await startService({
      rpcUrl: `http://127.0.0.1:${port}`,
      dataDir: tdb.dataDir,
      args: ['--follow-poll-ms', '200', '--rate-free', '10000', ...dbArgs],
    });
    store = await tdb.open();
    const sources: Record<string, string> = { 'contracts/StoredToken.sol': TOKEN };
    for (const f of OZ_FILES) sources[`@openzeppelin/contracts/${f}`] = readFileSync(join(OZ_DIR, f), 'utf8');
    token = await build('0.8.28', standardInput(sources, { optimizer: true, runs: 200 }), 'contracts/StoredToken.sol', 'StoredToken');
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    await service?.stop();
    await devnet?.stop();
    await tdb?.dispose();
  });

  it(`${COPIES} copies of a verified OpenZeppelin ERC-20 grow the store by under 4 KB each`, { timeout: 600_000 }, async () => {
    const rpcUrl = `http://127.0.0.1:${port}`;
    const chain = { ...foundry, rpcUrls: { default: { http: [rpcUrl] } } };
    const account = privateKeyToAccount(devnetAccounts(6)[5]!.privateKey);
    // A busy devnet (the follower tracing each block) may answer slowly: patient clients.
    const publicClient = createPublicClient({ chain, transport: http(rpcUrl, { timeout: 120_000 }) }) as PublicClient;
    const walletClient = createWalletClient({ chain, account, transport: http(rpcUrl, { timeout: 120_000 }) });
    const deployData = (i: number) => encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: [`Token ${i}`, `T${i}`, BigInt(1000 + i)] });

    const firstHash = await walletClient.sendTransaction({ data: deployData(0), account, chain });
    const original = (
      await publicClient.waitForTransactionReceipt({ hash: firstHash, timeout: 300_000, pollingInterval: 250 })
    ).contractAddress!.toLowerCase() as `0x${string}`;
    const { status } = await verifyAndWait(service.apiUrl, key, standardJsonFields(original, token, 'contracts/StoredToken.sol:StoredToken'));
    expect(status?.result).toBe('Pass - Verified');

    const before = await storeBytes(store);
    // Every copy sent at once, with explicit nonces; the follower verifies them as blocks come.
    let nonce = await publicClient.getTransactionCount({ address: account.address });
    // anvil mines every transaction that is ready into one block: sent at once, these fill
    // blocks (25 deployments to a block), and each full block raises the base fee by 12.5%.
    // At most 40 full blocks raise it 111-fold; a fixed price under it is never mined.
    const gasPrice = (await publicClient.getGasPrice()) * 200n;
    const hashes: `0x${string}`[] = [];
    // Mining on each arrival made every send wait for a block, behind the follower's traces of
    // the blocks before: under the whole suite's load one send waited over 120 s. The sends only
    // fill the pool; blocks are then asked for until the last deployment is in one.
    await publicClient.request({ method: 'evm_setAutomine', params: [false] } as never);
    for (let i = 1; i <= COPIES; i++) {
      // Everything given, so each send is one call to the node.
      hashes.push(await walletClient.sendTransaction({ data: deployData(i), account, chain, nonce: nonce++, gas: 3_000_000n, gasPrice, type: 'legacy' }));
    }
    for (let i = 0; i < 1000 && !(await publicClient.getTransactionReceipt({ hash: hashes.at(-1)! }).catch(() => null)); i++) {
      await publicClient.request({ method: 'evm_mine' } as never);
      await new Promise((r) => setTimeout(r, 100));
    }
    const last = await publicClient.waitForTransactionReceipt({ hash: hashes.at(-1)!, timeout: 300_000, pollingInterval: 250 });
    expect(last.status).toBe('success');
    const started = Date.now();
    while ((await countVerifiedContracts(store.db)) < COPIES + 1) {
      if (Date.now() - started > 300_000) throw new Error(`only ${await countVerifiedContracts(store.db)} of ${COPIES + 1} verified after 300 s`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const followedMs = Date.now() - started;
    const after = await storeBytes(store);
    const perCopy = (after - before) / COPIES;
    console.log(
      `storage (${dialect}): ${Math.round(perCopy)} bytes per verified copy of an OpenZeppelin ERC-20 (${before} -> ${after} bytes); the follower verified ${COPIES} copies ${followedMs} ms after the last was mined`,
    );
    expect(perCopy).toBeLessThan(4096);

    // A copy is served as one, through the original.
    const sample = (await publicClient.getTransactionReceipt({ hash: hashes[500]! })).contractAddress!.toLowerCase();
    const record = (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: sample, apikey: key })).result[0] as Record<
      string,
      string
    >;
    expect(record).toMatchObject({ ContractName: 'StoredToken', SimilarMatch: original });
  });
});
