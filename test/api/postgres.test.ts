import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { available } from '../helpers/requirements.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, probePostgres, type TestDatabase } from '../helpers/testDatabase.js';

const ACCOUNT = deployerAccount('api/postgres');
const probed = await probePostgres();
const unavailable = available('postgres', probed) ? null : probed;

describe.skipIf(unavailable !== null)('scaled mode: two service processes sharing one PostgreSQL database', () => {
  let database: TestDatabase;
  let services: RunningService[] = [];
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const url = database.databaseUrl!;
    const rpcUrl = inject('rpcUrl');
    const args = ['--database-url', url, '--rate-free', '1000'];
    services = [await startService({ rpcUrl, args }), await startService({ rpcUrl, dataDir: await newDataDir(), args })];
    key = await createKey(services[0]!.dataDir, ['--database-url', url]);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await database?.dispose();
  });

  it('a key made once works on both; jobs submitted to one are finished and served by both', async () => {
    const sources = Array.from(
      { length: 4 },
      (_, i) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Shared${i} { uint256 public constant N = ${i}; function n() external pure returns (uint256) { return N; } }
`,
    );
    const receipts: { receipt: string; address: string }[] = [];
    for (let i = 0; i < sources.length; i++) {
      const built = await build('0.8.28', standardInput({ [`S${i}.sol`]: sources[i]! }), `S${i}.sol`, `Shared${i}`);
      const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
      const service = services[i % 2]!;
      const env = await apiPost(service.apiUrl, {
        module: 'contract',
        action: 'verifysourcecode',
        apikey: key,
        contractaddress: address,
        sourceCode: sources[i]!,
        contractname: `Shared${i}`,
        compilerversion: built.compilerVersion,
      });
      expect(env.status, JSON.stringify(env)).toBe('1');
      receipts.push({ receipt: env.result, address });
    }
    for (const { receipt, address } of receipts) {
      // Status and records are read from the other process: the store is the only shared state.
      for (const service of services) {
        expect((await waitForVerdict(service.apiUrl, receipt, key)).result).toBe('Pass - Verified');
        const record = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key });
        expect(record.result[0].ContractName).toMatch(/^Shared\d$/);
      }
    }
  });
});
