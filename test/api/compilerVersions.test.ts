import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost, type Envelope, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/compilerVersions');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Versioned { uint256 public constant ANSWER = 18; }
`;

/** The compilers in a cache directory. */
function compilersIn(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'compilers'))
    .filter((f) => /^(soljson|solc)-/.test(f))
    .sort();
}

function quotaText(now: Date): string {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return `Daily limit of 1 source code verifications reached for this API key; it resets at ${midnight.toISOString().replace('.000Z', 'Z')}`;
}

describe('compiler versions as clients write them', () => {
  let dataDir: string;
  let service: RunningService;
  let address: string;
  let second: string;
  let key: string;
  let compilersBefore: string[];

  beforeAll(async () => {
    dataDir = await newDataDir();
    const built = await build('0.8.18', standardInput({ 'Versioned.sol': SOURCE }), 'Versioned.sol', 'Versioned');
    expect(built.compilerVersion).toBe('v0.8.18+commit.87f61d96');
    ({ address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT));
    // Another contract, not a copy: the service verifies a copy by itself once the first is verified.
    const other = await build('0.8.18', standardInput({ 'Versioned.sol': SOURCE.replace('= 18', '= 19') }), 'Versioned.sol', 'Versioned');
    ({ address: second } = await deployContract(other.abi, other.bytecode, [], ACCOUNT));
    key = await createKey(dataDir);
    compilersBefore = compilersIn(dataDir);
    // One submission a day: a refusal that counted would leave none for the real one.
    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir, args: ['--rate-free', '1000', '--daily-verify-quota', '1'] });
  });
  afterAll(async () => service?.stop());

  const submit = (compilerversion: string, contractaddress = address): Promise<Envelope> =>
    apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress,
      sourceCode: SOURCE,
      contractname: 'Versioned',
      compilerversion,
      optimizationUsed: '0',
    });

  it("refuses a wrong or too short commit at once, naming the release's long version, without using the quota or downloading", async () => {
    for (const version of ['v0.8.18+commit.deadbeef', 'v0.8.18+commit.87f61d', 'v0.8.18+commit.87f61d97', '0.8.18+commit.87f61d95.Linux.gcc']) {
      expect(await submit(version), version).toEqual({
        status: '0',
        message: 'NOTOK',
        result: `Invalid parameter compilerversion: "${version}" is not a solc release; did you mean v0.8.18+commit.87f61d96?`,
      });
    }
    expect(compilersIn(dataDir)).toEqual(compilersBefore);
  });

  it('verifies with a shortened commit and no v, using the one submission of the day', async () => {
    const { submit: answer, status } = await verifyAndWait(service.apiUrl, key, {
      contractaddress: address,
      sourceCode: SOURCE,
      contractname: 'Versioned',
      compilerversion: '0.8.18+commit.87f61d9',
      optimizationUsed: '0',
    });
    expect(answer.status, JSON.stringify(answer)).toBe('1');
    expect(status?.result, service.output()).toBe('Pass - Verified');
    const source = await apiPost(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key });
    expect(source.result[0].CompilerVersion).toBe('v0.8.18+commit.87f61d96');
    // The refusals before it did not count: only this one did. (Midnight may pass while it is sent.)
    const sent = new Date();
    const next = await submit('v0.8.18+commit.87f61d96', second);
    expect([quotaText(sent), quotaText(new Date())]).toContain(next.result);
    expect(next.status).toBe('0');
  });
});
