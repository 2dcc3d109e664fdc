import { type Abi, encodeFunctionData } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, type Envelope, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields, withImports } from '../helpers/contracts.js';

/*
 * A proxy's implementation history against real parts: a UUPS box V1 behind a real
 * ERC1967Proxy on the suite's anvil, upgraded to V2 then V3 by its owner with real
 * upgradeToAndCall transactions; the shared service's chain follower reads the Upgraded events.
 * `checkupgrade` then lists V1, V2, V3 with their blocks, and with `against=` compares a
 * candidate with an earlier one: the candidate retypes `extra`, which V2 and V3 declare as
 * uint256 and V1 does not have, so it is unsafe against V3 and safe against V1.
 */

const ACCOUNT = deployerAccount('api/proxyHistory');
const { apiUrl, baseUrl, apiKey } = sharedService();
const BOXES = 'contracts/Boxes.sol';
const EDITION = Date.now();

const box = (name: string, vars: string, extra = '') => `
contract ${name} is Initializable, OwnableUpgradeable, UUPSUpgradeable {
    uint256 public constant EDITION = ${EDITION};
${vars}
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function initialize(address owner_) external initializer {
        __Ownable_init(owner_);
    }
${extra}
    function _authorizeUpgrade(address) internal override onlyOwner {}
}
`;

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
${box('HistoryBoxV1', '    uint256 public value;')}
${box('HistoryBoxV2', '    uint256 public value;\n    uint256 public extra;')}
${box('HistoryBoxV3', '    uint256 public value;\n    uint256 public extra;', '\n    function bump() external {\n        extra += 1;\n    }\n')}
${box('HistoryBoxNext', '    uint256 public value;\n    address public extra;')}
`;

const NAMES = ['HistoryBoxV1', 'HistoryBoxV2', 'HistoryBoxV3', 'HistoryBoxNext'] as const;
type Name = (typeof NAMES)[number];

const UPGRADE_ABI = [
  {
    type: 'function',
    name: 'upgradeToAndCall',
    inputs: [
      { name: 'newImplementation', type: 'address' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [],
    stateMutability: 'payable',
  },
] as const satisfies Abi;

const check = (params: Record<string, string>): Promise<Envelope> => apiGet(apiUrl, { module: 'contract', action: 'checkupgrade', apikey: apiKey, ...params });

interface HistoryEntry {
  implementation: string;
  blockNumber: number;
  transactionHash: string;
  verified: boolean;
  contractName: string | null;
  hasLayout: boolean;
}

describe("checkupgrade: a proxy's implementation history, read from its Upgraded events", () => {
  const at = {} as Record<Name, Address>;
  let proxy: Address;
  let beaconProxy: Address;
  /** Where each implementation became the beacon proxy's: its own BeaconUpgraded, then the beacon's upgrade. */
  const beaconBecame: { implementation: Address; blockNumber: number; transactionHash: Hex }[] = [];
  /** Where each implementation became the proxy's: its block and transaction. */
  const became: { implementation: Address; blockNumber: number; transactionHash: Hex }[] = [];

  beforeAll(async () => {
    const input = standardInput(withImports({ [BOXES]: SOURCE }), { optimizer: true, runs: 200 });
    const built = {} as Record<Name, Built>;
    for (const name of NAMES) {
      built[name] = await build('0.8.28', input, BOXES, name);
      at[name] = (await deployContract(built[name].abi, built[name].bytecode, [], ACCOUNT)).address.toLowerCase() as Address;
    }
    // Verified one after another: the first compiles, the others find its compilation.
    for (const name of NAMES) {
      const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(at[name], built[name], `${BOXES}:${name}`));
      expect(status?.result, JSON.stringify(status)).toBe('Pass - Verified');
    }

    const proxyInput = standardInput(
      withImports({
        'contracts/Proxy.sol': `pragma solidity ^0.8.22;
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {UpgradeableBeacon} from "@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol";
import {BeaconProxy} from "@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol";
`,
      }),
    );
    const proxyBuilt = await build('0.8.28', proxyInput, '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol', 'ERC1967Proxy');
    const { publicClient, walletClient, account } = devnetClients(ACCOUNT);
    const init = encodeFunctionData({
      abi: [{ type: 'function', name: 'initialize', inputs: [{ name: 'owner_', type: 'address' }], outputs: [], stateMutability: 'nonpayable' }],
      args: [account],
    });
    const deployed = await deployContract(proxyBuilt.abi, proxyBuilt.bytecode, [at.HistoryBoxV1, init], ACCOUNT);
    proxy = deployed.address.toLowerCase() as Address;
    const deployReceipt = await publicClient.getTransactionReceipt({ hash: deployed.transactionHash });
    became.push({ implementation: at.HistoryBoxV1, blockNumber: Number(deployReceipt.blockNumber), transactionHash: deployed.transactionHash });
    for (const next of [at.HistoryBoxV2, at.HistoryBoxV3]) {
      const hash = await walletClient.writeContract({
        address: proxy,
        abi: UPGRADE_ABI,
        functionName: 'upgradeToAndCall',
        args: [next, '0x'],
        account: walletClient.account!,
        chain: walletClient.chain,
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      expect(receipt.status).toBe('success');
      became.push({ implementation: next, blockNumber: Number(receipt.blockNumber), transactionHash: hash });
    }

    // A beacon proxy: its BeaconUpgraded brings the beacon's V1, the beacon's own Upgraded then V2.
    const beaconBuilt = await build('0.8.28', proxyInput, '@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol', 'UpgradeableBeacon');
    const beaconProxyBuilt = await build('0.8.28', proxyInput, '@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol', 'BeaconProxy');
    const beacon = (await deployContract(beaconBuilt.abi, beaconBuilt.bytecode, [at.HistoryBoxV1, account], ACCOUNT)).address.toLowerCase() as Address;
    const bp = await deployContract(beaconProxyBuilt.abi, beaconProxyBuilt.bytecode, [beacon, init], ACCOUNT);
    beaconProxy = bp.address.toLowerCase() as Address;
    const bpReceipt = await publicClient.getTransactionReceipt({ hash: bp.transactionHash });
    beaconBecame.push({ implementation: at.HistoryBoxV1, blockNumber: Number(bpReceipt.blockNumber), transactionHash: bp.transactionHash });
    const hash = await walletClient.writeContract({
      address: beacon,
      abi: [{ type: 'function', name: 'upgradeTo', inputs: [{ name: 'newImplementation', type: 'address' }], outputs: [], stateMutability: 'nonpayable' }],
      functionName: 'upgradeTo',
      args: [at.HistoryBoxV2],
      account: walletClient.account!,
      chain: walletClient.chain,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe('success');
    beaconBecame.push({ implementation: at.HistoryBoxV2, blockNumber: Number(receipt.blockNumber), transactionHash: hash });
  }, 120_000);

  /** The check's answer once the follower has read the last upgrade's block (it follows the chain every second). */
  async function checkWhenFollowed(params: Record<string, string>, expected = became.length): Promise<Envelope> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const env = await check(params);
      const history = (env.result as { history?: HistoryEntry[] } | undefined)?.history ?? [];
      if (env.status !== '1' || history.length >= expected || Date.now() > deadline) return env;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('lists V1, V2 and V3 in order, with the blocks and transactions that made each the implementation', async () => {
    const env = await checkWhenFollowed({ proxy, implementation: at.HistoryBoxNext });
    expect(env.status, JSON.stringify(env).slice(0, 2000)).toBe('1');
    const result = env.result as { history: HistoryEntry[]; currentImplementation: { address: string }; against: string | null; compatible: boolean };
    expect(result.history).toEqual(
      became.map((b, i) => ({
        implementation: b.implementation,
        blockNumber: b.blockNumber,
        transactionHash: b.transactionHash.toLowerCase(),
        verified: true,
        contractName: NAMES[i],
        hasLayout: true,
      })),
    );
    // By default the candidate is compared with the current implementation, V3: `extra` retyped.
    expect(result.currentImplementation.address).toBe(at.HistoryBoxV3);
    expect(result.against).toBeNull();
    expect(result.compatible).toBe(false);
    expect((env.result as { errors: { variable: string }[] }).errors.map((e) => e.variable)).toContain('extra');
  });

  it('against= an earlier implementation compares the candidate with it', async () => {
    const v1 = await checkWhenFollowed({ proxy, implementation: at.HistoryBoxNext, against: at.HistoryBoxV1 });
    expect(v1.status, JSON.stringify(v1).slice(0, 2000)).toBe('1');
    // V1 has no `extra`: the candidate only appends a variable.
    expect(v1.result).toMatchObject({
      compatible: true,
      errors: [],
      against: at.HistoryBoxV1,
      currentImplementation: { address: at.HistoryBoxV1, contractName: 'HistoryBoxV1' },
    });
    const v2 = await check({ proxy, implementation: at.HistoryBoxNext, against: at.HistoryBoxV2 });
    expect(v2.result).toMatchObject({ compatible: false, against: at.HistoryBoxV2, currentImplementation: { address: at.HistoryBoxV2 } });
    // The current implementation named is the default.
    const v3 = await check({ proxy, implementation: at.HistoryBoxNext, against: at.HistoryBoxV3 });
    expect(v3.result).toMatchObject({ compatible: false, against: null, currentImplementation: { address: at.HistoryBoxV3 } });
  });

  it('against= an address the proxy never had is refused', async () => {
    // A verified contract, but never this proxy's implementation.
    const env = await checkWhenFollowed({ proxy, implementation: at.HistoryBoxNext, against: at.HistoryBoxNext });
    expect(env).toEqual({
      status: '0',
      message: 'NOTOK',
      result: `Error! ${at.HistoryBoxNext} is not an implementation of the proxy ${proxy}: against= takes one of the implementations its history lists (its upgrade events read from the chain), or none for the current one`,
    });
    expect(await check({ proxy, implementation: at.HistoryBoxNext, against: '0x12' })).toMatchObject({
      status: '0',
      result: expect.stringContaining('Invalid address format in against'),
    });
  });

  it("a beacon proxy: the beacon's implementations, from the proxy's BeaconUpgraded on", async () => {
    const env = await checkWhenFollowed({ proxy: beaconProxy, implementation: at.HistoryBoxNext }, beaconBecame.length);
    expect(env.status, JSON.stringify(env).slice(0, 2000)).toBe('1');
    const result = env.result as { history: HistoryEntry[]; proxyType: string; compatible: boolean };
    expect(result.proxyType).toBe('eip1967_beacon');
    expect(result.history.map((h) => [h.implementation, h.blockNumber, h.transactionHash])).toEqual(
      beaconBecame.map((b) => [b.implementation, b.blockNumber, b.transactionHash.toLowerCase()]),
    );
    // Against V2 (now) the retyped `extra` breaks; against V1 it is only appended.
    expect(result.compatible).toBe(false);
    const v1 = await check({ proxy: beaconProxy, implementation: at.HistoryBoxNext, against: at.HistoryBoxV1 });
    expect(v1.result).toMatchObject({ compatible: true, against: at.HistoryBoxV1 });
  });

  it('the page: the history as a table, each row linking to the implementation, its layout and a check against it', async () => {
    await checkWhenFollowed({ proxy, implementation: at.HistoryBoxNext });
    const res = await fetch(`${baseUrl}/address/${proxy}/upgrade-check?implementation=${at.HistoryBoxNext}&against=${at.HistoryBoxV1}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('id="history"');
    expect(page).toContain('Compatible: ');
    for (const b of became) {
      expect(page).toContain(`href="/address/${b.implementation}"`);
      expect(page).toContain(`href="/address/${b.implementation}/storage-layout.json"`);
      expect(page).toContain(`href="/address/${proxy}/upgrade-check?implementation=${at.HistoryBoxNext}&amp;against=${b.implementation}"`);
    }
    const layout = await fetch(`${baseUrl}/address/${at.HistoryBoxV1}/storage-layout.json`);
    expect(layout.status).toBe(200);
  });
});
