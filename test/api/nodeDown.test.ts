import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, failureWithReceipt, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpcProxy.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/nodeDown');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Patient { uint256 public waited; function wait() external { waited += 1; } }
`;
const NODE_ERROR = { error: { code: -32603, message: 'internal error: backend unavailable' } };

describe('a node that fails while a job runs', () => {
  let node: RpcProxy;
  /** Retries for as long as the tests need. */
  let patient: RunningService;
  /** Gives up after three attempts. */
  let giving: RunningService;
  let key: string;
  let otherKey: string;
  let built: Built;

  beforeAll(async () => {
    node = await startRpcProxy(inject('rpcUrl'));
    const dataDir = await newDataDir();
    key = await createKey(dataDir);
    // No chain follower: its own reads would take the one eth_getCode the cases let through.
    const args = ['--rate-free', '1000', '--job-retry-delay-ms', '200', '--follow-chain', 'false'];
    patient = await startService({ rpcUrl: node.url, dataDir, args: [...args, '--job-max-attempts', '50'] });
    const otherDir = await newDataDir();
    otherKey = await createKey(otherDir);
    giving = await startService({ rpcUrl: node.url, dataDir: otherDir, args: [...args, '--job-max-attempts', '3'] });
    built = await build('0.8.28', standardInput({ 'Patient.sol': SOURCE }), 'Patient.sol', 'Patient');
  });
  afterAll(async () => {
    await Promise.all([patient?.stop(), giving?.stop()]);
    await node?.close();
  });
  /** Submits while the node answers, then lets only that one eth_getCode through. */
  async function submitThenBreakNode(service: RunningService, key: string): Promise<string> {
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    let allowed = 1;
    node.rules.set('eth_getCode', () => (allowed-- > 0 ? undefined : NODE_ERROR));
    const env = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: address,
      sourceCode: SOURCE,
      contractname: 'Patient',
      compilerversion: built.compilerVersion,
    });
    expect(env.status, JSON.stringify(env)).toBe('1');
    return env.result as string;
  }

  it('the job stays pending while the node fails, and passes once it answers again', async () => {
    const service = patient;
    const guid = await submitThenBreakNode(service, key);
    const before = node.calls.get('eth_getCode') ?? 0;
    await new Promise((r) => setTimeout(r, 2500));
    expect((node.calls.get('eth_getCode') ?? 0) - before).toBeGreaterThanOrEqual(2); // retried, not given up
    const pending = await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid, apikey: key });
    expect(pending.result).toBe('Pending in queue');
    node.rules.clear();
    expect((await waitForVerdict(service.apiUrl, guid, key)).result).toBe('Pass - Verified');
  });

  it('a node that stays down ends the job with a text that blames the node, never a verdict on the code', async () => {
    const guid = await submitThenBreakNode(giving, otherKey);
    const verdict = await waitForVerdict(giving.apiUrl, guid, otherKey, { chainid: '31337' });
    node.rules.clear();
    expect(verdict.status).toBe('0');
    expect(verdict.result).toEqual(
      failureWithReceipt(
        'Fail - Unable to verify. The verification could not be completed. The network node could not be used: it answered eth_getCode with an error. Try again later.',
      ),
    );
    expect(verdict.result).not.toMatch(/does NOT match/);
  });

  it('while the node is down, a submission is refused at once with a retryable text', async () => {
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    node.rules.set('eth_getCode', NODE_ERROR);
    const env = await apiPost(patient.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: address,
      sourceCode: SOURCE,
      contractname: 'Patient',
      compilerversion: built.compilerVersion,
    });
    node.rules.clear();
    expect(env).toEqual({ status: '0', message: 'NOTOK', result: 'The network node could not be reached; please try again later' });
  });
});
