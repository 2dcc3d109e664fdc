/**
 * getcontractcreation against a service of its own, whose node is reached through a relay that
 * refuses Otterscan's `ots_` methods (so a creation is found by searching the chain's history)
 * and counts every JSON-RPC call: a creation is searched once, then read from the store.
 */
import { rmSync } from 'node:fs';
import { type Abi, encodeDeployData } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address, Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope } from '../helpers/api.js';
import { deployRaw, devnetClients } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { METHOD_NOT_FOUND, type RpcProxy, startRpcProxy } from '../helpers/rpcProxy.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/getContractCreation');

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

contract Child {
    uint256 public immutable value;
    address public immutable owner;

    constructor(uint256 _value, address _owner) {
        value = _value;
        owner = _owner;
    }
}

contract Factory {
    address public last;

    function make(uint256 value) external returns (address) {
        last = address(new Child(value, msg.sender));
        return last;
    }
}
`;

interface Deployed {
  address: Address;
  transactionHash: Hex;
  blockNumber: bigint;
  timestamp: bigint;
  initCode: Hex;
}

describe('getcontractcreation', () => {
  let proxy: RpcProxy;
  let service: RunningService;
  let key: string;
  let childAbi: Abi;
  let childBytecode: Hex;
  let byAccount: Deployed;
  let factory: Deployed;
  const made: Deployed[] = [];
  const { publicClient, walletClient, account } = devnetClients(ACCOUNT);

  const ask = (contractaddresses: string, extra: Record<string, string> = {}): Promise<Envelope> =>
    apiGet(service.apiUrl, { module: 'contract', action: 'getcontractcreation', contractaddresses, apikey: key, ...extra });

  async function deployed(address: Address, transactionHash: Hex, initCode: Hex): Promise<Deployed> {
    const receipt = await publicClient.getTransactionReceipt({ hash: transactionHash });
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
    return { address, transactionHash, blockNumber: receipt.blockNumber, timestamp: block.timestamp, initCode };
  }

  async function make(value: bigint): Promise<Deployed> {
    const factoryAbi = [
      { type: 'function', name: 'make', stateMutability: 'nonpayable', inputs: [{ name: 'value', type: 'uint256' }], outputs: [{ type: 'address' }] },
      { type: 'function', name: 'last', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
    ] as const;
    const hash = await walletClient.writeContract({
      address: factory.address,
      abi: factoryAbi,
      functionName: 'make',
      args: [value],
      account: walletClient.account!,
      chain: walletClient.chain,
    });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const child = ((await publicClient.readContract({ address: factory.address, abi: factoryAbi, functionName: 'last' })) as string).toLowerCase() as Address;
    // The init code the factory ran: Child's creation code and its constructor arguments.
    const initCode = encodeDeployData({ abi: childAbi, bytecode: childBytecode, args: [value, account] });
    return deployed(child, hash, initCode);
  }

  beforeAll(async () => {
    const input = standardInput({ 'Creation.sol': SOURCE }, { optimizer: true });
    const child = await build('0.8.28', input, 'Creation.sol', 'Child');
    const factoryBuild = await build('0.8.28', input, 'Creation.sol', 'Factory');
    childAbi = child.abi;
    childBytecode = child.bytecode;

    const direct = encodeDeployData({ abi: childAbi, bytecode: childBytecode, args: [7n, account] });
    const a = await deployRaw(direct, ACCOUNT);
    byAccount = await deployed(a.address, a.transactionHash, direct);
    const f = await deployRaw(factoryBuild.bytecode, ACCOUNT);
    factory = await deployed(f.address, f.transactionHash, factoryBuild.bytecode);
    made.push(await make(11n), await make(12n));

    proxy = await startRpcProxy(inject('rpcUrl'));
    proxy.rules.set('ots_getContractCreator', METHOD_NOT_FOUND);
    // Not following the chain: every call the relay counts comes from a request.
    service = await startService({
      rpcUrl: proxy.url,
      args: ['--rate-free', '10000', '--keyless-interval-ms', '0'],
      env: { SOLPROOF_FOLLOW_CHAIN: 'false' },
    });
    key = await createKey(service.dataDir);
  });

  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    if (service) rmSync(service.dataDir, { recursive: true, force: true });
  });

  const entryOf = (d: Deployed, factoryAddress: string) => ({
    contractAddress: d.address,
    contractCreator: account,
    txHash: d.transactionHash,
    blockNumber: String(d.blockNumber),
    timestamp: String(d.timestamp),
    contractFactory: factoryAddress,
    creationBytecode: d.initCode,
  });

  const totalCalls = (): number => [...proxy.calls.values()].reduce((a, b) => a + b, 0);

  it('answers one contract created by an account, every value a string as Etherscan sends', async () => {
    const env = await ask(byAccount.address.toUpperCase().replace('0X', '0x'));
    expect(env).toEqual({ status: '1', message: 'OK', result: [entryOf(byAccount, '')] });
  });

  it("names the transaction's sender as the creator and the factory apart for a factory's contract", async () => {
    const env = await ask(made[0]!.address);
    expect(env.status).toBe('1');
    expect(env.result).toEqual([entryOf(made[0]!, factory.address)]);
  });

  it('answers five addresses in the order asked, leaving out the one without a contract', async () => {
    const asked = [made[1]!.address, factory.address, account, byAccount.address, made[0]!.address];
    const env = await ask(asked.join(','));
    expect(env.status).toBe('1');
    expect(env.result).toEqual([entryOf(made[1]!, factory.address), entryOf(factory, ''), entryOf(byAccount, ''), entryOf(made[0]!, factory.address)]);
  });

  it('reads a creation found before from the store, without asking the node again', async () => {
    // The first search of a contract nobody asked for yet probes the chain's history.
    const fresh = await make(13n);
    proxy.calls.clear();
    const first = await ask(fresh.address);
    expect(first.result).toEqual([entryOf(fresh, factory.address)]);
    expect(proxy.calls.get('eth_getCode') ?? 0, JSON.stringify([...proxy.calls])).toBeGreaterThan(3);
    console.log(`getcontractcreation without ots_: first lookup ${totalCalls()} JSON-RPC calls (${JSON.stringify(Object.fromEntries(proxy.calls))})`);

    proxy.calls.clear();
    const again = await ask([fresh.address, byAccount.address, made[0]!.address].join(','));
    expect(again.result).toEqual([entryOf(fresh, factory.address), entryOf(byAccount, ''), entryOf(made[0]!, factory.address)]);
    expect(totalCalls(), JSON.stringify([...proxy.calls])).toBe(0);
  });

  it('keeps what it found across a restart of the service', async () => {
    await service.stop();
    service = await startService({
      rpcUrl: proxy.url,
      dataDir: service.dataDir,
      args: ['--rate-free', '10000', '--keyless-interval-ms', '0'],
      env: { SOLPROOF_FOLLOW_CHAIN: 'false' },
    });
    proxy.calls.clear();
    const env = await ask([made[1]!.address, byAccount.address].join(','));
    expect(env.result).toEqual([entryOf(made[1]!, factory.address), entryOf(byAccount, '')]);
    expect(totalCalls(), JSON.stringify([...proxy.calls])).toBe(0);
  });

  it('says the node could not be reached when it fails mid-search, and finds the creation once it answers', async () => {
    const fresh = await make(14n);
    proxy.rules.set('eth_getCode', { error: { code: -32000, message: 'node overloaded' } });
    try {
      expect(await ask(fresh.address)).toEqual({ status: '0', message: 'NOTOK', result: 'The network node could not be reached; please try again later' });
    } finally {
      proxy.rules.delete('eth_getCode');
    }
    expect((await ask(fresh.address)).result).toEqual([entryOf(fresh, factory.address)]);
  });

  it('answers a POST and a keyless read the same way', async () => {
    const posted = await apiPost(service.apiUrl, { module: 'contract', action: 'getcontractcreation', contractaddresses: byAccount.address, apikey: key });
    expect(posted).toEqual({ status: '1', message: 'OK', result: [entryOf(byAccount, '')] });
    const keyless = await apiGet(service.apiUrl, { module: 'contract', action: 'getcontractcreation', contractaddresses: byAccount.address });
    expect(keyless.status).toBe('1');
    expect(keyless.message).toBe('OK-Missing/Invalid API Key, rate limit of 1/5sec applied');
    expect(keyless.result).toEqual([entryOf(byAccount, '')]);
  });

  it("answers Etherscan's No data found for an account without code", async () => {
    const env = await ask(account);
    expect(env).toEqual({ status: '0', message: 'No data found', result: null });
    const nobody = await ask('0x000000000000000000000000000000000000dead');
    expect(nobody).toEqual({ status: '0', message: 'No data found', result: null });
  });

  it('is listed on the API page', async () => {
    const page = await (await fetch(`${service.baseUrl}/docs/api`)).text();
    expect(page).toContain('getcontractcreation');
    expect(page).toContain('contractaddresses (up to 5, comma-separated)');
  });

  it('refuses six addresses, a malformed one and none, naming the problem', async () => {
    const six = [byAccount.address, factory.address, made[0]!.address, made[1]!.address, account, '0x000000000000000000000000000000000000dead'];
    expect(await ask(six.join(','))).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Error! At most 5 contract addresses can be asked at once (contractaddresses has 6)',
    });
    expect(await ask(`${byAccount.address},0x12345`)).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Error! Invalid address format in contractaddresses: "0x12345"',
    });
    expect(await ask(`${byAccount.address},`)).toMatchObject({ status: '0', result: 'Error! Invalid address format in contractaddresses: ""' });
    expect(await ask('')).toEqual({ status: '0', message: 'NOTOK', result: 'Missing or empty parameter: contractaddresses' });
  });
});
