import { type Abi, encodeAbiParameters, encodeFunctionData, keccak256, toHex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { openZeppelinStandardInput } from '../../bench/tokenInput.js';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('proxy/proxyApi');
const { apiUrl, apiKey } = sharedService();

const BOX = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import {UUPSUpgradeable} from "@openzeppelin/contracts/proxy/utils/UUPSUpgradeable.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {BeaconProxy} from "@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol";
import {UpgradeableBeacon} from "@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol";

contract BoxV1 is UUPSUpgradeable {
    uint256 public value;
    function setValue(uint256 v) external { value = v; }
    function version() external pure virtual returns (string memory) { return "v1"; }
    function _authorizeUpgrade(address) internal override {}
}

contract BoxV2 is BoxV1 {
    function version() external pure override returns (string memory) { return "v2"; }
}

/// Has an implementation() getter but delegates nothing: not a proxy.
contract NotAProxy {
    address public implementation;
    constructor(address i) { implementation = i; }
}
`;
const FILE = 'contracts/Box.sol';
const OZ_PROXY = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';

/**
 * The request shapes of OpenZeppelin's upgrades plugin: a form POST (its current callEtherscanApi),
 * or every field in the query string as well (older releases; 3.9.1 sends them in the query with
 * no body, which test/clients/ozUpgrades.test.ts runs for real).
 */
async function callEtherscanApi(params: Record<string, string>, alsoInQuery = false): Promise<Envelope> {
  const body = new URLSearchParams({ ...params, apikey: apiKey });
  const url = alsoInQuery ? `${apiUrl}?${body.toString()}` : apiUrl;
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}

/** The plugin's linkProxyWithImplementationAbi: submit, then poll every 3 s while the result is exactly `Pending in queue`. */
async function linkProxy(proxy: string, implementation: string, alsoInQuery = false): Promise<{ final: Envelope; polls: number }> {
  let response = await callEtherscanApi(
    { module: 'contract', action: 'verifyproxycontract', address: proxy, expectedimplementation: implementation },
    alsoInQuery,
  );
  let polls = 0;
  if (response.status === '1') {
    const guid = response.result as string;
    expect(guid).toMatch(/^[a-z0-9]{50}$/);
    response = await callEtherscanApi({ module: 'contract', action: 'checkproxyverification', guid }, alsoInQuery);
    polls++;
    while (response.result === 'Pending in queue') {
      await new Promise((r) => setTimeout(r, 3000));
      response = await callEtherscanApi({ module: 'contract', action: 'checkproxyverification', guid }, alsoInQuery);
      polls++;
    }
  }
  return { final: response, polls };
}

async function record(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  return env.result[0];
}

describe('verifyproxycontract / checkproxyverification', () => {
  let v1: Built;
  let v2: Built;
  let proxyArtifact: Built;
  let notAProxy: Built;
  let impl1: Address;
  let impl2: Address;
  let proxy: Address;
  let proxyArgs: string;

  beforeAll(async () => {
    const input = openZeppelinStandardInput({ [FILE]: BOX });
    [v1, v2, proxyArtifact, notAProxy] = await Promise.all([
      build('0.8.28', input, FILE, 'BoxV1'),
      build('0.8.28', input, FILE, 'BoxV2'),
      build('0.8.28', input, OZ_PROXY, 'ERC1967Proxy'),
      build('0.8.28', input, FILE, 'NotAProxy'),
    ]);
    impl1 = (await deployContract(v1.abi, v1.bytecode, [], ACCOUNT)).address;
    impl2 = (await deployContract(v2.abi, v2.bytecode, [], ACCOUNT)).address;
    const init = encodeFunctionData({ abi: v1.abi, functionName: 'setValue', args: [5n] });
    proxy = (await deployContract(proxyArtifact.abi, proxyArtifact.bytecode, [impl1, init], ACCOUNT)).address;
    proxyArgs = encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [impl1, init]).slice(2);
  });

  it('OpenZeppelin plugin sequence: verify the implementation and the proxy, link them, getsourcecode shows Proxy 1', async () => {
    const implVerdict = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: impl1,
      sourceCode: JSON.stringify(v1.input),
      codeformat: 'solidity-standard-json-input',
      contractname: `${FILE}:BoxV1`,
      compilerversion: v1.compilerVersion,
    });
    expect(implVerdict.status?.result).toBe('Pass - Verified');
    const proxyVerdict = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: proxy,
      sourceCode: JSON.stringify(proxyArtifact.input),
      codeformat: 'solidity-standard-json-input',
      contractname: `${OZ_PROXY}:ERC1967Proxy`,
      compilerversion: proxyArtifact.compilerVersion,
      constructorArguements: proxyArgs,
    });
    expect(proxyVerdict.status?.result).toBe('Pass - Verified');
    expect((await record(proxy)).Proxy).toBe('0');

    // The plugin finds the proxy's creation through Etherscan's logs module first.
    const upgraded = keccak256(toHex('Upgraded(address)'));
    const logs = await callEtherscanApi({ module: 'logs', action: 'getLogs', fromBlock: '0', toBlock: 'latest', address: proxy, topic0: upgraded });
    expect(logs.status).toBe('1');
    expect(logs.result[0].transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const none = await callEtherscanApi({
      module: 'logs',
      action: 'getLogs',
      fromBlock: '0',
      toBlock: 'latest',
      address: proxy,
      topic0: keccak256(toHex('BeaconUpgraded(address)')),
    });
    expect(none).toEqual({ status: '0', message: 'No records found', result: [] });

    const { final } = await linkProxy(proxy, impl1, true);
    expect(final).toEqual({
      status: '1',
      message: 'OK',
      result: `The proxy's (${proxy}) implementation contract is found at ${impl1} and is successfully updated.`,
    });
    const linked = await record(proxy);
    expect(linked.Proxy).toBe('1');
    expect(linked.Implementation).toBe(impl1);
  });

  it('an upgrade, verified again, updates getsourcecode', async () => {
    const { walletClient, publicClient } = devnetClients(ACCOUNT);
    const hash = await walletClient.writeContract({
      address: proxy,
      abi: v1.abi as Abi,
      functionName: 'upgradeToAndCall',
      args: [impl2, '0x'],
      account: walletClient.account!,
      chain: walletClient.chain,
    });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const { final } = await linkProxy(proxy, impl2);
    expect(final.status).toBe('1');
    expect(final.result).toContain(`found at ${impl2}`);
    expect((await record(proxy)).Implementation).toBe(impl2);
  });

  it('a beacon proxy resolves to the logic contract; OpenZeppelin sends the beacon implementation as expected', async () => {
    const input = openZeppelinStandardInput({ [FILE]: BOX });
    const beaconArtifact = await build('0.8.28', input, '@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol', 'UpgradeableBeacon');
    const beaconProxyArtifact = await build('0.8.28', input, '@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol', 'BeaconProxy');
    const { account } = devnetClients(ACCOUNT);
    const beacon = (await deployContract(beaconArtifact.abi, beaconArtifact.bytecode, [impl1, account], ACCOUNT)).address;
    const init = encodeFunctionData({ abi: v1.abi, functionName: 'setValue', args: [9n] });
    const beaconProxy = (await deployContract(beaconProxyArtifact.abi, beaconProxyArtifact.bytecode, [beacon, init], ACCOUNT)).address;
    const { final } = await linkProxy(beaconProxy, impl1);
    expect(final.result).toBe(`The proxy's (${beaconProxy}) implementation contract is found at ${impl1} and is successfully updated.`);
  });

  it('not a proxy, an account (no code), and an expected implementation that differs', async () => {
    const fake = (await deployContract(notAProxy.abi, notAProxy.bytecode, [impl1], ACCOUNT)).address;
    const notDetected = {
      status: '0',
      message: 'NOTOK',
      result: 'A corresponding implementation contract was unfortunately not detected for the proxy address.',
    };
    expect((await linkProxy(fake, impl1)).final).toEqual(notDetected);
    // An account has no code: refused at submission, after the wait for a lagging node (3 s on the shared service).
    const account = await linkProxy('0x000000000000000000000000000000000000bEEF', impl1);
    expect(account.polls).toBe(0);
    expect(account.final).toMatchObject({ status: '0', message: 'NOTOK' });
    expect(account.final.result).toMatch(
      /^Unable to locate ContractCode at 0x000000000000000000000000000000000000beef: the node had no code there at block \d+ \(still none after waiting 3 s\)$/,
    );
    const { final } = await linkProxy(proxy, impl1.toUpperCase().replace('0X', '0x'));
    expect(final.status).toBe('0');
    expect(final.result).toBe(`The implementation contract found at ${impl2} differs from the expected implementation ${impl1}.`);
    // The earlier link stays.
    expect((await record(proxy)).Implementation).toBe(impl2);
  });

  it('requires POST, a valid key and a valid address', async () => {
    expect((await apiGet(apiUrl, { module: 'contract', action: 'verifyproxycontract', address: proxy, apikey: apiKey })).result).toBe(
      'This action (verifyproxycontract) requires a POST request',
    );
    expect(await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', address: proxy, apikey: 'BAD' })).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Invalid API Key',
    });
    expect((await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', address: '0x1', apikey: apiKey })).result).toBe(
      'Error! Invalid address format',
    );
    expect(
      (await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', address: proxy, expectedimplementation: 'x', apikey: apiKey })).result,
    ).toBe('Invalid parameter expectedimplementation: not a 20-byte hex address');
    expect((await apiGet(apiUrl, { module: 'contract', action: 'checkproxyverification', guid: 'c'.repeat(50) })).result).toBe('Unknown UID');
  });
});
