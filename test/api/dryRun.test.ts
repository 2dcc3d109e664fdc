/**
 * `verifysourcecode` with `dryrun=1`: the verification and its diagnosis run as for any
 * submission, and the receipt answers like any other, but nothing is published (no record, no
 * stored compilation a copy could be matched through) and none of the key's verifications is
 * used (dry runs have a daily quota of their own). A service of its own with a daily quota of
 * one verification shows that quota untouched.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/dryRun');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Rehearsal {
    uint256 public constant TAKE = 20313;
    uint256 public value;

    function set(uint256 v) external { value = v * 2; }
}
`;

describe('dry runs', () => {
  let service: RunningService;
  let key: string;
  let built: Built;
  let address: Address;
  let copy: Address;

  beforeAll(async () => {
    const dataDir = await newDataDir();
    key = await createKey(dataDir);
    service = await startService({ dataDir, rpcUrl: inject('rpcUrl'), args: ['--daily-verify-quota', '1', '--rate-free', '1000'] });
    built = await build('0.8.28', standardInput({ 'Rehearsal.sol': SOURCE }, { optimizer: true, runs: 200 }), 'Rehearsal.sol', 'Rehearsal');
    address = (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address;
    copy = (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address;
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
  });

  const submit = (fields: Record<string, string>) => apiPost(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: key, ...fields });
  const record = async (at: Address) =>
    (
      (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: at, apikey: key })).result as {
        SourceCode: string;
        SimilarMatch?: string;
      }[]
    )[0]!;

  it('a wrong dry run fails with its diagnosis; a right one passes; nothing is published and no quota is used', async () => {
    // Optimizer off: the diagnosis finds the fix, as for a real submission.
    const wrong = await submit({ ...singleFileFields(address, built, 'Rehearsal', SOURCE, { optimizationUsed: '0' }), dryrun: '1' });
    expect(wrong.status).toBe('1');
    const failed = await waitForVerdict(service.apiUrl, String(wrong.result), key, { chainid: '31337' });
    expect(failed.result).toMatch(/^Fail - Unable to verify\. .*optimizer enabled, 200 runs \(you sent: disabled\)/);

    const right = await submit({ ...singleFileFields(address, built, 'Rehearsal', SOURCE), dryrun: '1' });
    expect(right.status).toBe('1');
    const passed = await waitForVerdict(service.apiUrl, String(right.result), key);
    expect(passed).toMatchObject({ status: '1', result: 'Pass - Verified (dry run: nothing was published)' });
    const receipt = (await (await fetch(`${service.baseUrl}/receipt/${String(right.result)}.json`)).json()) as { state: string };
    expect(receipt.state).toBe('pass');
    const page = await (await fetch(`${service.baseUrl}/receipt/${String(right.result)}`)).text();
    expect(page).toContain('Would verify');

    // Nothing published: the address and its copy stay unverified (no compilation to match a copy through).
    expect((await record(address)).SourceCode).toBe('');
    expect((await record(copy)).SourceCode).toBe('');

    // Two dry runs used none of the quota of one: the real submission is accepted and passes.
    const real = await submit(singleFileFields(address, built, 'Rehearsal', SOURCE));
    expect(real.status, JSON.stringify(real)).toBe('1');
    expect((await waitForVerdict(service.apiUrl, String(real.result), key)).result).toBe('Pass - Verified');
    expect((await record(address)).SourceCode).toBe(SOURCE);
    // The quota of one is now used.
    const over = await submit({ ...singleFileFields(copy, built, 'Rehearsal', SOURCE), optimizationUsed: '0' });
    expect(over).toMatchObject({ status: '0', result: expect.stringContaining('Daily limit of 1 source code verifications reached') });
  });
});
