import { describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/restart');

describe('durability', () => {
  it('jobs accepted before a SIGKILL all reach a final state after a restart', async () => {
    const rpcUrl = inject('rpcUrl');
    const dataDir = await newDataDir();
    const key = await createKey(dataDir);
    const sources = Array.from(
      { length: 6 },
      (_, i) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Durable${i} {
    uint256 public constant ID = ${i};
    mapping(address => uint256) public balances;
    function deposit() external payable { balances[msg.sender] += msg.value + ID; }
}
`,
    );
    const deployed = [];
    for (let i = 0; i < sources.length; i++) {
      const built = await build('0.8.28', standardInput({ [`D${i}.sol`]: sources[i]! }), `D${i}.sol`, `Durable${i}`);
      const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
      deployed.push({ address, built, source: sources[i]!, name: `Durable${i}` });
    }

    // One job at a time, so that most are still queued when the process dies.
    // The status check answers at once (no waiting for the verdict), so it sees the queue as it is.
    const first = await startService({ rpcUrl, dataDir, args: ['--job-concurrency', '1', '--rate-free', '1000', '--status-wait-ms', '0'] });
    const receipts: string[] = [];
    for (const d of deployed) {
      const env = await apiPost(first.apiUrl, {
        module: 'contract',
        action: 'verifysourcecode',
        apikey: key,
        contractaddress: d.address,
        sourceCode: d.source,
        contractname: d.name,
        compilerversion: d.built.compilerVersion,
        optimizationUsed: '0',
      });
      expect(env, JSON.stringify(env)).toMatchObject({ status: '1' });
      receipts.push(env.result);
    }
    // The last job cannot have run yet: one runs at a time and the first needs a compiler loaded.
    const pending = await apiPost(first.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: receipts[receipts.length - 1]!, apikey: key });
    expect(pending.result).toBe('Pending in queue');
    await first.kill();

    const second = await startService({ rpcUrl, dataDir, args: ['--rate-free', '1000'] });
    try {
      const verdicts = await Promise.all(receipts.map((r) => waitForVerdict(second.apiUrl, r, key)));
      expect(verdicts.map((v) => v.result)).toEqual(receipts.map(() => 'Pass - Verified'));
    } finally {
      await second.stop();
    }
  });
});
