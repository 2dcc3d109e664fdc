import { type Abi, encodeFunctionData, type PublicClient, toFunctionSelector, type WalletClient } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createRpcChainReader } from '../../src/chain/rpcChainReader.js';
import type { Address, Hex } from '../../src/core/types.js';
import type { ChainReader } from '../../src/verify/ports.js';
import { hasDelegateCall, isKnownSafeProxyCode } from '../../src/verify/proxy/bytecodeShapes.js';
import { detectProxy, type ProxyFound, type ProxyPattern } from '../../src/verify/proxy/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { deployContract, deployRaw, devnetClients } from '../helpers/chain.js';
import { type Artifact, anvilCheats, compileFixtures, initCodeFor } from './fixtures.js';

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('proxy/detectProxy');
const IMPLEMENTATION_SLOT: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const VERSION_CALL = toFunctionSelector('version()');
const MASTER_COPY_CALL = toFunctionSelector('masterCopy()');

let artifacts: Record<string, Artifact>;
let publicClient: PublicClient;
let walletClient: WalletClient;
let account: Address;
let cheats: ReturnType<typeof anvilCheats>;
let reader: ChainReader;
const at: Record<string, Address> = {};

function randomAddress(): Address {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/** True when the 4 bytes of `selector` occur byte-aligned anywhere in `code`. */
function holdsSelector(code: Hex, selector: Hex): boolean {
  return new RegExp(`^0x(?:[0-9a-f]{2})*?${selector.slice(2)}`, 'i').test(code);
}

function word(value: string): Hex {
  return `0x${value.replace(/^0x/, '').padStart(64, '0')}`;
}

async function deploy(name: string, args: readonly unknown[] = []): Promise<Address> {
  const artifact = artifacts[name]!;
  return (await deployContract(artifact.abi, artifact.bytecode, args, ACCOUNT)).address;
}

async function send(to: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<void> {
  const hash = await walletClient.sendTransaction({
    account: walletClient.account!,
    chain: walletClient.chain,
    to,
    data: encodeFunctionData({ abi, functionName, args }),
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`${functionName} failed`);
}

async function cloneOf(factory: Address, implementation: Address, args?: Hex): Promise<Address> {
  const abi = artifacts.CloneFactory!.abi;
  await send(factory, abi, args ? 'cloneWithArgs' : 'clone', args ? [implementation, args] : [implementation]);
  const clone = (await publicClient.readContract({ address: factory, abi, functionName: 'last' })) as string;
  return clone.toLowerCase() as Address;
}

async function rawProxy(runtime: Hex): Promise<Address> {
  return (await deployRaw(initCodeFor(runtime), ACCOUNT)).address;
}

/** What a call of version() through the address answers: proves a fixture really delegates. */
async function versionThrough(address: Address): Promise<bigint> {
  const { data } = await publicClient.call({ to: address, data: VERSION_CALL });
  return BigInt((data ?? '0x').slice(0, 66));
}

async function detectFound(address: Address, options?: Parameters<typeof detectProxy>[2]): Promise<ProxyFound> {
  const result = await detectProxy(reader, address, options);
  if (!result.found) throw new Error(`not detected (${result.reason}) at ${address}`);
  return result;
}

beforeAll(async () => {
  artifacts = compileFixtures();
  ({ publicClient, walletClient, account } = devnetClients(ACCOUNT));
  cheats = anvilCheats(devnetClients(ACCOUNT).rpcUrl);
  // The service's own chain reader: what verifyproxycontract runs on.
  reader = createRpcChainReader({ rpcUrl: inject('rpcUrl') });

  const logic = (at.logic = await deploy('Logic'));
  at.logicV2 = await deploy('LogicV2');
  const hex = logic.slice(2);

  at.uups = await deploy('ERC1967Proxy', [logic, VERSION_CALL]);
  at.transparent = await deploy('TransparentUpgradeableProxy', [logic, account, VERSION_CALL]);
  at.beacon = await deploy('UpgradeableBeacon', [logic, account]);
  at.beaconProxy = await deploy('BeaconProxy', [at.beacon, VERSION_CALL]);
  at.childBeacon = await deploy('ChildBeacon', [logic]);
  at.childBeaconProxy = await deploy('ChildBeaconProxy', [at.childBeacon]);

  at.factory = await deploy('CloneFactory');
  at.clone = await cloneOf(at.factory, logic);
  at.cloneWithArgs = await cloneOf(at.factory, logic, '0x000000000000000000000000000000000000000000000000000000000000beef');

  at.erc7511 = await rawProxy(`0x365f5f375f5f365f73${hex}5af43d5f5f3e5f3d91602a57fd5bf3`);
  at.soladyPush0 = await rawProxy(`0x5f5f365f5f37365f73${hex}5af43d5f5f3e6029573d5ffd5b3d5ff3`);
  at.clone44 = await rawProxy(`0x3d3d3d3d363d3d37363d73${hex}5af43d3d93803e602a57fd5bf3`);
  at.vyper = await rawProxy(`0x366000600037611000600036600073${hex}5af4602c57600080fd5b6110006000f3`);
  at.vyperUniswapV1 = await rawProxy(`0x366000600037611000600036600073${hex}5af41558576110006000f3`);

  // A vanity target with two leading zero bytes makes the clone use PUSH18.
  at.vanityLogic = `0x0000${hex.slice(4)}`;
  await cheats.setCode(at.vanityLogic, (await publicClient.getCode({ address: logic }))!);
  at.vanityClone = await rawProxy(`0x363d3d373d3d3d363d71${at.vanityLogic.slice(6)}5af43d82803e903d91602957fd5bf3`);

  at.sequence = await rawProxy('0x363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3');
  await cheats.setStorageAt(at.sequence, word(at.sequence), word(logic));

  at.delegatedAccount = randomAddress();
  await cheats.setCode(at.delegatedAccount, `0xef0100${hex}`);

  at.zos = await deploy('ZosProxy', [logic]);
  at.proxiable = await deploy('ProxiableProxy', [logic]);
  at.safe = await deploy('SafeStyleProxy', [logic]);
  at.masterCopy = await deploy('MasterCopyProxy', [logic]);
  at.foldedSafe = await deploy('FoldedSafeProxy', [logic]);
  at.eip897 = await deploy('Eip897Proxy', [logic]);
  at.getter = await deploy('GetterProxy', [logic]);
  at.unitroller = await deploy('UnitrollerStyle', [logic]);

  at.facetA = await deploy('FacetA');
  at.facetB = await deploy('FacetB');
  const a = toFunctionSelector('a()');
  const b = toFunctionSelector('b()');
  at.miniDiamond = await deploy('MiniDiamond', [
    [at.facetA, at.facetB],
    [[a], [b]],
  ]);
  at.loupeFacet = await deploy('LoupeFacet');
  const loupeSelectors = [toFunctionSelector('facetAddresses()'), toFunctionSelector('facetAddress(bytes4)')];
  at.loupeDiamond = await deploy('LoupeDiamond', [
    [at.loupeFacet, at.facetA, at.facetB],
    [loupeSelectors, [a], [b]],
  ]);

  at.twoHop = await deploy('ERC1967Proxy', [at.clone, VERSION_CALL]);

  at.eoa = randomAddress();
  at.selfPointer = await deploy('SelfPointer');
  at.eoaPointer = await deploy('EoaPointer', [randomAddress()]);
  at.cloneOfNothing = await cloneOf(at.factory, randomAddress());
  at.slotToNothing = await deploy('ERC1967Proxy', [logic, VERSION_CALL]);
  await cheats.setStorageAt(at.slotToNothing, IMPLEMENTATION_SLOT, word(randomAddress()));
  at.masterCopyNotSlotZero = await deploy('MasterCopyNotSlotZero', [at.logicV2, logic]);
  at.slotZeroEcho = await deploy('SlotZeroEcho', [logic]);
  at.slotZeroForAll = await deploy('SlotZeroForAll', [logic]);
});

describe('detectProxy: one deployed example per pattern', () => {
  const cases: [fixture: string, pattern: ProxyPattern, implementation?: string][] = [
    ['uups', 'eip1967'],
    ['transparent', 'eip1967'],
    ['beaconProxy', 'eip1967_beacon'],
    ['childBeaconProxy', 'eip1967_beacon'],
    ['clone', 'eip1167'],
    ['cloneWithArgs', 'eip1167'],
    ['vanityClone', 'eip1167', 'vanityLogic'],
    ['clone44', 'clone44'],
    ['erc7511', 'push0_clone'],
    ['soladyPush0', 'push0_clone'],
    ['vyper', 'vyper_forwarder'],
    ['vyperUniswapV1', 'vyper_forwarder'],
    ['sequence', 'sequence_wallet'],
    ['zos', 'oz_legacy'],
    ['proxiable', 'eip1822'],
    ['safe', 'safe'],
    ['masterCopy', 'safe'],
    ['foldedSafe', 'safe'],
    ['eip897', 'eip897'],
    ['getter', 'get_implementation'],
    ['unitroller', 'compound_unitroller'],
    ['delegatedAccount', 'eip7702'],
  ];

  it.each(cases)('%s is detected as %s', async (fixture, pattern, implementation = 'logic') => {
    const address = at[fixture]!;
    // The fixture must really delegate: a call through it reaches the logic contract.
    expect(await versionThrough(address)).toBe(42n);

    const result = await detectFound(address);
    expect(result.pattern).toBe(pattern);
    expect(result.implementation).toBe(at[implementation]);
    expect(result.finalImplementation).toBe(at[implementation]);
    expect(result.chain).toEqual([{ address, implementation: at[implementation], pattern }]);
    expect(result.chainEnd).toBe('logic');
    expect(result.conflicts).toEqual([]);
  });

  it('reports the beacon of a beacon proxy and the admin of a transparent proxy', async () => {
    expect((await detectFound(at.beaconProxy!)).beacon).toBe(at.beacon);
    expect((await detectFound(at.childBeaconProxy!)).beacon).toBe(at.childBeacon);

    const transparent = await detectFound(at.transparent!);
    const proxyAdmin = transparent.admin!;
    expect(proxyAdmin).toMatch(/^0x[0-9a-f]{40}$/);
    // OpenZeppelin 5 deploys a ProxyAdmin owned by the initial owner.
    const owner = await publicClient.readContract({
      address: proxyAdmin,
      abi: [{ type: 'function', name: 'owner', inputs: [], outputs: [{ type: 'address' }], stateMutability: 'view' }],
      functionName: 'owner',
    });
    expect(owner.toLowerCase()).toBe(account);
    expect((await detectFound(at.uups!)).admin).toBeUndefined();
  });

  it('labels an EIP-7702 delegation as an account, not a contract proxy', async () => {
    const result = await detectFound(at.delegatedAccount!);
    expect(result.isDelegatedAccount).toBe(true);
    expect((await detectFound(at.uups!)).isDelegatedAccount).toBeUndefined();
  });

  it("reads a known Safe proxy runtime's singleton from slot 0, without calling it", async () => {
    const code = (await publicClient.getCode({ address: at.safe! }))!;
    expect(isKnownSafeProxyCode(code)).toBe(true);
    const noCalls = { ...reader, call: async () => null };
    const result = await detectProxy(noCalls, at.safe!);
    expect(result).toMatchObject({ found: true, pattern: 'safe', implementation: at.logic });
    // A Solidity masterCopy() proxy is only known through the call.
    expect(await detectProxy(noCalls, at.masterCopy!)).toMatchObject({ found: false, reason: 'not_a_proxy' });
  });

  it('finds a Safe proxy whose masterCopy() selector the optimizer folded away, by what it answers', async () => {
    const proxy = at.foldedSafe!;
    const code = (await publicClient.getCode({ address: proxy }))!;
    expect(holdsSelector(code, MASTER_COPY_CALL)).toBe(false);
    expect(holdsSelector(code, VERSION_CALL)).toBe(false);
    expect(holdsSelector('0x63a619486e14', MASTER_COPY_CALL)).toBe(true);
    expect(isKnownSafeProxyCode(code)).toBe(false);
    // It answers masterCopy() itself with slot 0, as the Safe proxy does.
    const { data } = await publicClient.call({ to: proxy, data: MASTER_COPY_CALL });
    expect(data).toBe(word(at.logic!));
    expect(await publicClient.getStorageAt({ address: proxy, slot: word('0') })).toBe(word(at.logic!));

    const result = await detectFound(proxy);
    expect(result).toMatchObject({ pattern: 'safe', implementation: at.logic, chainEnd: 'logic' });

    // Only the call tells: a reader whose calls all revert sees no proxy.
    const noCalls = { ...reader, call: async () => null };
    expect(await detectProxy(noCalls, proxy)).toMatchObject({ found: false, reason: 'not_a_proxy' });
  });

  it('the look-alikes that are not Safe proxies behave as their names say', async () => {
    const answer = async (address: Address, data: Hex): Promise<Hex | undefined> => (await publicClient.call({ to: address, data })).data;
    const slotZero = (address: Address): Promise<Hex | undefined> => publicClient.getStorageAt({ address, slot: word('0') });
    for (const fixture of ['masterCopyNotSlotZero', 'slotZeroEcho', 'slotZeroForAll']) {
      const code = (await publicClient.getCode({ address: at[fixture]! }))!;
      expect(holdsSelector(code, MASTER_COPY_CALL), fixture).toBe(false);
      expect(hasDelegateCall(code), fixture).toBe(fixture !== 'slotZeroEcho');
      expect(await answer(at[fixture]!, MASTER_COPY_CALL), fixture).toBe(word(at.logic!));
    }
    expect(await slotZero(at.masterCopyNotSlotZero!)).toBe(word(at.logicV2!));
    expect(await slotZero(at.slotZeroEcho!)).toBe(word(at.logic!));
    expect(await slotZero(at.slotZeroForAll!)).toBe(word(at.logic!));
    expect(await answer(at.slotZeroForAll!, toFunctionSelector('anything(uint256)'))).toBe(word(at.logic!));
  });

  it('reads proxyType() of an EIP-897 proxy', async () => {
    expect((await detectFound(at.eip897!)).eip897ProxyType).toBe(2);
  });

  it('lists the facets of a Diamond whose loupe is in its own code; the first facet is the implementation', async () => {
    const diamond = new Map([
      [toFunctionSelector('a()'), 1n],
      [toFunctionSelector('b()'), 2n],
    ]);
    for (const [selector, answer] of diamond) {
      const { data } = await publicClient.call({ to: at.miniDiamond!, data: selector });
      expect(BigInt(data!)).toBe(answer);
    }
    const result = await detectFound(at.miniDiamond!);
    expect(result.pattern).toBe('eip2535_diamond');
    expect(result.facets).toEqual([at.facetA, at.facetB]);
    expect(result.implementation).toBe(at.facetA);
  });

  it('detects a Diamond whose loupe is served by a facet', async () => {
    const result = await detectFound(at.loupeDiamond!);
    expect(result.pattern).toBe('eip2535_diamond');
    expect(result.facets).toEqual([at.loupeFacet, at.facetA, at.facetB]);
    expect(result.implementation).toBe(at.loupeFacet);
  });
});

describe('detectProxy: chains and pinning', () => {
  it('follows proxy -> proxy -> logic and names the first hop', async () => {
    expect(await versionThrough(at.twoHop!)).toBe(42n);
    const result = await detectFound(at.twoHop!);
    expect(result.pattern).toBe('eip1967');
    expect(result.implementation).toBe(at.clone);
    expect(result.finalImplementation).toBe(at.logic);
    expect(result.chain).toEqual([
      { address: at.twoHop, implementation: at.clone, pattern: 'eip1967' },
      { address: at.clone, implementation: at.logic, pattern: 'eip1167' },
    ]);
    expect(result.chainEnd).toBe('logic');
  });

  it('stops at maxHops and says so', async () => {
    const result = await detectFound(at.twoHop!, { maxHops: 1 });
    expect(result.chain).toHaveLength(1);
    expect(result.finalImplementation).toBe(at.clone);
    expect(result.chainEnd).toBe('max_hops');
  });

  it('stops at a cycle', async () => {
    const first = randomAddress();
    const second = randomAddress();
    const clone = (target: Address): Hex => `0x363d3d373d3d3d363d73${target.slice(2)}5af43d82803e903d91602b57fd5bf3`;
    await cheats.setCode(first, clone(second));
    await cheats.setCode(second, clone(first));
    const result = await detectFound(first);
    expect(result.chain).toEqual([{ address: first, implementation: second, pattern: 'eip1167' }]);
    expect(result.chainEnd).toBe('cycle');
  });

  it('reads every slot at the pinned block: an upgrade after it does not show', async () => {
    const proxy = await deploy('ERC1967Proxy', [at.logic, VERSION_CALL]);
    const before = await publicClient.getBlockNumber({ cacheTime: 0 });
    await send(proxy, artifacts.Logic!.abi, 'upgradeToAndCall', [at.logicV2, '0x']);
    expect(await versionThrough(proxy)).toBe(43n);

    const pinned = await detectFound(proxy, { blockNumber: before });
    expect(pinned.blockNumber).toBe(before);
    expect(pinned.implementation).toBe(at.logic);

    const latest = await detectFound(proxy);
    expect(latest.blockNumber).toBeGreaterThan(before);
    expect(latest.implementation).toBe(at.logicV2);
  });
});

describe('detectProxy: expectedImplementation', () => {
  it('accepts the detected implementation in any letter case', async () => {
    const expected = `0x${at.logic!.slice(2).toUpperCase()}` as Address;
    const result = await detectFound(at.uups!, { expectedImplementation: expected });
    expect(result.implementation).toBe(at.logic);
  });

  it('fails naming both addresses when it differs', async () => {
    const other = randomAddress();
    const result = await detectProxy(reader, at.uups!, { expectedImplementation: other });
    expect(result).toMatchObject({
      found: false,
      reason: 'expected_implementation_differs',
      expectedImplementation: other,
      candidates: [{ pattern: 'eip1967', implementation: at.logic }],
    });
  });

  it('picks a lower-priority candidate it names, and keeps the other as a conflict', async () => {
    const proxy = await deploy('ZosProxy', [at.logic]);
    await cheats.setStorageAt(proxy, IMPLEMENTATION_SLOT, word(at.logicV2!));

    const byPriority = await detectFound(proxy);
    expect(byPriority.pattern).toBe('eip1967');
    expect(byPriority.implementation).toBe(at.logicV2);
    expect(byPriority.conflicts).toEqual([{ pattern: 'oz_legacy', implementation: at.logic }]);

    const chosen = await detectFound(proxy, { expectedImplementation: at.logic });
    expect(chosen.pattern).toBe('oz_legacy');
    expect(chosen.implementation).toBe(at.logic);
    expect(chosen.conflicts).toEqual([{ pattern: 'eip1967', implementation: at.logicV2 }]);
  });
});

describe('detectProxy: what is not a proxy', () => {
  it('an account without code', async () => {
    expect(await detectProxy(reader, at.eoa!)).toMatchObject({ found: false, reason: 'no_code' });
  });

  it.each([
    ['the logic contract itself', 'logic'],
    ['an UpgradeableBeacon (implementation() but no delegatecall)', 'beacon'],
    ['a contract whose implementation() returns itself', 'selfPointer'],
    ['a contract whose implementation() returns an account without code', 'eoaPointer'],
    ['a clone of an address without code', 'cloneOfNothing'],
    ['a proxy whose EIP-1967 slot points at an address without code', 'slotToNothing'],
    ['a Diamond facet', 'facetA'],
    ['a delegating contract answering masterCopy() with another contract than slot 0 holds', 'masterCopyNotSlotZero'],
    ['a contract without DELEGATECALL answering masterCopy() with slot 0', 'slotZeroEcho'],
    ['a delegating contract answering every call, masterCopy() among them, with slot 0', 'slotZeroForAll'],
  ])('%s', async (_label, fixture) => {
    const result = await detectProxy(reader, at[fixture]!);
    expect(result).toMatchObject({ found: false, reason: 'not_a_proxy' });
  });
});
