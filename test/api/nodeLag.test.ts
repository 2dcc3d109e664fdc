import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost, type Envelope, waitForVerdict } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpcProxy.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/nodeLag');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract JustDeployed { uint256 public constant ANSWER = 3; }
`;
/** How long the service waits for code (--code-wait-ms), and how long the node hides it. */
const WAIT_MS = 5000;
const LAG_MS = 1500;

describe('a node behind a load balancer that does not show a deployment yet', () => {
  let node: RpcProxy;
  let service: RunningService;
  let key: string;
  let built: Built;
  /** eth_getCode answers the lagging node gave without the code. */
  let hidden = 0;
  let hideUntil = 0;

  beforeAll(async () => {
    node = await startRpcProxy(inject('rpcUrl'));
    // Until hideUntil, the node answers eth_getCode as if nothing were deployed yet.
    node.rules.set('eth_getCode', () => {
      if (Date.now() >= hideUntil) return undefined;
      hidden++;
      return { result: '0x' };
    });
    const dataDir = await newDataDir();
    key = await createKey(dataDir);
    service = await startService({ rpcUrl: node.url, dataDir, args: ['--rate-free', '1000', '--code-wait-ms', String(WAIT_MS)] });
    built = await build('0.8.28', standardInput({ 'JustDeployed.sol': SOURCE }), 'JustDeployed.sol', 'JustDeployed');
  });
  afterAll(async () => {
    await service?.stop();
    await node?.close();
  });

  const post = (params: Record<string, string>): Promise<Envelope> => apiPost(service.apiUrl, { module: 'contract', apikey: key, ...params });
  const lag = (): void => {
    hidden = 0;
    hideUntil = Date.now() + LAG_MS;
  };

  it('verifysourcecode made while the node lags is taken once the code appears, and verifies', async () => {
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    lag();
    const submit = await post({ action: 'verifysourcecode', ...singleFileFields(address, built, 'JustDeployed', SOURCE) });
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    // The service did see the node without the code, and asked again.
    expect(hidden).toBeGreaterThan(0);
    const status = await waitForVerdict(service.apiUrl, String(submit.result), key);
    expect(status.result, service.output()).toBe('Pass - Verified');
  });

  it('verifyproxycontract made while the node lags is taken once the code appears', async () => {
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    lag();
    const submit = await post({ action: 'verifyproxycontract', address });
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    expect(submit.result).toMatch(/^[a-z0-9]{50}$/);
    expect(hidden).toBeGreaterThan(0);
  });

  it('an address that never gets code is refused after the wait, naming the block the node had no code at', async () => {
    const eoa = `0x${randomBytes(20).toString('hex')}`;
    const { publicClient } = devnetClients(ACCOUNT);
    const before = await publicClient.getBlockNumber();
    const submissions: Record<string, string>[] = [
      { action: 'verifysourcecode', ...singleFileFields(eoa, built, 'JustDeployed', SOURCE) },
      { action: 'verifyproxycontract', address: eoa },
    ];
    for (const params of submissions) {
      const started = performance.now();
      const answer = await post(params);
      const elapsed = performance.now() - started;
      expect(answer.status).toBe('0');
      const m = /^Unable to locate ContractCode at (0x[0-9a-f]{40}): the node had no code there at block (\d+) \(still none after waiting 5 s\)$/.exec(
        String(answer.result),
      );
      expect(m, String(answer.result)).not.toBeNull();
      expect(m![1]).toBe(eoa);
      const block = BigInt(m![2]!);
      expect(block).toBeGreaterThanOrEqual(before);
      expect(block).toBeLessThanOrEqual(await publicClient.getBlockNumber());
      expect(elapsed).toBeGreaterThanOrEqual(WAIT_MS - 50);
    }
  });
});
