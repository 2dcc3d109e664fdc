import { type Abi, encodeAbiParameters, encodeFunctionData, type Hex } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { startRpcProxy } from '../helpers/rpcProxy.js';
import { createKey, newDataDir, startService } from '../helpers/service.js';
import { STORAGE_KINDS_PATH, storageKindsSource } from '../helpers/storageKinds.js';
import { openZeppelinSources } from './fixtures.js';

/*
 * The Storage tab's values, read from the chain: a contract with a variable of every kind,
 * deployed and verified through the service, its page compared with what its own getters
 * return; and an ERC1967Proxy in front of an OpenZeppelin upgradeable token (ERC-7201
 * namespaces), whose page shows the proxy's storage with the implementation's layout.
 */

const ACCOUNT = deployerAccount('web/storageValues');
const { apiUrl, baseUrl, apiKey } = sharedService();
const { publicClient, walletClient, account } = devnetClients(ACCOUNT);
const EDITION = Date.now();
const PROXY_PATH = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';
const TOKEN_PATH = 'contracts/StoredToken.sol';
const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";

contract StoredToken is ERC20Upgradeable, OwnableUpgradeable {
    uint256 public constant EDITION = ${EDITION};
    uint256 public version;

    constructor() {
        _disableInitializers();
    }

    function initialize(string calldata name_, string calldata symbol_, address owner_, uint256 supply) external initializer {
        __ERC20_init(name_, symbol_);
        __Ownable_init(owner_);
        _mint(owner_, supply);
        version = 2;
    }

    function initializedVersion() external view returns (uint64) {
        return _getInitializedVersion();
    }
}
`;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`' };
const fromHtml = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (e) => ENTITIES[e]!);

/** The rows of the tables in an HTML fragment: name → value as shown. */
function rowsIn(fragment: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of fragment.matchAll(/<tr data-name="([^"]*)">.*?<td class="[^"]*storage-value">(.*?)<\/td><\/tr>/gs))
    rows.set(fromHtml(m[1]!), fromHtml(m[2]!.replace(/\s*<form class="lookup"[\s\S]*?<\/form>/, '')));
  return rows;
}

/** A storage page cut into its parts: the contract's own table, its namespaces, and the storage as proxy. */
function storageParts(page: string): {
  own: Map<string, string>;
  namespaces: Map<string, Map<string, string>>;
  proxy: string;
  block: bigint | null;
  ownHtml: string;
} {
  const panel = page.slice(page.indexOf('<section class="tab-panel" id="storage">'));
  const section = panel.slice(0, panel.indexOf('</section>'));
  const proxyAt = section.indexOf('id="storage-as-proxy"');
  const ownPart = proxyAt < 0 ? section : section.slice(0, proxyAt);
  const namespacesAt = ownPart.indexOf('<h3>Namespaced storage');
  const namespaces = new Map<string, Map<string, string>>();
  for (const part of ownPart.split('<h4 class="namespace" data-namespace="').slice(1)) namespaces.set(fromHtml(part.slice(0, part.indexOf('"'))), rowsIn(part));
  const block = /id="storage-block">(\d+)</.exec(section)?.[1];
  return {
    own: rowsIn(namespacesAt < 0 ? ownPart : ownPart.slice(0, namespacesAt)),
    namespaces,
    proxy: proxyAt < 0 ? '' : section.slice(proxyAt),
    block: block ? BigInt(block) : null,
    ownHtml: ownPart,
  };
}

async function contractPageHtml(address: Address): Promise<string> {
  const res = await fetch(`${baseUrl}/address/${address}`);
  expect(res.status).toBe(200);
  return res.text();
}

async function verified(address: Address, built: Built, contract: string, extra: Record<string, string> = {}): Promise<void> {
  const { submit, status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, built, contract, extra));
  expect(submit.status, JSON.stringify(submit)).toBe('1');
  expect(status?.result, JSON.stringify(status)).toMatch(/^Pass - Verified|^Already Verified/);
}

const read = (address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
  publicClient.readContract({ address, abi, functionName, args }) as Promise<any>;

describe('the Storage tab shows what the storage holds', () => {
  let kinds: Built;
  let kindsAddress: Address;
  let deployedAt: bigint;
  const longName = `long name ${'ünïcödé '.repeat(6)}${EDITION}`;
  const blob = `0x${'ab'.repeat(150)}${'cd'.repeat(150)}` as Hex;

  beforeAll(async () => {
    kinds = await build('0.8.28', standardInput({ [STORAGE_KINDS_PATH]: storageKindsSource(EDITION) }), STORAGE_KINDS_PATH, 'StorageKinds');
    const args = [2n ** 200n + BigInt(EDITION), -5, -(10n ** 30n) - BigInt(EDITION), 'short <b>name</b>', longName, blob] as const;
    const deployed = await deployContract(kinds.abi, kinds.bytecode, args, ACCOUNT);
    kindsAddress = deployed.address;
    deployedAt = (await publicClient.getTransactionReceipt({ hash: deployed.transactionHash })).blockNumber;
    await verified(kindsAddress, kinds, `${STORAGE_KINDS_PATH}:StorageKinds`, {
      constructorArguements: encodeAbiParameters(kinds.abi.find((x) => x.type === 'constructor')!.inputs as never, args as never).slice(2),
    });
  });

  it('decodes every kind of variable as the contract itself reads it, at the block it names', async () => {
    const page = await contractPageHtml(kindsAddress);
    const { own, namespaces, block } = storageParts(page);
    const get = (name: string, args: unknown[] = []) => read(kindsAddress, kinds.abi, name, args);
    expect(block).not.toBeNull();
    expect(block!).toBeGreaterThanOrEqual(deployedAt);
    expect(block!).toBeLessThanOrEqual(await publicClient.getBlockNumber());

    const phaseNames = /enum Phase \{([^}]*)\}/
      .exec(storageKindsSource(EDITION))![1]!
      .split(',')
      .map((s) => s.trim());
    expect(own.get('big')).toBe(String(await get('big')));
    expect(own.get('small')).toBe(String(await get('small')));
    expect(own.get('small')).toMatch(/^-/);
    expect(own.get('neg')).toBe(String(await get('neg')));
    expect(own.get('flag')).toBe(String(await get('flag')));
    expect(own.get('owner')).toBe((await get('owner')).toLowerCase());
    const phase = Number(await get('phase'));
    expect(own.get('phase')).toBe(`Phase.${phaseNames[phase]} (${phase})`);
    expect(own.get('selector')).toBe(await get('selector'));
    expect(own.get('token')).toBe((await get('token')).toLowerCase());
    expect(own.get('root')).toBe(await get('root'));
    expect(own.get('shortName')).toBe(JSON.stringify(await get('shortName')));
    expect(own.get('longName')).toBe(JSON.stringify(await get('longName')));
    const blobRead = (await get('blob')) as Hex;
    expect(own.get('blob')).toBe(`${blobRead.slice(0, 2 + 2 * 256)}… (${(blobRead.length - 2) / 2} bytes)`);
    expect(own.get('list')).toBe(`length ${await get('listLength')}`);
    expect(own.get('balances')).toBe('mapping');
    const [amount, delta, closed, who] = (await get('position')) as [bigint, bigint, boolean, string];
    expect(own.get('position.amount')).toBe(String(amount));
    expect(own.get('position.delta')).toBe(String(delta));
    expect(own.get('position.closed')).toBe(String(closed));
    expect(own.get('position.who')).toBe(who.toLowerCase());
    for (const i of [0, 1, 2]) expect(own.get(`triple[${i}]`)).toBe(String(await get('triple', [BigInt(i)])));
    expect(own.get('gap')).toMatch(/^40 elements \(not shown/);
    expect(own.get('price')).toBe(String(await get('price')));
    expect(own.get('price')).toMatch(/^-/);

    const [counter, ready, keeper, title, kindsPhase, items] = (await get('kinds')) as [bigint, boolean, string, string, number, bigint];
    const kindsRows = namespaces.get('solproof.storage.Kinds')!;
    expect(kindsRows).toBeDefined();
    expect(kindsRows.get('counter')).toBe(String(counter));
    expect(kindsRows.get('ready')).toBe(String(ready));
    expect(kindsRows.get('keeper')).toBe(keeper.toLowerCase());
    expect(kindsRows.get('title')).toBe(JSON.stringify(title));
    expect(kindsRows.get('credits')).toBe('mapping');
    expect(kindsRows.get('phase')).toBe(`Phase.${phaseNames[kindsPhase]} (${kindsPhase})`);
    expect(kindsRows.get('items')).toBe(`length ${items}`);
    // What a source says is shown as text, never as markup.
    expect(page).toContain('&quot;short &lt;b&gt;name&lt;/b&gt;&quot;');
  });

  it('shows a proxy its own storage read with its implementation layout, ERC-7201 namespaces included', async () => {
    const tokenSources = {
      ...openZeppelinSources('@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol'),
      ...openZeppelinSources('@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol'),
      [TOKEN_PATH]: TOKEN,
    };
    const token = await build('0.8.28', standardInput(tokenSources), TOKEN_PATH, 'StoredToken');
    // Built as no other test builds it (solc 0.8.26, 7 optimizer runs): its code is no copy of a proxy another test verified on the shared service.
    const proxyBuilt = await build('0.8.26', standardInput(openZeppelinSources(PROXY_PATH), { optimizer: true, runs: 7 }), PROXY_PATH, 'ERC1967Proxy');
    const implementation = (await deployContract(token.abi, token.bytecode, [], ACCOUNT)).address;
    const initData = encodeFunctionData({
      abi: token.abi,
      functionName: 'initialize',
      args: [`Stored values token <i>${EDITION}</i> with a name longer than a slot`, 'SVT', account, 10n ** 24n + BigInt(EDITION)],
    });
    const proxy = (await deployContract(proxyBuilt.abi, proxyBuilt.bytecode, [implementation, initData], ACCOUNT)).address;
    await verified(implementation, token, `${TOKEN_PATH}:StoredToken`);
    const submit = await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', apikey: apiKey, address: proxy });
    expect(submit.status).toBe('1');
    let status = submit;
    for (let i = 0; i < 600; i++) {
      status = await apiGet(apiUrl, { module: 'contract', action: 'checkproxyverification', guid: submit.result, apikey: apiKey });
      if (status.result !== 'Pending in queue') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status.status, JSON.stringify(status)).toBe('1');

    // The proxy's own code not verified yet: its page offers the storage as proxy beside Read/Write as Proxy.
    const unverified = await contractPageHtml(proxy);
    expect(unverified).toContain('Not verified');
    expect(unverified).toContain('<a href="#storage" aria-selected="false">Storage as Proxy</a>');
    const early = storageParts(`<section class="tab-panel" id="storage">${storageParts(unverified).proxy.replace('id="storage-as-proxy"', '')}</section>`);
    expect(early.namespaces.get('openzeppelin.storage.ERC20')!.get('_symbol')).toBe(JSON.stringify(await read(proxy, token.abi, 'symbol')));

    await verified(proxy, proxyBuilt, `${PROXY_PATH}:ERC1967Proxy`, {
      constructorArguements: encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [implementation, initData]).slice(2),
    });
    const page = await contractPageHtml(proxy);
    const parts = storageParts(page);
    expect(parts.ownHtml).toContain('No state variable in storage.');
    expect(parts.proxy).toContain('Storage as proxy');
    expect(parts.proxy).toContain(`href="/address/${implementation}"`);
    const asProxy = storageParts(`<section class="tab-panel" id="storage">${parts.proxy.replace('id="storage-as-proxy"', '')}</section>`);
    const viaProxy = (name: string) => read(proxy, token.abi, name);
    expect(asProxy.own.get('version')).toBe(String(await viaProxy('version')));
    const erc20 = asProxy.namespaces.get('openzeppelin.storage.ERC20')!;
    expect(erc20.get('_name')).toBe(JSON.stringify(await viaProxy('name')));
    expect(erc20.get('_symbol')).toBe(JSON.stringify(await viaProxy('symbol')));
    expect(erc20.get('_totalSupply')).toBe(String(await viaProxy('totalSupply')));
    expect(erc20.get('_balances')).toBe('mapping');
    expect(asProxy.namespaces.get('openzeppelin.storage.Ownable')!.get('_owner')).toBe((await viaProxy('owner')).toLowerCase());
    const initializable = asProxy.namespaces.get('openzeppelin.storage.Initializable')!;
    expect(initializable.get('_initialized')).toBe(String(await viaProxy('initializedVersion')));
    expect(initializable.get('_initializing')).toBe('false');
    // Each mapping row offers a key lookup (a plain GET form).
    expect(parts.proxy).toContain('<input type="hidden" name="map" value="_balances">');

    // After a real transfer, a balance looked up by its key: the holder's and the receiver's, as balanceOf gives them.
    const receiver = '0x00000000000000000000000000000000000b0b00';
    const transfer = await walletClient.writeContract({
      address: proxy,
      abi: token.abi,
      functionName: 'transfer',
      args: [receiver, 12345n],
      account: walletClient.account!,
      chain: walletClient.chain,
    });
    expect((await publicClient.waitForTransactionReceipt({ hash: transfer })).status).toBe('success');
    const balanceOf = (who: string) => read(proxy, token.abi, 'balanceOf', [who]);
    for (const who of [account, receiver]) {
      const looked = storageParts(await contractPageHtml(`${proxy}?map=_balances&key=${who}` as Address));
      const rows = storageParts(`<section class="tab-panel" id="storage">${looked.proxy.replace('id="storage-as-proxy"', '')}</section>`);
      expect(rows.namespaces.get('openzeppelin.storage.ERC20')!.get(`_balances[${who}]`)).toBe(String(await balanceOf(who)));
    }
    expect(String(await balanceOf(receiver))).toBe('12345');
    // A key that is no address is named as such, never read.
    const wrong = storageParts(await contractPageHtml(`${proxy}?map=_balances&key=nobody` as Address));
    expect(wrong.proxy).toContain('not a key of this mapping (address): not an address (0x and 40 hex digits)');

    // The implementation's own page: its initializers disabled, nothing else written.
    const own = storageParts(await contractPageHtml(implementation));
    expect(own.proxy).toBe('');
    expect(own.namespaces.get('openzeppelin.storage.Initializable')!.get('_initialized')).toBe(
      String(await read(implementation, token.abi, 'initializedVersion')),
    );
    expect(own.namespaces.get('openzeppelin.storage.ERC20')!.get('_name')).toBe(JSON.stringify(await read(implementation, token.abi, 'name')));
  });
});

describe('a node that does not answer storage reads', () => {
  it('leaves the layout without values after the time limit, with a note, and reads again on the next visit', async () => {
    const node = await startRpcProxy(inject('rpcUrl'));
    const dataDir = await newDataDir();
    const key = await createKey(dataDir);
    const service = await startService({ rpcUrl: node.url, dataDir, args: ['--rate-free', '1000'] });
    try {
      const kinds = await build('0.8.28', standardInput({ [STORAGE_KINDS_PATH]: storageKindsSource(EDITION + 1) }), STORAGE_KINDS_PATH, 'StorageKinds');
      const args = [5n, -1, -2n, 'a', 'b', '0x'] as const;
      const { address } = await deployContract(kinds.abi, kinds.bytecode, args, ACCOUNT);
      const constructorArguements = encodeAbiParameters(kinds.abi.find((x) => x.type === 'constructor')!.inputs as never, args as never).slice(2);
      const { status } = await verifyAndWait(
        service.apiUrl,
        key,
        standardJsonFields(address, kinds, `${STORAGE_KINDS_PATH}:StorageKinds`, { constructorArguements }),
      );
      expect(status?.result, service.output()).toBe('Pass - Verified');

      node.silent.add('eth_getStorageAt');
      const started = Date.now();
      const res = await fetch(`${service.baseUrl}/address/${address}`);
      const took = Date.now() - started;
      const page = await res.text();
      expect(res.status).toBe(200);
      // The page waits for the node 2 s, not the reader's own 10 s timeout.
      expect(took).toBeLessThan(6000);
      expect(page).toContain('did not answer within 2 s, so the layout is shown without values');
      const slow = storageParts(page);
      expect(slow.block).toBeNull();
      expect(slow.own.get('big')).toBe('');
      expect(node.calls.get('eth_getStorageAt')).toBeGreaterThan(0);

      node.silent.clear();
      const again = storageParts(await (await fetch(`${service.baseUrl}/address/${address}`)).text());
      expect(again.own.get('big')).toBe(String(await read(address, kinds.abi, 'big')));
    } finally {
      await service.stop();
      await node.close();
    }
  });
});
