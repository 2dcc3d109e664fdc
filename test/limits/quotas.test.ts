import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost, type Envelope, failureWithReceipt, waitForVerdict } from '../helpers/api.js';
import { deployContract, devnetClients, freshAddress, placeCode } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { CLI, cleanEnv, createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('limits/quotas');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract QuotaTarget { uint256 public n; function bump() external { n += 1; } }
`;

function quotaText(now: Date): string {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return `Daily limit of 100 source code verifications reached for this API key; it resets at ${midnight.toISOString().replace('.000Z', 'Z')}`;
}

describe('daily verification quota (100 per key per UTC day)', () => {
  const rpcUrl = inject('rpcUrl');
  let dataDir: string;
  let service: RunningService;
  /** Addresses holding the target's code: a key's unfinished job at an address refuses its duplicate, so a burst goes to as many addresses. */
  let addresses: Address[];
  let compilerVersion: string;
  let key: string;
  let otherKey: string;
  // Requests per second are not what this file is about: only the daily quota may refuse.
  const args = ['--rate-free', '100000', '--job-concurrency', '1', '--key-queued-jobs', '0'];

  beforeAll(async () => {
    dataDir = await newDataDir();
    const built = await build('0.8.28', standardInput({ 'QuotaTarget.sol': SOURCE }), 'QuotaTarget.sol', 'QuotaTarget');
    compilerVersion = built.compilerVersion;
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const runtime = (await devnetClients(ACCOUNT).publicClient.getCode({ address }))!;
    addresses = Array.from({ length: 160 }, (_, i) => freshAddress(`quotas ${process.pid} ${Date.now()} ${i}`));
    for (const at of addresses) await placeCode(at, runtime);
    // One after the other: two processes creating a new SQLite store at once can race for its WAL switch.
    key = await createKey(dataDir);
    otherKey = await createKey(dataDir);
    service = await startService({ rpcUrl, dataDir, args });
  });
  afterAll(async () => service?.stop());

  // A source that does not compile: every accepted job fails at once and the address stays
  // unverified, so each submission reaches the quota check.
  let next = 0;
  const submit = (apiKey: string): Promise<Envelope> =>
    apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      contractaddress: addresses[next++]!,
      sourceCode: 'pragma solidity ^0.8.0; contract QuotaTarget { this does not compile }',
      contractname: 'QuotaTarget',
      compilerversion: compilerVersion,
      optimizationUsed: '0',
    });

  it('a concurrent burst of 150 submissions by one key accepts exactly 100; the others get the quota text', async () => {
    const before = new Date();
    const answers = await Promise.all(Array.from({ length: 150 }, () => submit(key)));
    const after = new Date();
    const accepted = answers.filter((a) => a.status === '1');
    const refused = answers.filter((a) => a.status === '0');
    expect(accepted).toHaveLength(100);
    for (const a of accepted) expect(a.result).toMatch(/^[a-z0-9]{50}$/);
    expect(new Set(accepted.map((a) => a.result)).size).toBe(100);
    expect(refused).toHaveLength(50);
    for (const r of refused) {
      expect(r.message).toBe('NOTOK');
      expect([quotaText(before), quotaText(after)]).toContain(r.result);
    }
  });

  it('the 101st submission stays refused, also after a restart; another key has its own quota', async () => {
    expect((await submit(key)).result).toBe(quotaText(new Date()));
    await service.stop();
    service = await startService({ rpcUrl, dataDir, args });
    expect(await submit(key)).toEqual({ status: '0', message: 'NOTOK', result: quotaText(new Date()) });
    const other = await submit(otherKey);
    expect(other.status, JSON.stringify(other)).toBe('1');
  });

  it('refused submissions that fail validation do not count', async () => {
    const fresh = await createKey(dataDir);
    for (let i = 0; i < 5; i++) {
      const env = await apiPost(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: fresh, contractaddress: '0x12' });
      expect(env.result).toBe('Error! Invalid address format');
    }
    expect((await submit(fresh)).status).toBe('1');
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', 'list', '--data-dir', dataDir], { env: cleanEnv() });
    const [head, ...rows] = stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const column = head!.indexOf('VERIFY TODAY');
    // The burst key 100, the other key and the fresh one 1 each: the five refusals did not count.
    expect(rows.map((r) => r[column]).sort()).toEqual(['1', '1', '100']);
  });
});

describe('daily proxy verification quota', () => {
  it('verifyproxycontract submissions beyond the daily quota get the proxy quota text', async () => {
    const dataDir = await newDataDir(false);
    const key = await createKey(dataDir);
    // Any contract will do: the quota is counted when the submission is taken, before detection.
    const built = await build('0.8.28', standardInput({ 'QuotaTarget.sol': SOURCE }), 'QuotaTarget.sol', 'QuotaTarget');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const service = await startService({ rpcUrl: inject('rpcUrl'), dataDir, args: ['--rate-free', '100000', '--daily-proxy-quota', '3'] });
    try {
      const link = () => apiPost(service.apiUrl, { module: 'contract', action: 'verifyproxycontract', apikey: key, address });
      const answers = await Promise.all(Array.from({ length: 5 }, link));
      expect(answers.filter((a) => a.status === '1')).toHaveLength(3);
      for (const refused of answers.filter((a) => a.status === '0')) {
        expect(refused.result).toMatch(/^Daily limit of 3 proxy verifications reached for this API key; it resets at \d{4}-\d\d-\d\dT00:00:00Z$/);
      }
    } finally {
      await service.stop();
    }
  });
});

describe('daily dry runs and diagnoses', () => {
  const rpcUrl = inject('rpcUrl');
  let dataDir: string;
  let service: RunningService;
  let address: string;
  let key: string;
  let otherKey: string;
  const OPTIMIZED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Rehearsed { uint256 public n = ${Date.now()}; function bump() external { n += 3; } }
`;

  beforeAll(async () => {
    dataDir = await newDataDir();
    const built = await build('0.8.28', standardInput({ 'Rehearsed.sol': OPTIMIZED }, { optimizer: true, runs: 200 }), 'Rehearsed.sol', 'Rehearsed');
    ({ address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT));
    key = await createKey(dataDir);
    otherKey = await createKey(dataDir);
    // Searches of at most 6 compiles: a failure no setting fixes spends them all (more than the 4 a cheap one may take).
    service = await startService({
      rpcUrl,
      dataDir,
      args: ['--rate-free', '100000', '--daily-dry-run-quota', '2', '--daily-diagnosis-quota', '1', '--diagnosis-compiles', '6'],
    });
  });
  afterAll(async () => service?.stop());

  /**
   * Sent with the optimizer off (`cheap`): the code differs, and a diagnosis finds the setting in
   * two compiles. Or (`search`) with other sources: nothing fixes them, the search spends its compiles.
   */
  const submit = (apiKey: string, dryRun: boolean, kind: 'cheap' | 'search' = 'cheap'): Promise<Envelope> =>
    apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      contractaddress: address,
      sourceCode: kind === 'cheap' ? OPTIMIZED : OPTIMIZED.replace('n += 3', 'n += 4'),
      contractname: 'Rehearsed',
      compilerversion: 'v0.8.28+commit.7893614a',
      optimizationUsed: kind === 'cheap' ? '0' : '1',
      ...(dryRun ? { dryrun: '1' } : {}),
    });
  const verdictOf = async (apiKey: string, receipt: unknown): Promise<string> =>
    String((await waitForVerdict(service.apiUrl, String(receipt), apiKey, { chainid: '31337' }, 120_000)).result);
  const resetsAt = (): string => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().replace('.000Z', 'Z');
  };
  const MISMATCH = 'Fail - Unable to verify. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.';
  const todays = async (column: string): Promise<string[]> => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', 'list', '--data-dir', dataDir], { env: cleanEnv() });
    const [head, ...rows] = stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    return rows.map((r) => r[head!.indexOf(column)]!).sort();
  };

  it("a cheap failure's diagnosis is free: the optimizer, found in two compiles, leaves the day's diagnoses untouched", async () => {
    const cheap = await submit(key, true);
    expect(cheap.status, JSON.stringify(cheap)).toBe('1');
    expect(await verdictOf(key, cheap.result)).toEqual(
      failureWithReceipt(`${MISMATCH} It matches (a full match) with the optimizer enabled, 200 runs (you sent: disabled).`),
    );
    expect(await todays('DIAGNOSES TODAY')).toEqual(['0', '0']);
  });

  it('a search counts; past the limit a failure is answered without a diagnosis, saying why; the third dry run is refused', async () => {
    const search = await submit(key, true, 'search');
    expect(search.status, JSON.stringify(search)).toBe('1');
    expect(await verdictOf(key, search.result)).toContain('No setting tried made it match (');
    expect(await todays('DIAGNOSES TODAY')).toEqual(['0', '1']);

    expect(await submit(key, true)).toEqual({
      status: '0',
      message: 'NOTOK',
      result: `Daily limit of 2 dry runs reached for this API key; it resets at ${resetsAt()}`,
    });

    // A real submission uses the key's verifications; its failure is not diagnosed now.
    const real = await submit(key, false, 'search');
    expect(real.status, JSON.stringify(real)).toBe('1');
    expect(await verdictOf(key, real.result)).toEqual(
      failureWithReceipt(`${MISMATCH} No diagnosis was run: this API key's daily limit of 1 diagnosis is used up; it resets at ${resetsAt()}.`),
    );
    // For tools: the failure's own code, no diagnosis, and why there is none.
    const doc = (await (await fetch(`${service.baseUrl}/receipt/${String(real.result)}.json`)).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      state: 'fail',
      reasonCode: 'no_match',
      diagnosis: null,
      result: { code: 'no_match', diagnosisSkipped: { code: 'diagnosis_quota_reached', details: { limit: 1 } } },
    });
  });

  it('another key has its own; the refused dry run was not counted, every search that ran was', async () => {
    const other = await submit(otherKey, true, 'search');
    expect(other.status, JSON.stringify(other)).toBe('1');
    expect(await verdictOf(otherKey, other.result)).toContain('No setting tried made it match (');
    expect(await todays('DRY RUNS TODAY')).toEqual(['1', '2']);
    expect(await todays('DIAGNOSES TODAY')).toEqual(['1', '1']);
    expect(await todays('VERIFY TODAY')).toEqual(['0', '1']);
  });
});
