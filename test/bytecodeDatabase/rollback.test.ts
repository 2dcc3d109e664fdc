/**
 * A shallow rollback (evm_snapshot / evm_revert of a few blocks) on a long chain with several
 * verified contracts: the follower goes back to the last block the chain still shares with
 * what it read, not to genesis; records whose deployment survived stay verified with no history
 * row; those deployed in the removed blocks are taken off; no record is a similar match
 * through an address the rollback emptied; what is deployed again is verified again; the
 * upgrade events (proxy history) of the removed blocks are forgotten, the earlier ones kept. The
 * chain is rolled back: a devnet and a service of their own.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, devnetAccounts, freePort, startDevnet } from '../../src/chain/devnet.js';
import type { Address } from '../../src/core/types.js';
import type { Store } from '../../src/store/openStore.js';
import { apiGet, verifyAndWait } from '../helpers/api.js';
import { clientsOn, deployBuilt } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/** Blocks mined before the service starts: re-reading from genesis would read them all again. */
const LONG_CHAIN = 400;

const source = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
/// Rolled back (${tag}).
contract Vault {
    uint256 public limit;
    constructor(uint256 l) { limit = l; }
}
contract Token {
    uint256 public supply;
    constructor(uint256 s) { supply = s; }
    function burn(uint256 n) external { supply -= n; }
}
/// Emits the EIP-1967 upgrade event, as a proxy upgraded would.
contract Upgrades {
    event Upgraded(address indexed implementation);
    function upgrade(address to) external { emit Upgraded(to); }
}
`;

describe('a shallow rollback', () => {
  const tag = `rollback-${Date.now()}`;
  let devnet: Devnet;
  let tdb: TestDatabase;
  let store: Store;
  let service: RunningService;
  let key: string;
  let vault: Built;
  let token: Built;
  let upgrades: Built;

  const clients = () => clientsOn(devnet.rpcUrl, devnetAccounts(10)[4]!.privateKey);
  const deploy = (built: Built, args: readonly unknown[]): Promise<Address> => deployBuilt(clients(), built, args);
  const rpc = async (method: string, params: unknown[]): Promise<unknown> =>
    clients().publicClient.request({ method: method as never, params: params as never });
  const head = async () => Number(await clients().publicClient.getBlockNumber());
  const record = async (address: string) =>
    (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key })).result[0] as Record<string, string>;
  const waitFor = async (what: string, ok: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> => {
    const start = Date.now();
    while (!(await ok())) {
      if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms\n${service.output().slice(-6000)}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  };
  /** The follower's log lines (JSON) with this message start. */
  const logged = (message: string): Record<string, unknown>[] =>
    service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes(message))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const upgrade = async (at: Address, to: Address): Promise<void> => {
    const { publicClient, walletClient } = clients();
    const hash = await walletClient.writeContract({
      address: at,
      abi: upgrades.abi,
      functionName: 'upgrade',
      args: [to],
      account: walletClient.account,
      chain: walletClient.chain,
    });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  };
  const upgradeRows = async (proxy: Address) =>
    (await store.db.selectFrom('proxyHistory').select(['target', 'blockNumber']).where('proxy', '=', proxy).orderBy('blockNumber').execute()).map(
      (r) => r.target,
    );
  const historyRows = async (addresses: Address[]) =>
    store.db.selectFrom('verificationHistory').select(['address', 'reason']).where('address', 'in', addresses).execute();

  beforeAll(async () => {
    devnet = await startDevnet({ port: await freePort() });
    await rpc('anvil_mine', [`0x${LONG_CHAIN.toString(16)}`]);
    tdb = await createTestDatabase('sqlite');
    key = await createKey(tdb.dataDir);
    service = await startService({ rpcUrl: devnet.rpcUrl, dataDir: tdb.dataDir, args: ['--follow-poll-ms', '200', '--rate-free', '10000'] });
    store = await tdb.open();
    const input = standardInput({ 'Rolled.sol': source(tag) }, { optimizer: true });
    vault = await build('0.8.28', input, 'Rolled.sol', 'Vault');
    token = await build('0.8.28', input, 'Rolled.sol', 'Token');
    upgrades = await build('0.8.28', input, 'Rolled.sol', 'Upgrades');
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await store?.close();
    await devnet?.stop();
    await tdb?.dispose();
  });

  it('takes off only what the removed blocks deployed, from the last block still shared, and names no emptied address', async () => {
    // Before the snapshot: a verified Vault and its copy, and a Token copy deployed before any Token is verified.
    const vaultOriginal = await deploy(vault, [1n]);
    expect((await verifyAndWait(service.apiUrl, key, standardJsonFields(vaultOriginal, vault, 'Rolled.sol:Vault'))).status?.result).toBe('Pass - Verified');
    const vaultCopy = await deploy(vault, [2n]);
    const tokenEarly = await deploy(token, [70n]);
    const proxy = await deploy(upgrades, []);
    const kept = `0x${'a1'.repeat(20)}` as Address;
    const rolled = `0x${'b2'.repeat(20)}` as Address;
    await upgrade(proxy, kept);
    await waitFor('the Vault copy verified by the follower', async () => (await record(vaultCopy))['SimilarMatch'] === vaultOriginal);
    await rpc('anvil_mine', ['0x3']);
    const snapshotBlock = await head();
    const snapshot = (await rpc('evm_snapshot', [])) as string;

    // After it: the Token verified (the earlier Token copy is verified through it), and another Vault copy.
    const tokenOriginal = await deploy(token, [80n]);
    expect((await verifyAndWait(service.apiUrl, key, standardJsonFields(tokenOriginal, token, 'Rolled.sol:Token'))).status?.result).toBe('Pass - Verified');
    const vaultLate = await deploy(vault, [3n]);
    await upgrade(proxy, rolled);
    await rpc('anvil_mine', ['0x3']);
    await waitFor('the early Token copy verified through the Token', async () => (await record(tokenEarly))['SimilarMatch'] === tokenOriginal);
    await waitFor('the late Vault copy verified', async () => (await record(vaultLate))['SimilarMatch'] === vaultOriginal);
    const survivors = [vaultOriginal, vaultCopy, tokenEarly];
    const verifiedAt = new Map(
      (await store.db.selectFrom('verifiedContracts').select(['address', 'verifiedAt']).where('address', 'in', survivors).execute()).map((r) => [
        r.address,
        Number(r.verifiedAt),
      ]),
    );

    await waitFor('both upgrade events recorded', async () => (await upgradeRows(proxy)).length === 2);
    expect(await upgradeRows(proxy)).toEqual([kept, rolled]);

    expect(await rpc('evm_revert', [snapshot])).toBe(true);
    expect(await head()).toBe(snapshotBlock);
    await waitFor('the follower handled the rollback', async () => logged('chain follower: the chain was rolled back').length > 0);
    // Followed again from the snapshot's block, not from genesis: nothing was read twice, nothing else taken off.
    const [rollback] = logged('chain follower: the chain was rolled back');
    expect(rollback).toMatchObject({ ancestor: snapshotBlock, removed: 2 });
    expect(logged('restarted from genesis')).toEqual([]);
    const position = await store.db.selectFrom('chainState').select('value').where('name', '=', 'follower.block').executeTakeFirstOrThrow();
    expect(Number(position.value)).toBeGreaterThanOrEqual(snapshotBlock);
    const followed = await store.db.selectFrom('followedBlocks').select('number').orderBy('number').execute();
    expect(Number(followed[0]!.number)).toBeLessThan(snapshotBlock - 3);
    expect(Number(followed[followed.length - 1]!.number)).toBe(Number(position.value));

    // The upgrade event of the removed blocks is forgotten; the earlier one is kept, once.
    expect(await upgradeRows(proxy)).toEqual([kept]);

    // The survivors: verified as before, no history row.
    expect(await historyRows(survivors)).toEqual([]);
    const after = await store.db.selectFrom('verifiedContracts').select(['address', 'verifiedAt']).where('address', 'in', survivors).execute();
    expect(new Map(after.map((r) => [r.address, Number(r.verifiedAt)]))).toEqual(verifiedAt);
    expect(await record(vaultOriginal)).toMatchObject({ ContractName: 'Vault', SimilarMatch: '' });
    expect(await record(vaultCopy)).toMatchObject({ ContractName: 'Vault', SimilarMatch: vaultOriginal });
    // Its Token is gone: the early copy stays verified by its own code, matched through no emptied address.
    expect(await record(tokenEarly)).toMatchObject({ ContractName: 'Token', MatchKind: 'full', SimilarMatch: '' });

    // The rolled-back deployments: not verified, each kept in the history as rolled back.
    for (const gone of [tokenOriginal, vaultLate]) expect(await record(gone)).toMatchObject({ ContractName: '' });
    expect((await historyRows([tokenOriginal, vaultLate])).map((r) => r.reason).sort()).toEqual(['rolled_back', 'rolled_back']);
    expect(await (await fetch(`${service.baseUrl}/address/${tokenOriginal}`)).text()).toContain('taken off when the chain was rolled back past its deployment');
    const removed = new Set<string>([tokenOriginal, vaultLate]);
    const served = await store.db.selectFrom('verifiedContracts').select(['address', 'similarTo']).execute();
    for (const row of served) {
      expect(removed.has(row.address)).toBe(false);
      expect(removed.has(row.similarTo ?? '')).toBe(false);
    }

    // Deployed again after the rollback (the same nonce: the same address): verified again as the follower reads it.
    const again = await deploy(token, [80n]);
    expect(again).toBe(tokenOriginal);
    await waitFor('the Token deployed again verified', async () => {
      const list = await (await fetch(`${service.baseUrl}/contracts`)).text();
      return list.includes(again);
    });
    expect(await record(again)).toMatchObject({ ContractName: 'Token', MatchKind: 'full', SimilarMatch: '' });
  });
});
