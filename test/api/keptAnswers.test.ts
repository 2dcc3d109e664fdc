/**
 * Verified contracts' read answers are served from memory while nothing they say has changed,
 * and never after: a record improved from partial to full, a record taken off (its address
 * holds other code), and a key revoked by another process are all seen by the very next
 * request, on SQLite and on PostgreSQL, and on PostgreSQL by another API process too.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { TEXT } from '../../src/texts/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { describeOnDialects } from '../helpers/dialects.js';
import { CLI, cleanEnv, newDataDir, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const ACCOUNT = deployerAccount('api/keptAnswers');

const source = (tag: string, comment: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// ${comment}
contract Kept {
    uint256 public constant TAG = ${tag};
    uint256 public count;

    function inc() external {
        count += 1;
    }
}
`;

/** `solproof keys <args>` on the service's store; stdout. */
async function keys(dataDir: string, storeArgs: string[], args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', ...args, '--data-dir', dataDir, ...storeArgs], { env: cleanEnv() });
  return stdout;
}

/** The service's count of read answers sent from memory. */
async function keptAnswersSent(service: RunningService): Promise<number> {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('solproof_read_answers_total{') && l.includes('source="memory"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describeOnDialects('read answers kept in memory', (dialect) => {
  let tdb: TestDatabase | undefined;
  let storeArgs: string[] = [];
  let service: RunningService;
  /** PostgreSQL: a second API process on the same store, which never runs the jobs. */
  let reader: RunningService | undefined;
  let dataDir: string;
  let key: string;
  let keyId: string;
  const rpcUrl = inject('rpcUrl');

  beforeAll(async () => {
    dataDir = await newDataDir();
    if (dialect === 'postgres') {
      tdb = await createTestDatabase('postgres');
      storeArgs = ['--database-url', tdb.databaseUrl!];
    }
    // Every read compares the address's code with the record: a record taken off is noticed on the next read.
    service = await startService({ rpcUrl, dataDir, args: [...storeArgs, '--record-check-ms', '0', '--rate-pro', '1000'] });
    if (dialect === 'postgres') {
      reader = await startService({
        rpcUrl,
        dataDir: await newDataDir(false),
        args: [...storeArgs, '--role', 'api', '--record-check-ms', '0', '--rate-pro', '1000'],
      });
    }
    const created = await keys(dataDir, storeArgs, ['create', '--owner', 'kept-answers', '--tier', 'pro']);
    key = created.trim().split('\n').at(-1)!.trim();
    keyId = /Created API key (key_[a-z0-9]{16})/.exec(created)![1]!;
  }, 120_000);

  afterAll(async () => {
    await reader?.stop();
    await service?.stop();
    await tdb?.dispose();
  });

  const read = (on: RunningService, action: 'getabi' | 'getsourcecode', address: string, apikey = key): Promise<Envelope> =>
    apiGet(on.apiUrl, { module: 'contract', action, address, apikey });
  const record = async (on: RunningService, address: string) => ((await read(on, 'getsourcecode', address)).result as Record<string, string>[])[0]!;
  const readers = () => [service, ...(reader ? [reader] : [])];

  it('a record improved from partial to full, then taken off, is served as it is now at once', async () => {
    const tag = String(Date.now());
    const exact = source(tag, 'Kept in memory.');
    const built = await build('0.8.28', standardInput({ 'Kept.sol': exact }, { optimizer: true, runs: 200 }), 'Kept.sol', 'Kept');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);

    const partial = await verifyAndWait(service.apiUrl, key, singleFileFields(address, built, 'Kept', source(tag, 'An edited comment.')));
    expect(partial.status?.message).toMatch(/^OK - Partial match/);
    for (const on of readers()) {
      const before = await keptAnswersSent(on);
      for (let i = 0; i < 5; i++) {
        expect((await record(on, address)).MatchKind).toBe('partial');
        expect(JSON.parse(String((await read(on, 'getabi', address)).result))).toEqual(built.abi);
      }
      // Most were sent from memory (on PostgreSQL a late notification of the verification's own writes may cost one more read).
      expect(await keptAnswersSent(on)).toBeGreaterThanOrEqual(before + 6);
    }

    const full = await verifyAndWait(service.apiUrl, key, singleFileFields(address, built, 'Kept', exact));
    expect(full.status?.result).toBe('Pass - Verified');
    for (const on of readers()) {
      const now = await record(on, address);
      expect(now.MatchKind).toBe('full');
      expect(now.SourceCode).toBe(exact);
    }

    // Other code at the address: the record is taken off, and no reader serves what it kept.
    const rpc = async (method: string, params: unknown[]) =>
      fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const code = (await (await rpc('eth_getCode', [address, 'latest'])).json()) as { result: string };
    await rpc('anvil_setCode', [address as Address, `${code.result}00`]);
    try {
      for (const on of readers()) {
        expect(await read(on, 'getabi', address)).toMatchObject({ status: '0', result: TEXT.notVerified });
        expect((await record(on, address)).ABI).toBe(TEXT.notVerified);
      }
    } finally {
      await rpc('anvil_setCode', [address, code.result]);
    }
  });

  it('a key revoked by another process is refused at once, though its answers are kept', async () => {
    const text = source(`${Date.now()}1`, 'Read by a key.');
    const built = await build('0.8.28', standardInput({ 'Kept.sol': text }), 'Kept.sol', 'Kept');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const verified = await verifyAndWait(service.apiUrl, key, singleFileFields(address, built, 'Kept', text));
    expect(verified.status?.result).toBe('Pass - Verified');
    for (const on of readers()) {
      await read(on, 'getabi', address);
      const before = await keptAnswersSent(on);
      expect(await read(on, 'getabi', address)).toMatchObject({ status: '1', message: 'OK' });
      expect(await keptAnswersSent(on)).toBe(before + 1);
    }

    expect(await keys(dataDir, storeArgs, ['revoke', keyId])).toBe(`Revoked ${keyId}\n`);
    for (const on of readers()) {
      // The key no longer counts: the read is a keyless one (its note, its rate), and submitting is refused.
      expect(await read(on, 'getabi', address)).toMatchObject({ status: '1', message: TEXT.okKeyless });
      expect(await apiPost(on.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: key, contractaddress: address })).toEqual({
        status: '0',
        message: 'NOTOK',
        result: TEXT.invalidApiKey,
      });
    }
  });
});
