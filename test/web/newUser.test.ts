/**
 * The explorer as a new user found it, through the running service: the Verify & Publish form
 * says where a key comes from and starts from the compiler the deployed code's metadata names;
 * an address without code offers nothing to verify; a dry run's pass on an unverified address
 * does not read as verified.
 */
import { describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost, sharedService, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('web/newUser');
const { baseUrl, apiUrl, apiKey } = sharedService();

const source = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Newcomer {
    string public constant TAG = "${tag}";
    uint256 public visits;

    function visit() external { visits += 1; }
}
`;

const page = async (path: string): Promise<string> => {
  const res = await fetch(`${baseUrl}${path}`);
  expect(res.status).toBe(200);
  return res.text();
};

describe('what a new user meets in the explorer', () => {
  it('the form links to getting a key and starts from the compiler the deployed metadata names', async () => {
    const built = await build('0.8.26', standardInput({ 'Newcomer.sol': source(`form-${Date.now()}`) }), 'Newcomer.sol', 'Newcomer');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const form = await page(`/verify?address=${address}`);
    expect(form).toContain('No key yet? <a href="/keys">How to get one</a>.');
    expect(form).toMatch(/<input type="text" id="compiler" name="compiler" list="compiler-list" value="v0\.8\.26\+commit\.8a97fa7a"/);
    // Without an address there is nothing to read: the field starts empty.
    expect(await page('/verify')).toMatch(/id="compiler" name="compiler" list="compiler-list" value=""/);
  });

  it('an address without code shows no way to verify it', async () => {
    const empty = `0x${'e1'.repeat(20)}`;
    const text = await page(`/address/${empty}`);
    expect(text).toContain('There is no contract code at this address');
    expect(text).not.toContain('How to verify');
    expect(text).not.toContain('Verify &amp; Publish this contract');
  });

  it('a single file pasted from a forge build is a partial match, and the receipt says what gives a full one', async () => {
    const tag = `pasted-${Date.now()}`;
    // Built as forge builds it: the file is src/Newcomer.sol; the form sends it as a single file.
    const built = await build('0.8.28', standardInput({ 'src/Newcomer.sol': source(tag) }, { optimizer: true, runs: 200 }), 'src/Newcomer.sol', 'Newcomer');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const submit = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      ...singleFileFields(address, built, 'Newcomer', source(tag)),
    });
    expect(submit.status).toBe('1');
    expect((await waitForVerdict(apiUrl, submit.result, apiKey)).result).toBe('Pass - Verified');
    const receipt = await page(`/receipt/${submit.result}`);
    expect(receipt).toContain('<p class="notice info" id="partial-advice">A partial match:');
    expect(receipt).toContain('submit its build-info file (Foundry: out/build-info/*.json after forge build --build-info');
    expect(receipt).toContain('or its standard JSON input (forge verify-contract --show-standard-json-input)');
  });

  it("a dry run's pass on an unverified address reads as a dry run, not as verified", async () => {
    const tag = `dry-${Date.now()}`;
    const built = await build('0.8.28', standardInput({ 'Newcomer.sol': source(tag) }), 'Newcomer.sol', 'Newcomer');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const submit = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      dryrun: '1',
      ...singleFileFields(address, built, 'Newcomer', source(tag)),
    });
    expect(submit.status).toBe('1');
    expect((await waitForVerdict(apiUrl, submit.result, apiKey)).result).toMatch(/^Pass - Verified \(dry run/);
    const text = await page(`/address/${address}`);
    expect(text).toContain('<span class="badge warn">Not verified</span>');
    expect(text).toContain('<span class="badge info">Dry run: would verify</span>');
    expect(text).not.toContain('<span class="badge ok">Passed</span>');
  });
});
