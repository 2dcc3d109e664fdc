/**
 * Etherscan's V2 path: clients configured by analogy with Etherscan V2 send
 * `<base>/v2/api?chainid=<id>&module=…`. It is the same API as `/api`, byte for byte. curl
 * here; forge (test/clients/foundryScript.test.ts) and hardhat-verify
 * (test/clients/hardhatVerify.test.ts) are configured that way in their own tests.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { sharedService } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('api/v2Path');
const { baseUrl, apiKey } = sharedService();
const ZERO = '0x0000000000000000000000000000000000000000';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Multichain {
    uint256 public constant ROUTE = 20260402;
    uint256 public hops;

    function hop() external { hops += ROUTE % 7; }
}
`;

/** curl, as a user pastes it: the body and the HTTP status. */
async function curl(url: string, form?: Record<string, string>): Promise<{ status: number; body: string }> {
  const args = ['-s', '-w', '\n%{http_code}', url];
  for (const [k, v] of Object.entries(form ?? {})) args.push('--data-urlencode', `${k}=${v}`);
  const { stdout } = await promisify(execFile)('curl', args, { env: { PATH: process.env.PATH ?? '' }, maxBuffer: 8 * 1024 * 1024 });
  const cut = stdout.lastIndexOf('\n');
  return { body: stdout.slice(0, cut), status: Number(stdout.slice(cut + 1)) };
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe("Etherscan's V2 path, /v2/api?chainid=…", () => {
  it('answers every read, refusal and unknown action exactly as /api does', async () => {
    const cases: Record<string, string>[] = [
      { module: 'contract', action: 'getabi', address: ZERO, apikey: apiKey },
      { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: apiKey },
      { module: 'contract', action: 'checkverifystatus', guid: 'x'.repeat(50), apikey: apiKey },
      { module: 'contract', action: 'nosuchaction', apikey: apiKey },
      { module: 'contract', action: 'getabi', address: 'not-an-address', apikey: apiKey },
    ];
    for (const params of cases) {
      const v1 = await curl(`${baseUrl}/api?${query({ chainid: '31337', ...params })}`);
      const v2 = await curl(`${baseUrl}/v2/api?${query({ chainid: '31337', ...params })}`);
      expect(v2, JSON.stringify(params)).toEqual(v1);
      expect(v2.status).toBe(200);
      expect(JSON.parse(v2.body)).toHaveProperty('status');
    }
    // Another chain is refused with the same words on both paths.
    const other = { chainid: '1', module: 'contract', action: 'getabi', address: ZERO, apikey: apiKey };
    const refused = await curl(`${baseUrl}/v2/api?${query(other)}`);
    expect(refused).toEqual(await curl(`${baseUrl}/api?${query(other)}`));
    expect(JSON.parse(refused.body)).toMatchObject({ status: '0', result: expect.stringContaining('31337') });
    // A path under it that is no route is JSON, as under /api.
    expect((await curl(`${baseUrl}/v2/api/nothing-here`)).status).toBe(404);
    expect(JSON.parse((await curl(`${baseUrl}/v2/api/nothing-here`)).body)).toMatchObject({ statusCode: 404 });
  });

  it('verifies: submit, status and the record through /v2/api', async () => {
    const built = await build('0.8.28', standardInput({ 'Multichain.sol': SOURCE }, { optimizer: true, runs: 200 }), 'Multichain.sol', 'Multichain');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const v2 = `${baseUrl}/v2/api?chainid=31337`;
    const submitted = JSON.parse(
      (await curl(v2, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...singleFileFields(address, built, 'Multichain', SOURCE) })).body,
    );
    expect(submitted).toMatchObject({ status: '1', result: expect.stringMatching(/^[0-9a-z]{50}$/) });
    let status: { status: string; result: string };
    do status = JSON.parse((await curl(`${v2}&${query({ module: 'contract', action: 'checkverifystatus', guid: submitted.result, apikey: apiKey })}`)).body);
    while (status.result === 'Pending in queue');
    expect(status).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' });
    const read = { module: 'contract', action: 'getsourcecode', address, apikey: apiKey };
    const record = await curl(`${v2}&${query(read)}`);
    expect(record).toEqual(await curl(`${baseUrl}/api?${query(read)}`));
    expect(JSON.parse(record.body).result[0]).toMatchObject({ ContractName: 'Multichain', MatchKind: 'full' });
  });
});
