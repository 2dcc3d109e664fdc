/**
 * Finding 2 of the third attack review, against a service of its own on the suite's anvil: the
 * compile started at submission counts against the key's share of running jobs. Three heavy
 * keyless Sourcify submissions of one client, then a keyed tiny verification: the tiny one
 * does not wait for the heavy ones.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/store/openStore.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { sourcifyPost } from '../sourcify/helpers.js';

const ACCOUNT = deployerAccount('attacks/compileShare');
const CHAIN_ID = inject('chainId');
/** The id the service counts a keyless Sourcify client's jobs under (the tests' client address). */
const KEYLESS = 'sourcify:127.0.0.1';

/** A contract that compiles for a long while (looping functions through the IR optimizer): seconds on an idle machine, far longer than a tiny one. */
function heavySource(n: number): string {
  let body = '';
  for (let i = 0; i < 120; i++) {
    body += `  function f${i}(uint256 a, uint256 b) external pure returns (uint256 r) { unchecked { r = a; for (uint256 k = 0; k < b; k++) { r = (r * ${i + 3} + k) ^ (r >> ${(i % 200) + 1}); if (r % ${i + 7} == 0) r += a * b; } } }\n`;
  }
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Heavy {\n  uint256 public n = ${n};\n${body}}\n`;
}

const tinySource = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Tiny { uint256 public value = 7; }\n';

describe("compiles started at submission keep to the key's share", () => {
  let service: RunningService;
  let key: string;
  let db: Database.Database;

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      // Two job slots and two compiler threads, as on the two-core machine of the finding; a key's share is one.
      args: ['--compiler-threads', '2', '--job-concurrency', '2', '--rate-free', '1000', '--diagnosis-compiles', '0'],
      env: { SOLPROOF_LOG_LEVEL: 'debug' },
    });
    key = await createKey(service.dataDir);
    db = new Database(join(service.dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
  });
  afterAll(async () => {
    db?.close();
    await service?.stop();
  });

  const states = (receipts: string[]) =>
    receipts.map((r) => db.prepare('select state from verification_jobs where receipt = ?').pluck().get(r) as string | undefined);
  const runningOf = (apiKeyId: string) =>
    db.prepare("select count(*) from verification_jobs where api_key_id = ? and state = 'running'").pluck().get(apiKeyId) as number;
  const logLines = () =>
    service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; receipt?: string; key?: string; for?: string });

  it('three heavy keyless Sourcify submissions, then a keyed tiny one: the tiny one passes while the heavy ones still run', async () => {
    const box = await build('0.8.28', standardInput({ 'Box.sol': 'pragma solidity ^0.8.0;\ncontract Box { uint256 public v = 1; }\n' }), 'Box.sol', 'Box');
    // The heavy sources are for boxes (they never match them): their compiles are what count.
    const targets = [];
    for (let i = 0; i < 3; i++) targets.push((await deployContract(box.abi, box.bytecode, [], ACCOUNT)).address);
    const tiny = await build('0.8.28', standardInput({ 'Tiny.sol': tinySource }), 'Tiny.sol', 'Tiny');
    const tinyAddress = (await deployContract(tiny.abi, tiny.bytecode, [], ACCOUNT)).address;

    const heavy: string[] = [];
    for (const [i, address] of targets.entries()) {
      const answer = await sourcifyPost(service.baseUrl, `v2/verify/${CHAIN_ID}/${address}`, {
        stdJsonInput: standardInput({ 'Heavy.sol': heavySource(i) }, { optimizer: true, viaIR: true }),
        compilerVersion: tiny.compilerVersion.replace(/^v/, ''),
        contractIdentifier: 'Heavy.sol:Heavy',
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      heavy.push(answer.body.verificationId as string);
    }
    // Nobody else waits: the keyless client's jobs take both job slots (the second past its share).
    await expect.poll(() => runningOf(KEYLESS), { timeout: 60_000, interval: 100 }).toBe(2);
    // Only the first was compiled from its submission: the others found the client at its share (or no slot free).
    const ahead = logLines().filter((l) => l.msg === 'compile started ahead' && heavy.includes(l.receipt ?? ''));
    expect(ahead.map((l) => l.receipt)).toEqual([heavy[0]]);

    const submitted = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      ...singleFileFields(tinyAddress, tiny, 'Tiny', tinySource),
    });
    expect(submitted.status, JSON.stringify(submitted)).toBe('1');
    expect((await waitForVerdict(service.apiUrl, submitted.result, key, {}, 300_000)).result).toBe('Pass - Verified');
    // The tiny verification's verdict came first: not one heavy job has finished.
    expect(states(heavy).every((s) => s === 'queued' || s === 'running')).toBe(true);
    // It ran in the place of the keyless client's job past its share, whose compile was stopped.
    const putBack = logLines().filter((l) => l.msg === "a job over its key's share was put back in the queue for another key's job");
    expect(putBack).toEqual([expect.objectContaining({ key: KEYLESS, for: submitted.result })]);
    expect(heavy).toContain(putBack[0]!.receipt);
  }, 600_000);
});
