import { createRequire } from 'node:module';
import { type Abi, encodeDeployData, encodeFunctionData, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkChainId } from '../../src/chain/checkChainId.js';
import { freePort } from '../../src/chain/devnet.js';
import { createRpcChainReader } from '../../src/chain/rpcChainReader.js';
import { isSolproofError, type SolproofError } from '../../src/core/errors.js';
import type { Address, Hex } from '../../src/core/types.js';
import { errorSentence } from '../../src/texts/index.js';
import type { ChainReader, ContractCreation } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { METHOD_NOT_FOUND, type RpcProxy, startRpcProxy } from '../helpers/rpcProxy.js';

const ACCOUNT = deployerAccount('chain/rpcChainReader');

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

contract Child {
  uint256 public value;
  string public label;
  constructor(uint256 v, string memory l) { value = v; label = l; }
  function fail() external pure { revert("no"); }
  function broken() external pure { assembly { invalid() } }
}

contract Factory {
  event Created(address child);
  function create(uint256 v, string calldata l) external returns (address c) {
    c = address(new Child(v, l));
    emit Created(c);
  }
  function create2(uint256 v, string calldata l, bytes32 salt) external returns (address c) {
    c = address(new Child{salt: salt}(v, l));
    emit Created(c);
  }
  // The first creation is undone with its call, so the second lands on the same address.
  function createAfterUndone(uint256 v, string calldata l) external returns (address c) {
    try this.createAndRevert(v + 1000, l) {} catch {}
    c = address(new Child(v, l));
    emit Created(c);
  }
  function createAndRevert(uint256 v, string calldata l) external {
    new Child(v, l);
    revert("undone");
  }
}

contract Parent {
  Child public child;
  constructor(uint256 v) { child = new Child(v, "from a constructor"); }
}
`;

interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

/** Compiles with the npm solc (0.8.28) in-process, as a developer's toolchain would. */
function compileContracts(source: string): Record<string, CompiledContract> {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'Test.sol': { content: source } },
    settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return Object.fromEntries(
    Object.entries(output.contracts['Test.sol']!).map(([name, c]) => [
      name,
      { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` },
    ]),
  );
}

interface Case {
  name: string;
  address: Address;
  expected: ContractCreation;
}

let child: CompiledContract;
let factory: CompiledContract;
let parent: CompiledContract;
const cases: Case[] = [];
let account: Address;
let proxy: RpcProxy;

function childInitCode(v: bigint, l: string): Hex {
  return encodeDeployData({ abi: child.abi, bytecode: child.bytecode, args: [v, l] }).toLowerCase() as Hex;
}

async function send(to: Address, abi: Abi, functionName: string, args: unknown[]) {
  const { publicClient, walletClient } = devnetClients(ACCOUNT);
  const hash = await walletClient.sendTransaction({
    account: walletClient.account!,
    chain: walletClient.chain,
    to,
    data: encodeFunctionData({ abi, functionName, args }),
    gas: 5_000_000n,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`${functionName} failed`);
  const logs = parseEventLogs({ abi, logs: receipt.logs }) as unknown as { args: { child: Address } }[];
  return { hash, blockNumber: receipt.blockNumber, created: logs[0]!.args.child.toLowerCase() as Address };
}

beforeAll(async () => {
  const compiled = compileContracts(SOURCE);
  child = compiled.Child!;
  factory = compiled.Factory!;
  parent = compiled.Parent!;
  const { publicClient } = devnetClients(ACCOUNT);
  account = devnetClients(ACCOUNT).account;

  const eoa = await deployContract(child.abi, child.bytecode, [42n, 'deployed by an account'], ACCOUNT);
  const eoaBlock = (await publicClient.getTransactionReceipt({ hash: eoa.transactionHash })).blockNumber;
  cases.push({
    name: 'account deployment',
    address: eoa.address,
    expected: {
      creationCode: childInitCode(42n, 'deployed by an account'),
      transactionHash: eoa.transactionHash,
      blockNumber: eoaBlock,
      creator: account,
      byFactory: false,
    },
  });

  const f = await deployContract(factory.abi, factory.bytecode, [], ACCOUNT);
  const viaCreate = await send(f.address, factory.abi, 'create', [7n, 'by CREATE']);
  cases.push({
    name: 'factory CREATE',
    address: viaCreate.created,
    expected: {
      creationCode: childInitCode(7n, 'by CREATE'),
      transactionHash: viaCreate.hash,
      blockNumber: viaCreate.blockNumber,
      creator: f.address,
      byFactory: true,
    },
  });
  const salt = `0x${'5a'.repeat(32)}`;
  const viaCreate2 = await send(f.address, factory.abi, 'create2', [8n, 'by CREATE2', salt]);
  cases.push({
    name: 'factory CREATE2',
    address: viaCreate2.created,
    expected: {
      creationCode: childInitCode(8n, 'by CREATE2'),
      transactionHash: viaCreate2.hash,
      blockNumber: viaCreate2.blockNumber,
      creator: f.address,
      byFactory: true,
    },
  });
  const undone = await send(f.address, factory.abi, 'createAfterUndone', [9n, 'after an undone creation']);
  cases.push({
    name: 'creation after an undone creation at the same address',
    address: undone.created,
    expected: {
      creationCode: childInitCode(9n, 'after an undone creation'),
      transactionHash: undone.hash,
      blockNumber: undone.blockNumber,
      creator: f.address,
      byFactory: true,
    },
  });

  const p = await deployContract(parent.abi, parent.bytecode, [11n], ACCOUNT);
  const pReceipt = await publicClient.getTransactionReceipt({ hash: p.transactionHash });
  const pChild = ((await publicClient.readContract({ address: p.address, abi: parent.abi, functionName: 'child' })) as string).toLowerCase() as Address;
  cases.push({
    name: 'creation inside a constructor',
    address: pChild,
    expected: {
      creationCode: childInitCode(11n, 'from a constructor'),
      transactionHash: p.transactionHash,
      blockNumber: pReceipt.blockNumber,
      creator: p.address,
      byFactory: true,
    },
  });

  proxy = await startRpcProxy(inject('rpcUrl'));
});

afterAll(async () => {
  await proxy?.close();
});

async function expectAllCases(reader: ChainReader): Promise<void> {
  for (const c of cases) {
    expect(await reader.findCreation(c.address), c.name).toEqual(c.expected);
  }
}

async function expectUnavailable(run: Promise<unknown>): Promise<SolproofError<'chain_unavailable'>> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isSolproofError(error, 'chain_unavailable'), String(error)).toBe(true);
  expect((error as SolproofError).retryable).toBe(true);
  return error as SolproofError<'chain_unavailable'>;
}

describe('findCreation', () => {
  it('finds every kind of creation through ots_getContractCreator', async () => {
    await expectAllCases(createRpcChainReader({ rpcUrl: inject('rpcUrl') }));
  });

  it('finds the same creations by binary search without ots (block traces)', async () => {
    await expectAllCases(createRpcChainReader({ rpcUrl: inject('rpcUrl'), useOtterscan: false }));
  });

  it('finds the same creations with Parity-style traces when debug_ is absent', async () => {
    proxy.rules.clear();
    for (const m of ['debug_traceTransaction', 'debug_traceBlockByNumber']) proxy.rules.set(m, METHOD_NOT_FOUND);
    await expectAllCases(createRpcChainReader({ rpcUrl: proxy.url }));
    await expectAllCases(createRpcChainReader({ rpcUrl: proxy.url, useOtterscan: false }));
  });

  it('traces transaction by transaction when the node has no block traces', async () => {
    proxy.rules.clear();
    for (const m of ['ots_getContractCreator', 'debug_traceBlockByNumber', 'trace_block']) {
      proxy.rules.set(m, METHOD_NOT_FOUND);
    }
    proxy.calls.clear();
    await expectAllCases(createRpcChainReader({ rpcUrl: proxy.url }));
    // Refused once, then remembered: one reader never asks again.
    expect(proxy.calls.get('ots_getContractCreator')).toBe(1);
    expect(proxy.calls.get('debug_traceBlockByNumber')).toBe(1);
  });

  it('gives the init code only where the node has no traces: account deployments yes, factories null', async () => {
    proxy.rules.clear();
    for (const m of ['debug_traceTransaction', 'debug_traceBlockByNumber', 'trace_transaction', 'trace_block']) {
      proxy.rules.set(m, METHOD_NOT_FOUND);
    }
    const reader = createRpcChainReader({ rpcUrl: proxy.url });
    const [eoa, ...byFactory] = cases;
    expect(await reader.findCreation(eoa!.address)).toEqual(eoa!.expected);
    for (const c of byFactory) expect(await reader.findCreation(c.address), c.name).toBeNull();
  });

  it('returns null for an address without code, with and without ots', async () => {
    const empty = '0x00000000000000000000000000000000000c0de0' as Address;
    expect(await createRpcChainReader({ rpcUrl: inject('rpcUrl') }).findCreation(empty)).toBeNull();
    expect(await createRpcChainReader({ rpcUrl: inject('rpcUrl'), useOtterscan: false }).findCreation(empty)).toBeNull();
    expect(await createRpcChainReader({ rpcUrl: inject('rpcUrl') }).findCreation(account)).toBeNull();
  });

  it('accepts a checksummed address and answers in lower case', async () => {
    const c = cases[1]!;
    const mixed = `0x${c.address.slice(2).toUpperCase()}` as Address;
    expect(await createRpcChainReader({ rpcUrl: inject('rpcUrl') }).findCreation(mixed)).toEqual(c.expected);
  });

  it('returns null when the node keeps no history for the search (not an archive node)', async () => {
    proxy.rules.clear();
    // Like a full node that has pruned state older than our first deployment.
    const oldest = cases[0]!.expected.blockNumber;
    proxy.rules.set('eth_getCode', (params) =>
      typeof params[1] === 'string' && params[1].startsWith('0x') && BigInt(params[1]) < oldest
        ? { error: { code: -32000, message: 'missing trie node 0x12 (path )' } }
        : undefined,
    );
    const reader = createRpcChainReader({ rpcUrl: proxy.url, useOtterscan: false });
    expect(await reader.findCreation(cases[0]!.address)).toBeNull();
  });

  it('throws chain_unavailable, not null, when the node answers the lookup with an internal error', async () => {
    proxy.rules.clear();
    proxy.rules.set('ots_getContractCreator', { error: { code: -32603, message: 'internal error' } });
    await expectUnavailable(createRpcChainReader({ rpcUrl: proxy.url }).findCreation(cases[1]!.address));
    proxy.rules.clear();
    proxy.rules.set('debug_traceTransaction', { error: { code: -32000, message: 'tracing failed: out of memory' } });
    await expectUnavailable(createRpcChainReader({ rpcUrl: proxy.url }).findCreation(cases[1]!.address));
  });
});

describe('a node that cannot be reached', () => {
  it('fails fast with chain_unavailable on a closed port', async () => {
    const rpcUrl = `http://127.0.0.1:${await freePort()}/v3/secret-api-key`;
    const reader = createRpcChainReader({ rpcUrl });
    const error = await expectUnavailable(reader.findCreation(cases[0]!.address));
    expect(errorSentence(error)).toMatch(/network node could not be reached/);
    // Ended by the refused connection, not by waiting out the request timeout.
    expect(error.details).toMatchObject({ reason: 'unreachable', nodeMessage: expect.stringMatching(/ECONNREFUSED/) });
    // What a log line of this error could show must not carry the key in the URL.
    const texts: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = e.cause) texts.push(e.message, e.stack ?? '');
    expect(JSON.stringify([texts, error.details])).not.toContain('secret-api-key');
    await expectUnavailable(reader.getCode(cases[0]!.address));
    await expectUnavailable(reader.call(cases[0]!.address, '0x'));
    await expectUnavailable(reader.chainId());
    await expectUnavailable(createRpcChainReader({ rpcUrl, useOtterscan: false }).findCreation(cases[0]!.address));
  });

  it('gives up after the timeout when the node never answers', async () => {
    proxy.rules.clear();
    proxy.hang = true;
    try {
      const reader = createRpcChainReader({ rpcUrl: proxy.url, timeoutMs: 300, traceTimeoutMs: 300 });
      // The node answers nothing, ever: an answer at all is the reader giving up.
      const error = await expectUnavailable(reader.findCreation(cases[0]!.address));
      expect(error.details.reason).toBe('timeout');
      await expectUnavailable(reader.getBlockNumber());
    } finally {
      proxy.hang = false;
    }
  });
});

describe('reads', () => {
  it('reads code, storage, calls and the block number', async () => {
    const reader = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
    const c = cases[0]!;
    expect(await reader.getCode(c.address)).toBe(child.deployedBytecode.toLowerCase());
    expect(await reader.getCode(c.address, c.expected.blockNumber - 1n)).toBe('0x');
    expect(await reader.getStorageAt(c.address, '0x0')).toBe(`0x${(42).toString(16).padStart(64, '0')}`);
    expect(await reader.getStorageAt(c.address, '0x0', c.expected.blockNumber - 1n)).toBe(`0x${'0'.repeat(64)}`);
    const value = encodeFunctionData({ abi: child.abi, functionName: 'value' });
    expect(await reader.call(c.address, value)).toBe(`0x${(42).toString(16).padStart(64, '0')}`);
    expect(await reader.getBlockNumber()).toBeGreaterThanOrEqual(c.expected.blockNumber);
  });

  it('reads many storage slots at one block in batches, in order', async () => {
    const reader = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
    const c = cases[0]!;
    // More than one batch of 100, each slot where the single read says.
    const slots = Array.from({ length: 150 }, (_, i) => `0x${i.toString(16)}` as const);
    const block = await reader.getBlockNumber();
    const many = await reader.getStorageSlots(c.address, slots, block);
    expect(many).toHaveLength(150);
    expect(many).toEqual(await Promise.all(slots.map((slot) => reader.getStorageAt(c.address, slot, block))));
    expect(many[0]).toBe(`0x${(42).toString(16).padStart(64, '0')}`);
    expect(await reader.getStorageSlots(c.address, ['0x0'], c.expected.blockNumber - 1n)).toEqual([`0x${'0'.repeat(64)}`]);
    // Through a relay that counts: 150 reads are two HTTP requests.
    proxy.rules.clear();
    const relayed = createRpcChainReader({ rpcUrl: proxy.url });
    const posts = proxy.posts;
    const reads = proxy.calls.get('eth_getStorageAt') ?? 0;
    expect(await relayed.getStorageSlots(c.address, slots, block)).toEqual(many);
    expect(proxy.posts - posts).toBe(2);
    expect((proxy.calls.get('eth_getStorageAt') ?? 0) - reads).toBe(150);
  });

  it('returns null for a call that reverts or hits an invalid opcode', async () => {
    const reader = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
    const c = cases[0]!;
    expect(await reader.call(c.address, encodeFunctionData({ abi: child.abi, functionName: 'fail' }))).toBeNull();
    expect(await reader.call(c.address, encodeFunctionData({ abi: child.abi, functionName: 'broken' }))).toBeNull();
    expect(await reader.call(c.address, '0x12345678')).toBeNull();
  });

  it('checks the chain id', async () => {
    const reader = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
    expect(await reader.chainId()).toBe(inject('chainId'));
    await expect(checkChainId(reader, inject('chainId'))).resolves.toBeUndefined();
    const error = await checkChainId(reader, 1).catch((e: unknown) => e);
    expect(isSolproofError(error, 'chain_mismatch')).toBe(true);
    expect(errorSentence(error as SolproofError)).toBe(
      `The network node serves chain id ${inject('chainId')}, but this service is configured for chain id 1. ` +
        'Point the service at a node of the configured chain, or change the configured chain id.',
    );
    expect((error as SolproofError).retryable).toBe(false);
  });

  it('rejects a malformed address as invalid input', async () => {
    const reader = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
    const error = await reader.getCode('0x1234' as Address).catch((e: unknown) => e);
    expect(isSolproofError(error, 'invalid_input')).toBe(true);
  });
});
