/**
 * Sources built to make a scan of them slow: a megabyte of `/*` that no `*` `/` closes. The
 * service reads sources in one pass (core/solidityOutline), where the comment-stripping regular
 * expressions it had took time quadratic in the length (200 KB held the event loop for ~12 s,
 * 1 MB for minutes) before the key was checked, in the form's contract list, and again in
 * every diagnosis attempt of a contract not found in the compiler's output.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('limits/hostileSources');
const ONLY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Only {
    uint256 public constant MARK = 20314;
}
`;
/** About a megabyte of comment openers that nothing closes. */
const OPENERS = '/* '.repeat(330_000);

let service: RunningService;
let key: string;
let only: Built;
let address: Address;

beforeAll(async () => {
  // A few diagnosis compiles show the scan in each; the default 24 of a megabyte each would only slow the test.
  service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--rate-free', '1000', '--diagnosis-compiles', '4'] });
  key = await createKey(service.dataDir);
  only = await build('0.8.28', standardInput({ 'Only.sol': ONLY }), 'Only.sol', 'Only');
  address = (await deployContract(only.abi, only.bytecode, [], ACCOUNT)).address;
}, 120_000);
afterAll(async () => service?.stop());

/** Other clients' requests, answered while `during` runs: the health check and a lookup. */
async function othersAnsweredDuring<T>(during: Promise<T>): Promise<T> {
  const [health, lookup] = await Promise.all([
    fetch(`${service.baseUrl}/health`).then((r) => r.json()),
    apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address, apikey: key }),
  ]);
  expect(health).toMatchObject({ status: 'ok' });
  expect(lookup.result).toBe('Contract source code not verified');
  return during;
}

describe('a megabyte of unclosed comments', () => {
  it('a keyless Verify & Publish post gets its page, naming the missing key and offering the one contract', async () => {
    const form = new FormData();
    form.set('address', address);
    form.set('format', 'single');
    form.set('source', `${ONLY}${OPENERS}`);
    for (let i = 0; i < 3; i++) {
      // No faster than the form rate (2 a second per client).
      await new Promise((resolve) => setTimeout(resolve, 600));
      const res = await othersAnsweredDuring(fetch(`${service.baseUrl}/verify`, { method: 'POST', body: form }));
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toMatch(/id="apiKey-error"[^>]*>Enter your API key/);
      expect(page).toContain('<option value="Only">');
      // The source comes back as it was sent.
      expect(page).toContain(`${'/* '.repeat(100)}`);
    }
  });

  it('a dry run whose contract the sources do not declare fails naming the one they do, through every diagnosis attempt', async () => {
    // Compilable: the openers are inside a string, where every regular expression took them for comments.
    const source = ONLY.replace('uint256 public constant MARK = 20314;', `uint256 public constant MARK = 20314;\n    string public constant S = "${OPENERS}";`);
    const submitted = await othersAnsweredDuring(
      apiPost(service.apiUrl, {
        module: 'contract',
        action: 'verifysourcecode',
        apikey: key,
        ...singleFileFields(address, only, 'Missing', source),
        dryrun: '1',
      }),
    );
    expect(submitted.status, JSON.stringify(submitted)).toBe('1');
    // While it compiles and is diagnosed (the status check holding its answer until the verdict),
    // another client's lookups are answered, one after another.
    let finished = false;
    const verdictComing = waitForVerdict(service.apiUrl, String(submitted.result), key, { chainid: '31337' }).finally(() => {
      finished = true;
    });
    let answeredWhilePending = 0;
    while (!finished) {
      const lookup = await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address, apikey: key });
      expect(lookup.result).toBe('Contract source code not verified');
      if (!finished) answeredWhilePending++;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(answeredWhilePending).toBeGreaterThan(1);
    const verdict = await verdictComing;
    expect(verdict.result).toMatch(/^Fail - Unable to verify\. Unable to locate ContractName/);
    const receipt = (await (await fetch(`${service.baseUrl}/receipt/${String(submitted.result)}.json`)).json()) as {
      result: { details: { available: string[] } };
      diagnosis: { compiles: number };
    };
    // A single file's path is made up from the contract name, so its contracts are named alone.
    expect(receipt.result.details.available).toEqual(['Only']);
    // Each attempt of the diagnosis compiled and looked for the contract again.
    expect(receipt.diagnosis.compiles).toBeGreaterThan(1);
  });
});
