import { encodeFunctionData } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput, standardJsonFields, withImports } from '../helpers/contracts.js';
import { compileVyperForTest, vyperAvailable, vyperInput } from '../helpers/vyper.js';

/*
 * The upgrade check against real parts: OpenZeppelin's upgradeable contracts (5.x, from
 * node_modules) compiled with solc from npm, V1 deployed behind a real ERC1967Proxy on the
 * suite's anvil, V1 and each candidate verified through the service, then `checkupgrade` and
 * the page asked. Every verdict is upgrades-core's, read from what the service compiled.
 */

const ACCOUNT = deployerAccount('api/checkUpgrade');
const { apiUrl, baseUrl, apiKey } = sharedService();
const BOX = 'contracts/Box.sol';
const EDITION = Date.now();

/** A UUPS box in OpenZeppelin's style: its own variables, a gap, an ERC-7201 namespace. */
function box(name: string, vars: string, members: string, extra = ''): string {
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

contract ${name} is Initializable, OwnableUpgradeable, UUPSUpgradeable {
    uint256 public constant EDITION = ${EDITION};

    /// @custom:storage-location erc7201:solproof.test.box
    struct BoxStorage {
${members}
    }

${vars}

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function initialize(address owner_) external initializer {
        __Ownable_init(owner_);
    }

    function setValue(uint256 v) external onlyOwner {
        value = v;
    }
${extra}
    function _authorizeUpgrade(address) internal override onlyOwner {}
}
`;
}

const V1_VARS = `    uint256 public value;
    address public keeper;
    uint256[48] private __gap;`;
const V1_MEMBERS = `        uint256 total;
        address last;`;

const VERSIONS = {
  BoxV1: box('BoxV1', V1_VARS, V1_MEMBERS),
  // A variable appended after the gap: safe.
  BoxV2Append: box('BoxV2Append', `${V1_VARS}\n    uint256 public extra;`, V1_MEMBERS, '\n    event Extra(uint256 v);\n'),
  // A variable inserted before `value`: every later variable moves.
  BoxV2Insert: box('BoxV2Insert', `    uint256 public inserted;\n${V1_VARS}`, V1_MEMBERS),
  // A member inserted in the namespaced struct: the namespace's later members move.
  BoxV2Namespace: box('BoxV2Namespace', V1_VARS, `        uint256 total;\n        uint256 wedged;\n        address last;`),
  // A variable taking one slot of the gap, which shrinks by one: safe.
  BoxV2Gap: box('BoxV2Gap', `    uint256 public value;\n    address public keeper;\n    uint256 public fee;\n    uint256[47] private __gap;`, V1_MEMBERS),
};

async function deployAndVerify(name: keyof typeof VERSIONS): Promise<{ address: string; built: Built }> {
  const built = await build('0.8.28', standardInput(withImports({ [BOX]: VERSIONS[name] }), { optimizer: true, runs: 200 }), BOX, name);
  const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
  const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, built, `${BOX}:${name}`));
  expect(status?.result, JSON.stringify(status)).toBe('Pass - Verified');
  return { address: address.toLowerCase(), built };
}

const check = (params: Record<string, string>): Promise<Envelope> => apiGet(apiUrl, { module: 'contract', action: 'checkupgrade', apikey: apiKey, ...params });

describe('checkupgrade: OpenZeppelin upgradeable contracts behind a real ERC1967Proxy', () => {
  const at: Record<string, string> = {};
  const built: Record<string, Built> = {};
  let proxy = '';
  let beacon = '';
  let beaconProxy = '';

  beforeAll(async () => {
    for (const name of Object.keys(VERSIONS) as (keyof typeof VERSIONS)[]) {
      const done = await deployAndVerify(name);
      at[name] = done.address;
      built[name] = done.built;
    }
    const proxies = standardInput(
      withImports({
        'contracts/Proxies.sol': `pragma solidity ^0.8.22;
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {UpgradeableBeacon} from "@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol";
import {BeaconProxy} from "@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol";
`,
      }),
    );
    const proxyBuilt = await build('0.8.28', proxies, '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol', 'ERC1967Proxy');
    const beaconBuilt = await build('0.8.28', proxies, '@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol', 'UpgradeableBeacon');
    const beaconProxyBuilt = await build('0.8.28', proxies, '@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol', 'BeaconProxy');
    const owner = devnetAccounts(ACCOUNT + 1)[ACCOUNT]!.address;
    const init = encodeFunctionData({
      abi: [{ type: 'function', name: 'initialize', inputs: [{ name: 'owner_', type: 'address' }], outputs: [], stateMutability: 'nonpayable' }],
      args: [owner],
    });
    proxy = (await deployContract(proxyBuilt.abi, proxyBuilt.bytecode, [at['BoxV1'], init], ACCOUNT)).address.toLowerCase();
    beacon = (await deployContract(beaconBuilt.abi, beaconBuilt.bytecode, [at['BoxV1'], owner], ACCOUNT)).address.toLowerCase();
    beaconProxy = (await deployContract(beaconProxyBuilt.abi, beaconProxyBuilt.bytecode, [beacon, init], ACCOUNT)).address.toLowerCase();
  }, 600_000);

  it('a variable appended after the gap is safe; the ABI and source differences are given', async () => {
    const env = await check({ proxy, implementation: at['BoxV2Append']! });
    expect(env.status, JSON.stringify(env)).toBe('1');
    const result = env.result as Record<string, any>;
    expect(result.compatible).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.currentImplementation).toMatchObject({ address: at['BoxV1'], contractName: 'BoxV1', fullyQualifiedName: `${BOX}:BoxV1` });
    expect(result.candidate).toMatchObject({ address: at['BoxV2Append'], contractName: 'BoxV2Append' });
    expect(result.proxyType).toBe('eip1967');
    expect(result.namespaces).toEqual(expect.arrayContaining(['erc7201:solproof.test.box']));
    expect(result.abiDiff.added).toEqual(
      expect.arrayContaining([
        { kind: 'function', signature: 'extra()' },
        { kind: 'event', signature: 'Extra(uint256)' },
      ]),
    );
    expect(result.abiDiff.removed).toEqual([]);
    // Only the contract's own file differs; OpenZeppelin's files are the same.
    expect(result.sourceDiff.changed.map((f: { path: string }) => f.path)).toEqual([BOX]);
    expect(result.sourceDiff.changed[0].diff).toContain('+    uint256 public extra;');
    expect(result.sourceDiff.unchanged).toBeGreaterThan(5);
  });

  it('a variable inserted before the existing ones is unsafe, and named', async () => {
    const env = await check({ proxy, implementation: at['BoxV2Insert']! });
    expect(env.status, JSON.stringify(env)).toBe('1');
    const result = env.result as Record<string, any>;
    expect(result.compatible).toBe(false);
    expect(result.errors[0]).toMatchObject({ kind: 'insert', variable: 'inserted', before: 'value', text: 'inserted `inserted` before `value`' });
    expect(result.errors[0].explanation).toContain('Inserted `inserted`');
  });

  it("a member inserted in an ERC-7201 namespace's struct is unsafe", async () => {
    const env = await check({ proxy, implementation: at['BoxV2Namespace']! });
    expect(env.status, JSON.stringify(env)).toBe('1');
    const result = env.result as Record<string, any>;
    expect(result.compatible).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({
        kind: 'insert',
        variable: 'wedged',
        namespace: 'erc7201:solproof.test.box',
        text: 'inserted `wedged` before `last` in namespace erc7201:solproof.test.box',
      }),
    ]);
  });

  it("a beacon proxy: the implementation is the beacon's", async () => {
    const safe = await check({ proxy: beaconProxy, implementation: at['BoxV2Append']! });
    expect(safe.status, JSON.stringify(safe)).toBe('1');
    expect(safe.result).toMatchObject({ compatible: true, proxyType: 'eip1967_beacon', beacon, currentImplementation: { address: at['BoxV1'] } });
    const unsafe = await check({ proxy: beaconProxy, implementation: at['BoxV2Insert']! });
    expect(unsafe.result).toMatchObject({ compatible: false, errors: [expect.objectContaining({ variable: 'inserted' })] });
  });

  it('a gap shrunk by the variable added before it is safe', async () => {
    const env = await check({ proxy, implementation: at['BoxV2Gap']! });
    expect(env.status, JSON.stringify(env)).toBe('1');
    expect((env.result as Record<string, any>).compatible).toBe(true);
  });

  it('an unpublished candidate: a standard JSON input compiled here, with a key only', async () => {
    const fields = {
      module: 'contract',
      action: 'checkupgrade',
      proxy,
      sourceCode: JSON.stringify(built['BoxV2Insert']!.input),
      contractname: `${BOX}:BoxV2Insert`,
      compilerversion: built['BoxV2Insert']!.compilerVersion,
    };
    const env = await apiPost(apiUrl, { ...fields, apikey: apiKey });
    expect(env.status, JSON.stringify(env).slice(0, 2000)).toBe('1');
    const result = env.result as Record<string, any>;
    expect(result.compatible).toBe(false);
    expect(result.candidate).toEqual({
      address: null,
      contractName: 'BoxV2Insert',
      fullyQualifiedName: `${BOX}:BoxV2Insert`,
      compilerVersion: built['BoxV2Insert']!.compilerVersion,
    });
    expect(result.errors[0]).toMatchObject({ kind: 'insert', variable: 'inserted', before: 'value' });
    expect(result.sourceDiff.changed.map((f: { path: string }) => f.path)).toEqual([BOX]);
    expect(result.abiDiff.added).toEqual([{ kind: 'function', signature: 'inserted()' }]);
    // Without a key, or with a contract the input does not hold, nothing is compiled.
    expect(await apiPost(apiUrl, fields)).toMatchObject({ status: '0', result: expect.stringContaining('needs a valid API key') });
    expect(await apiPost(apiUrl, { ...fields, apikey: apiKey, contractname: 'contracts/Nope.sol:BoxV2Insert' })).toMatchObject({
      status: '0',
      result: expect.stringContaining('the input has no source "contracts/Nope.sol"'),
    });
    // A candidate that does not compile: solc's own error, in one clear answer.
    const input = built['BoxV2Insert']!.input;
    const broken = {
      ...input,
      sources: { ...input.sources, [BOX]: { content: input.sources[BOX]!.content!.replace('uint256 public inserted;', 'uint256 public inserted') } },
    };
    const refused = await apiPost(apiUrl, { ...fields, apikey: apiKey, sourceCode: JSON.stringify(broken) });
    expect(refused).toMatchObject({ status: '0', message: 'NOTOK' });
    expect(refused.result).toMatch(/^Error! The candidate implementation \(the submitted input\) did not compile for its layout: .*ParserError/s);
  });

  it('refusals: not a proxy, a candidate not verified or without a layout, bad input', async () => {
    expect(await check({ proxy: at['BoxV1']!, implementation: at['BoxV2Append']! })).toMatchObject({
      status: '0',
      result: expect.stringContaining('is not a proxy'),
    });
    // A contract of its own, never verified (nor a copy of anything verified).
    const lone = await build('0.8.28', standardInput({ 'Lone.sol': `contract Lone { uint256 public constant RUN = ${Date.now()}; }` }), 'Lone.sol', 'Lone');
    const unverified = (await deployContract(lone.abi, lone.bytecode, [], ACCOUNT)).address.toLowerCase();
    expect(await check({ proxy, implementation: unverified })).toMatchObject({
      status: '0',
      result: `Error! The candidate implementation ${unverified} is not verified: verify it first`,
    });
    expect(await check({ proxy: '0x123', implementation: at['BoxV1']! })).toMatchObject({
      status: '0',
      result: expect.stringContaining('Invalid address format in proxy'),
    });
    expect(await check({ proxy })).toMatchObject({ status: '0', result: 'Missing or empty parameter: implementation' });

    // solc 0.4 gives no storage layout.
    const source = `pragma solidity ^0.4.24;\ncontract OldBox { uint256 public value = ${EDITION}; }\n`;
    const old = await build('0.4.26', standardInput({ 'OldBox.sol': source }), 'OldBox.sol', 'OldBox');
    const { address } = await deployContract(old.abi, old.bytecode, [], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, old, 'OldBox', source));
    expect(status?.result, JSON.stringify(status)).toBe('Pass - Verified');
    expect(await check({ proxy, implementation: address })).toMatchObject({
      status: '0',
      result: `Error! The candidate implementation ${address.toLowerCase()} has no storage layout to compare: it was compiled with a solc before 0.5.13, which gives no storage layout`,
    });
  });

  it.skipIf(!vyperAvailable())('a Vyper candidate has no storage layout to compare', async () => {
    const source = `# pragma version 0.4.3\nvalue: public(uint256)\n\n@deploy\ndef __init__():\n    self.value = ${EDITION}\n`;
    const input = vyperInput({ 'Box.vy': source }, 'Box.vy');
    const { abi, bytecode } = await compileVyperForTest('0.4.3', input, 'Box.vy');
    const { address } = await deployContract(abi as never, bytecode, [], ACCOUNT);
    const { outputSelection: _o, ...settings } = input.settings;
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      codeformat: 'vyper-json',
      contractaddress: address,
      sourceCode: JSON.stringify({ ...input, settings }),
      contractname: 'Box.vy:Box',
      compilerversion: 'vyper:0.4.3',
      optimizationUsed: '0',
    });
    expect(status?.result, JSON.stringify(status)).toBe('Pass - Verified');
    expect(await check({ proxy, implementation: address })).toMatchObject({
      status: '0',
      result: `Error! The candidate implementation ${address.toLowerCase()} has no storage layout to compare: it is Vyper, and only solc gives a storage layout`,
    });
  });

  it('the page: a form, the verdict in words naming the variable, the differences; everything escaped', async () => {
    const res = await fetch(`${baseUrl}/address/${proxy}/upgrade-check?implementation=${at['BoxV2Insert']}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<form class="upgrade-check"');
    expect(page).toContain('Not compatible');
    expect(page).toContain('inserted &#96;inserted&#96; before &#96;value&#96;');
    expect(page).toContain('id="abi-diff"');
    expect(page).toContain('+    uint256 public inserted;');
    expect(page).toContain(`href="/api?module=contract&amp;action=checkupgrade&amp;proxy=${proxy}&amp;implementation=${at['BoxV2Insert']}"`);
    const safe = await (await fetch(`${baseUrl}/address/${proxy}/upgrade-check?implementation=${at['BoxV2Gap']}`)).text();
    expect(safe).toContain('Compatible: ');
    const hostile = await fetch(`${baseUrl}/address/${proxy}/upgrade-check?implementation=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(hostile.status).toBe(400);
    const hostileText = await hostile.text();
    expect(hostileText).not.toContain('<script>alert');
    expect(hostileText).toContain('&lt;script&gt;');

    // A proxy's contract page links to its upgrade check once the proxy is linked.
    const linked = await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', address: proxy, apikey: apiKey });
    expect(linked.status, JSON.stringify(linked)).toBe('1');
    let state = await apiGet(apiUrl, { module: 'contract', action: 'checkproxyverification', guid: linked.result as string, apikey: apiKey });
    for (let i = 0; i < 60 && state.result === 'Pending in queue'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      state = await apiGet(apiUrl, { module: 'contract', action: 'checkproxyverification', guid: linked.result as string, apikey: apiKey });
    }
    const contractPage = await (await fetch(`${baseUrl}/address/${proxy}`)).text();
    expect(contractPage).toContain(`href="/address/${proxy}/upgrade-check"`);
  });
});
