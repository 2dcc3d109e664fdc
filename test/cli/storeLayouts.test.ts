/**
 * `solproof store layouts`: contracts verified before storage layouts were kept gain them. Two
 * contracts are deployed and verified through a real service; their layouts are then taken
 * away as a store from before layouts has none, and one compilation's stored settings are
 * changed so that compiling it again gives other code. The command compiles both again with
 * the real solc: the first gains exactly solc's layout (served again), the second keeps none.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/openStore.js';
import { deployerAccount } from '../helpers/accounts.js';
import { verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { CLI, cleanEnv, createKey, type RunningService, startService } from '../helpers/service.js';
import { compileForTest, solcPackageFor } from '../helpers/solc.js';

const ACCOUNT = deployerAccount('cli/storeLayouts');
const RUN = `${Date.now()}`;

const vault = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// ${tag}
contract Vault {
    address public owner;
    uint96 public fee;
    mapping(address => uint256) public balances;
    string public name;

    constructor(string memory name_) {
        owner = msg.sender;
        fee = 3;
        name = name_;
    }
}
`;

describe('solproof store layouts', () => {
  let service: RunningService;
  let key: string;
  const verified: { address: string; layout: unknown }[] = [];

  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl') });
    key = await createKey(service.dataDir);
    for (const tag of ['kept', 'changed']) {
      const input = standardInput({ 'Vault.sol': vault(`${tag} ${RUN}`) }, { optimizer: true, runs: 200 });
      const built = await build('0.8.28', input, 'Vault.sol', 'Vault');
      const { address } = await deployContract(built.abi, built.bytecode, ['v'], ACCOUNT);
      const { status } = await verifyAndWait(service.apiUrl, key, standardJsonFields(address, built, 'Vault.sol:Vault'));
      expect(status?.result).toBe('Pass - Verified');
      const own = { ...input, settings: { ...input.settings, outputSelection: { '*': { '*': ['storageLayout'] } } } };
      verified.push({ address, layout: compileForTest(solcPackageFor('0.8.28'), own).contracts!['Vault.sol']!.Vault!.storageLayout });
    }
    await service.stop();

    // As a store from before layouts were kept: no layout; and the second compilation's settings no longer give its code.
    const store = await openStore({ dataDir: service.dataDir });
    try {
      await store.db.updateTable('compiledContracts').set({ storageLayout: null, transientStorageLayout: null }).execute();
      const second = await store.db
        .selectFrom('verifiedContracts')
        .innerJoin('compiledContracts', 'compiledContracts.id', 'verifiedContracts.compiledContractId')
        .select('compiledContracts.compilationId')
        .where('verifiedContracts.address', '=', verified[1]!.address.toLowerCase())
        .executeTakeFirstOrThrow();
      const row = await store.db.selectFrom('compilations').select('settings').where('id', '=', second.compilationId).executeTakeFirstOrThrow();
      const settings = { ...JSON.parse(row.settings), optimizer: { enabled: true, runs: 9999 } };
      await store.db
        .updateTable('compilations')
        .set({ settings: JSON.stringify(settings) })
        .where('id', '=', second.compilationId)
        .execute();
    } finally {
      await store.close();
    }
  }, 240_000);

  afterAll(async () => service?.stop());

  it('gives a contract the layout its compilation yields again, and none where the code differs', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'store', 'layouts', '--data-dir', service.dataDir], { env: cleanEnv() });
    const lines = new Map(
      stdout
        .trim()
        .split('\n')
        .map((l) => [l.split('\t')[0]!, l.split('\t')[1]!]),
    );
    expect(lines.get('compilations without a layout')).toBe('2');
    expect(lines.get('contracts given their layouts')).toBe('1');
    expect(lines.get('not reproduced by a new compile (left without)')).toBe('1');

    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir: service.dataDir });
    const served = async (address: string) =>
      (await (await fetch(`${service.baseUrl}/address/${address}/storage-layout.json`)).json()) as Record<string, unknown>;
    const first = await served(verified[0]!.address);
    expect(first.storageLayout).toEqual(verified[0]!.layout);
    expect(first.notes).toBeUndefined();
    const second = await served(verified[1]!.address);
    expect(second.storageLayout).toBeNull();
    expect(second.notes).toHaveProperty('storageLayout');
  });
});
