/**
 * Attack 4 (the first submission wins forever) and the smaller record forgeries of attack
 * 9 (libraries the code never links, a decoy source under a duplicate JSON key), against the
 * real service on anvil.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput, standardJsonFields } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('attacks/firstSubmission');
const { apiUrl, apiKey, baseUrl } = sharedService();

const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A plain token
/// @notice Balances move only by their owner's transfer.
contract PlainToken {
    mapping(address => uint256) public balanceOf;
    constructor() { balanceOf[msg.sender] = 1e24; }
    function transfer(address to, uint256 amount) external {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
    }
}
`;
const SLANDER = TOKEN.replace("Balances move only by their owner's transfer.", 'WARNING: the deployer can drain every balance. Do not use.');

async function record(address: string): Promise<Record<string, string>> {
  return (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result[0] as Record<string, string>;
}

describe('attack 4: the first submission wins forever', () => {
  let token: Built;
  beforeAll(async () => {
    token = await build('0.8.28', standardInput({ 'PlainToken.sol': TOKEN }, { optimizer: true }), 'PlainToken.sol', 'PlainToken');
  });

  // The input as compiled: the owner's language, sources and settings, less the outputSelection the compile ignores.
  const provenInput = () => {
    const { outputSelection: _ignored, ...settings } = token.input.settings;
    return { ...token.input, settings };
  };

  it("a slandering partial match is replaced by the owner's exact sources; the history keeps it", async () => {
    const { address } = await deployContract(token.abi, token.bytecode, [], ACCOUNT);
    const attacker = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, token, 'PlainToken', SLANDER));
    expect(attacker.status?.result).toBe('Pass - Verified');
    expect((await record(address)).MatchKind).toBe('partial');

    // Another partial match improves nothing: the receipt says so.
    const again = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, token, 'PlainToken', SLANDER.replace('Do not use.', 'Run.')));
    expect(again.submit.status).toBe('1');
    expect(again.status?.result).toBe('Already Verified');

    const owner = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, token, 'PlainToken.sol:PlainToken'));
    expect(owner.status).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' });
    const r = await record(address);
    expect(r.MatchKind).toBe('full');
    expect(r.SourceCode).not.toContain('drain');
    expect(JSON.parse(r.SourceCode!.slice(1, -1))).toEqual(provenInput());

    const html = await (await fetch(`${baseUrl}/address/${address}`)).text();
    expect(html).not.toContain('drain every balance');
    expect(html).toMatch(/partial match of <time[^>]*>[^<]*<\/time> \(<a href="\/receipt\/[a-z0-9]{50}">receipt<\/a>\), replaced by a better match/);

    // Nothing can improve a full match: refused at once, as before.
    expect(
      await apiPost(apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...singleFileFields(address, token, 'PlainToken', SLANDER) }),
    ).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code already verified' });
  });

  it('a duplicate JSON key cannot show a decoy source: getsourcecode serves the input as solc read it', async () => {
    const { address } = await deployContract(token.abi, token.bytecode, [], ACCOUNT);
    const real = JSON.stringify(token.input);
    // The decoy comes first in the text; JSON readers (solc's too) keep the last.
    const decoy = JSON.stringify({ content: SLANDER });
    const text = real.replace('"sources":{', `"sources":{"PlainToken.sol":${decoy},`);
    expect(text.indexOf('drain')).toBeGreaterThan(0);
    const { status } = await verifyAndWait(apiUrl, apiKey, { ...standardJsonFields(address, token, 'PlainToken.sol:PlainToken'), sourceCode: text });
    expect(status?.result).toBe('Pass - Verified');
    const r = await record(address);
    expect(r.MatchKind).toBe('full');
    expect(r.SourceCode).not.toContain('drain');
    expect(JSON.parse(r.SourceCode!.slice(1, -1))).toEqual(provenInput());
  });

  it('libraries the code never links are not stored or shown', async () => {
    const { address } = await deployContract(token.abi, token.bytecode, [], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      ...standardJsonFields(address, token, 'PlainToken.sol:PlainToken'),
      libraryname1: 'SafeMath',
      libraryaddress1: '0x00000000000000000000000000000000deadbeef',
    });
    expect(status?.result).toBe('Pass - Verified');
    expect((await record(address)).Library).toBe('');
    expect(await (await fetch(`${baseUrl}/address/${address}`)).text()).not.toContain('SafeMath');
  });
});
