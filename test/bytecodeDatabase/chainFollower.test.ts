/**
 * The chain follower: copies deployed after a contract was verified (by an account or by a
 * factory, CREATE and CREATE2) become verified within seconds with nothing read or
 * submitted; a service killed with SIGKILL while blocks keep coming catches up after its
 * restart; a devnet restarted from genesis takes the old records off and verifies what is
 * deployed again. Each dialect runs a devnet and a service of its own. Verification is
 * observed on the list page, which never triggers a check of its own.
 */

import { type Abi, encodeAbiParameters, parseAbiParameters } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Devnet, devnetAccounts, freePort, startDevnet } from '../../src/chain/devnet.js';
import type { Address } from '../../src/core/types.js';
import { apiGet, verifyAndWait } from '../helpers/api.js';
import { clientsOn, deployBuilt } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { describeOnDialects } from '../helpers/dialects.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const source = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
/// Followed on the chain (${tag}).
contract Vault {
    address public immutable keeper;
    uint256 public limit;
    constructor(uint256 l) { keeper = msg.sender; limit = l; }
    function raise(uint256 by) external { limit += by; }
}
contract VaultFactory {
    function make(uint256 l) external returns (address) { return address(new Vault(l)); }
    function make2(uint256 l, bytes32 salt) external returns (address) { return address(new Vault{salt: salt}(l)); }
}
/// Deployed second on the restarted chain, first before.
contract Other { uint256 public x = 1; }
`;

describeOnDialects('the chain follower', (dialect) => {
  const tag = `${dialect}-${Date.now()}`;
  let port: number;
  let devnet: Devnet;
  let tdb: TestDatabase;
  let service: RunningService;
  let key: string;
  let vault: Built;
  let factory: Built;
  let other: Built;
  let dbArgs: string[];

  const clients = () => clientsOn(`http://127.0.0.1:${port}`, devnetAccounts(3)[2]!.privateKey);
  const deploy = (built: Built, args: readonly unknown[] = []): Promise<Address> => deployBuilt(clients(), built, args);
  const call = async (at: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<Address> => {
    const { publicClient, walletClient } = clients();
    const { result } = await publicClient.simulateContract({ address: at, abi, functionName, args, account: walletClient.account });
    const hash = await walletClient.writeContract({ address: at, abi, functionName, args, account: walletClient.account, chain: walletClient.chain });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return (result as string).toLowerCase() as Address;
  };
  /** The verified list, newest first (the first page): reading it verifies nothing. */
  const listed = async (): Promise<string> => (await fetch(`${service.baseUrl}/contracts`)).text();
  const waitListed = async (addresses: Address[], timeoutMs = 20_000): Promise<number> => {
    const start = Date.now();
    for (;;) {
      const page = await listed();
      if (addresses.every((a) => page.includes(a))) return Date.now() - start;
      if (Date.now() - start > timeoutMs)
        throw new Error(`not verified within ${timeoutMs} ms: ${addresses.filter((a) => !page.includes(a)).join(', ')}\n${service.output().slice(-6000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const start = async () => {
    service = await startService({
      rpcUrl: `http://127.0.0.1:${port}`,
      dataDir: tdb.dataDir,
      args: ['--follow-poll-ms', '200', '--rate-free', '10000', ...dbArgs],
    });
  };

  beforeAll(async () => {
    port = await freePort();
    devnet = await startDevnet({ port });
    tdb = await createTestDatabase(dialect);
    dbArgs = tdb.databaseUrl ? ['--database-url', tdb.databaseUrl] : [];
    key = await createKey(tdb.dataDir, dbArgs);
    await start();
    const input = standardInput({ 'Vault.sol': source(tag) }, { optimizer: true });
    vault = await build('0.8.28', input, 'Vault.sol', 'Vault');
    factory = await build('0.8.28', input, 'Vault.sol', 'VaultFactory');
    other = await build('0.8.28', input, 'Vault.sol', 'Other');
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await devnet?.stop();
    await tdb?.dispose();
  });

  let original: Address;
  let firstCopies: Address[] = [];

  it('verifies copies by an account and by a factory (CREATE, CREATE2) within seconds, nothing read or submitted', async () => {
    original = await deploy(vault, [10n]);
    expect((await verifyAndWait(service.apiUrl, key, standardJsonFields(original, vault, 'Vault.sol:Vault'))).status?.result).toBe('Pass - Verified');
    const factoryAddress = await deploy(factory);
    const deployedAt = Date.now();
    const byAccount = await deploy(vault, [20n]);
    const byCreate = await call(factoryAddress, factory.abi, 'make', [30n]);
    const byCreate2 = await call(factoryAddress, factory.abi, 'make2', [40n, `0x${'cd'.repeat(32)}`]);
    firstCopies = [byAccount, byCreate, byCreate2];
    await waitListed(firstCopies);
    console.log(`similar-match latency, deployment to verified (chain follower, poll 200 ms, ${dialect}): ${Date.now() - deployedAt} ms for 3 copies`);
    // Only now read them: the records were written by the follower.
    for (const [copy, limit] of [
      [byAccount, 20n],
      [byCreate, 30n],
      [byCreate2, 40n],
    ] as const) {
      const record = (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: copy, apikey: key })).result[0];
      expect(record).toMatchObject({
        ContractName: 'Vault',
        SimilarMatch: original,
        MatchKind: 'full',
        ConstructorArguments: encodeAbiParameters(parseAbiParameters('uint256'), [limit]).slice(2),
      });
    }
    // The factory's code is not verified: it stays so.
    expect((await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address: factoryAddress, apikey: key })).result).toBe(
      'Contract source code not verified',
    );
  });

  it('after SIGKILL, with blocks coming meanwhile, the restarted service verifies every copy created while it was down', async () => {
    await service.kill();
    const whileDown: Address[] = [];
    const { publicClient } = clients();
    for (let i = 0; i < 5; i++) {
      whileDown.push(await deploy(vault, [BigInt(100 + i)]));
      await publicClient.request({ method: 'anvil_mine' as never, params: ['0x3'] as never });
    }
    await start();
    const ms = await waitListed(whileDown, 30_000);
    console.log(`follower caught up after a restart in ${ms} ms (${dialect})`);
    for (const copy of whileDown) expect(await listed()).toContain(copy);
  });

  it('a devnet restarted from genesis: old records stop being served where the code changed; what is deployed again is verified again', async () => {
    await devnet.stop();
    devnet = await startDevnet({ port });
    // Another order: Other takes the address the original Vault had, Vault the next ones.
    const otherAddress = await deploy(other);
    expect(otherAddress).toBe(original);
    const again = await deploy(vault, [7n]);
    const page = async (address: string) =>
      (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key })).result[0] as Record<string, string>;
    const start = Date.now();
    for (;;) {
      const listedNow = await listed();
      if (listedNow.includes(again) && !listedNow.includes(original)) break;
      if (Date.now() - start > 30_000) throw new Error('the restarted chain was not followed within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    // The address that held the original now holds Other: not served as Vault any more.
    expect((await page(original))['ContractName']).toBe('');
    // Vault deployed again on the new chain: verified with its own constructor arguments.
    expect(await page(again)).toMatchObject({ ContractName: 'Vault', ConstructorArguments: encodeAbiParameters(parseAbiParameters('uint256'), [7n]).slice(2) });
    // A copy address of the old chain that holds nothing now is not served.
    const gone = firstCopies.find((a) => a !== again)!;
    expect((await page(gone))['ContractName']).toBe('');
    // The old records are still in the history of their addresses.
    const history = await (await fetch(`${service.baseUrl}/address/${original}`)).text();
    expect(history).toContain('taken off when the chain restarted from genesis');
  });
});
