import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/compileAhead');
const WARM_UPS = 3;

const source = (n: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Ahead${n} { uint256 public value = ${n}; function set(uint256 v) external { value = v; } }
`;

interface LogLine {
  msg?: string;
  receipt?: string;
  compiledAhead?: boolean;
  compiles?: number;
}

/**
 * A service of its own, logging at debug level: what it compiled, and when, is read from its log.
 * The compile of a submission starts when its job is queued (not when the job is claimed), and
 * a compiler it loaded is warmed up while the service is idle.
 */
describe('compiles started at submission, and compilers warmed up while idle', () => {
  let service: RunningService;
  let key: string;
  const lines = (): LogLine[] =>
    service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
  /**
   * The first log line that `match` accepts, once the service has written it. The verdict a poll
   * reads may reach this process before the log line the job wrote just before recording it.
   */
  async function logged(what: string, match: (l: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines().find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no log line for ${what} within ${timeoutMs} ms\n${service.output().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      args: ['--warm-up-compiles', String(WARM_UPS), '--rate-free', '1000'],
      env: { SOLPROOF_LOG_LEVEL: 'debug' },
    });
    key = await createKey(service.dataDir);
  });
  afterAll(async () => service?.stop());

  async function verify(n: number): Promise<string> {
    const src = source(n);
    const built = await build('0.8.28', standardInput({ [`Ahead${n}.sol`]: src }), `Ahead${n}.sol`, `Ahead${n}`);
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const { submit, status } = await verifyAndWait(service.apiUrl, key, singleFileFields(address, built, `Ahead${n}`, src));
    expect(status?.result, JSON.stringify(submit)).toBe('Pass - Verified');
    return submit.result as string;
  }

  it('verifies with the one compile started when the job was queued, then warms the loaded compiler up', async () => {
    const first = await verify(1);
    const phases = await logged('the first job', (l) => l.msg === 'verification phases' && l.receipt === first);
    expect(phases.compiledAhead).toBe(true);
    expect(lines().filter((l) => l.msg === 'compiled')).toHaveLength(1);

    // solc 0.8.28 was loaded for it: the service warms it up while nothing else compiles.
    expect((await logged('the warm-ups', (l) => l.msg === 'compiler warmed up', 60_000)).compiles).toBe(WARM_UPS);

    const second = await verify(2);
    expect((await logged('the second job', (l) => l.msg === 'verification phases' && l.receipt === second)).compiledAhead).toBe(true);
    // Warm-ups are not compiles of anybody's sources, and no compile was made twice.
    expect(lines().filter((l) => l.msg === 'compiled')).toHaveLength(2);
    expect(lines().filter((l) => l.msg === 'warming up a compiler')).toHaveLength(1);
  });
});
