import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope, failureWithReceipt, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('limits/compileLimits');
/**
 * Long enough for another verification to pass on a busy machine before the slow compile
 * reaches it, far below that compile's own length.
 */
const TIMEOUT_MS = 20_000;

/**
 * Functions with loops through the IR pipeline and its optimizer: measured for solc 0.8.28
 * (soljson, one core of this machine) at 7.5 s for 100 functions and 21.6-22.8 s for 300 when
 * idle; 56 s for 300 and 127 s for 900 (520 MB) at a load average of 12 on its 2 cores.
 */
function slowSource(functions: number): string {
  let body = '';
  for (let i = 0; i < functions; i++) {
    body += `    function f${i}(uint256 a, uint256 b) external pure returns (uint256 r) { unchecked { r = a; for (uint256 k = 0; k < b; k++) { r = (r * ${i + 3} + k) ^ (r >> ${(i % 200) + 1}); if (r % ${i + 7} == 0) r += a * b; } } }\n`;
  }
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Slow {\n${body}}\n`;
}

const boxSource = (n: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Box${n} { uint256 public value = ${n}; function set(uint256 v) external { value = v; } }
`;

describe('a compile past the time limit', () => {
  let service: RunningService;
  let key: string;
  const boxes: Array<{ address: string; built: Built; source: string; name: string }> = [];

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      // One key submits everything here: both job slots may serve it (fair shares are tested elsewhere).
      args: ['--compile-timeout-ms', String(TIMEOUT_MS), '--compiler-threads', '2', '--job-concurrency', '2', '--key-running-jobs', '2', '--rate-free', '1000'],
    });
    key = await createKey(service.dataDir);
    // Boxes 6 and 7 warm the two compiler workers up.
    for (const n of [1, 2, 3, 6, 7]) {
      const source = boxSource(n);
      const built = await build('0.8.28', standardInput({ [`Box${n}.sol`]: source }), `Box${n}.sol`, `Box${n}`);
      const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
      boxes.push({ address, built, source, name: `Box${n}` });
    }
  });
  afterAll(async () => service?.stop());

  const submitBox = (box: (typeof boxes)[number]): Promise<Envelope> =>
    apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: box.address,
      sourceCode: box.source,
      contractname: box.name,
      compilerversion: box.built.compilerVersion,
      optimizationUsed: '0',
    });

  it('fails the job with a time-limit text while other submissions and reads are served; the worker is freed', async () => {
    // Two verifications at once load solc 0.8.28 in both workers: the one raced against the
    // slow compile below then compiles warm instead of loading solc under a busy machine.
    const warmUps = await Promise.all([submitBox(boxes[3]!), submitBox(boxes[4]!)]);
    for (const w of warmUps) expect((await waitForVerdict(service.apiUrl, w.result, key, {}, 120_000)).result).toBe('Pass - Verified');

    // The slow source is submitted for an address that holds code (box 1): the compile never gets to matching.
    const slow = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: boxes[0]!.address,
      sourceCode: slowSource(900),
      contractname: 'Slow',
      compilerversion: boxes[0]!.built.compilerVersion,
      optimizationUsed: '1',
      runs: '200',
      viaIR: '1',
    });
    expect(slow.status, JSON.stringify(slow)).toBe('1');
    const started = Date.now();

    // While it compiles: reads are answered and another submission verifies.
    await new Promise((r) => setTimeout(r, 500));
    const readTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = Date.now();
      const env = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: boxes[1]!.address, apikey: key });
      readTimes.push(Date.now() - t);
      expect(env.status).toBe('1');
    }
    const during = await submitBox(boxes[1]!);
    expect(during.status).toBe('1');
    expect((await waitForVerdict(service.apiUrl, during.result, key, {}, 120_000)).result).toBe('Pass - Verified');
    const passedAfter = Date.now() - started;
    // ...all while the slow compile was still holding its worker: the service has not finished it.
    expect((await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: slow.result, apikey: key })).result).toBe('Pending in queue');

    const verdict = await waitForVerdict(service.apiUrl, slow.result, key, { chainid: '31337' }, 120_000);
    console.log(
      `slow compile: failed after ${Date.now() - started} ms (limit ${TIMEOUT_MS} ms); meanwhile reads took ${readTimes.join(', ')} ms and another verification passed after ${passedAfter} ms`,
    );
    // Ended by the limit, not by the compile finishing: only the limit words it so.
    expect(verdict).toEqual({
      status: '0',
      message: 'NOTOK',
      result: failureWithReceipt(`Fail - Unable to verify. Compilation exceeded the time limit of ${TIMEOUT_MS / 1000} s`),
    });
    const doc = (await (await fetch(`${service.baseUrl}/receipt/${slow.result}.json`)).json()) as { reasonCode: string };
    expect(doc.reasonCode).toBe('compile_timeout');

    // The slot the slow compile held is free again: with both workers needed, another verification passes.
    const afterwards = await submitBox(boxes[2]!);
    expect((await waitForVerdict(service.apiUrl, afterwards.result, key, {}, 60_000)).result).toBe('Pass - Verified');
    // The address the slow source named can still be verified with its real source.
    const retry = await submitBox(boxes[0]!);
    expect((await waitForVerdict(service.apiUrl, retry.result, key, {}, 60_000)).result).toBe('Pass - Verified');
  });
});

/** An inline array literal of `n` elements: solc's memory grows with it (100,000 elements: 346 MB of wasm memory). */
const hugeArraySource = (n: number) =>
  `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Big { function f() external pure returns (uint256) { uint8[${n}] memory x = [uint8(1)${',1'.repeat(n - 1)}]; return x[0]; } }\n`;

describe('a compile past the memory cap', () => {
  const MEMORY_MB = 256;
  let service: RunningService;
  let key: string;
  let box: { address: string; built: Built; source: string };

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      args: ['--compile-memory-mb', String(MEMORY_MB), '--compiler-threads', '1', '--job-concurrency', '1', '--rate-free', '1000'],
    });
    key = await createKey(service.dataDir);
    const source = boxSource(4);
    const built = await build('0.8.28', standardInput({ 'Box4.sol': source }), 'Box4.sol', 'Box4');
    box = { address: (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address, built, source };
  });
  afterAll(async () => service?.stop());

  it('fails the job with an out-of-memory text, and the only compiler slot serves the next job', async () => {
    const started = Date.now();
    const big = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: box.address,
      sourceCode: hugeArraySource(400_000),
      contractname: 'Big',
      compilerversion: box.built.compilerVersion,
      optimizationUsed: '0',
    });
    expect(big.status, JSON.stringify(big)).toBe('1');
    const verdict = await waitForVerdict(service.apiUrl, big.result, key, { chainid: '31337' }, 120_000);
    console.log(`memory-hungry compile: failed after ${Date.now() - started} ms (cap ${MEMORY_MB} MB): ${verdict.result}`);
    expect(verdict.status).toBe('0');
    expect(verdict.result).toMatch(new RegExp(`^Fail - Unable to verify\\. Compiler ran out of memory \\(limit ${MEMORY_MB} MB\\)`));

    const next = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: box.address,
      sourceCode: box.source,
      contractname: 'Box4',
      compilerversion: box.built.compilerVersion,
      optimizationUsed: '0',
    });
    expect((await waitForVerdict(service.apiUrl, next.result, key, {}, 60_000)).result).toBe('Pass - Verified');
  });
});

describe('a diagnosis past its time limit', () => {
  let service: RunningService;
  let key: string;
  let box: { address: string; built: Built; source: string };

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      // One compiler thread: the diagnosis's compile holds the only worker, so the pass afterwards needs a new one.
      args: ['--diagnosis-seconds', '1', '--compiler-threads', '1', '--job-concurrency', '1', '--rate-free', '1000'],
    });
    key = await createKey(service.dataDir);
    const source = boxSource(5);
    const built = await build('0.8.28', standardInput({ 'Box5.sol': source }), 'Box5.sol', 'Box5');
    box = { address: (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address, built, source };
  });
  afterAll(async () => service?.stop());

  it('stops the compile it has in flight at the limit and answers the failure; the pool then verifies again', async () => {
    // 100 slow functions (about 7.5 s to compile): the verification compiles them, fails (another
    // contract is deployed there), and the diagnosis's first compile of the same is still running
    // at its 1 s limit.
    const slow = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: box.address,
      sourceCode: slowSource(100),
      contractname: 'Slow',
      compilerversion: box.built.compilerVersion,
      optimizationUsed: '1',
      runs: '200',
      viaIR: '1',
    });
    expect(slow.status, JSON.stringify(slow)).toBe('1');
    const verdict = await waitForVerdict(service.apiUrl, slow.result, key, { chainid: '31337' }, 120_000);
    expect(verdict).toEqual({
      status: '0',
      message: 'NOTOK',
      result: failureWithReceipt(
        'Fail - Unable to verify. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode. ' +
          // Another contract is deployed there, and the answer says so.
          'The code at this address is not this contract: it holds none of its 100 functions (294 bytes deployed, 9603 compiled). Check the address. ' +
          'No setting tried made it match (0 tried, 1 compiles, stopped at its time limit, 1 compile cut short).',
      ),
    });
    // The receipt's facts: the diagnosis ended at its time limit with its one compile stopped unfinished.
    const doc = (await (await fetch(`${service.baseUrl}/receipt/${slow.result}.json`)).json()) as { reasonCode: string; diagnosis: Record<string, unknown> };
    console.log(`diagnosis past its 1 s limit: answered after ${String(doc.diagnosis['ms'])} ms of diagnosis, its compile stopped`);
    expect(doc.reasonCode).toBe('bytecode_mismatch');
    expect(doc.diagnosis).toMatchObject({ fix: null, tried: 0, compiles: 1, compilesStopped: 1, budgetSpent: true, limitReached: 'time' });
    const page = await (await fetch(`${service.baseUrl}/receipt/${slow.result}`)).text();
    expect(page).toContain('0 settings tried, 1 compile (stopped at its time limit, 1 compile cut short)');

    // The stopped compile's worker was the only one: a new one serves the next verification.
    const next = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: box.address,
      sourceCode: box.source,
      contractname: 'Box5',
      compilerversion: box.built.compilerVersion,
      optimizationUsed: '0',
    });
    expect((await waitForVerdict(service.apiUrl, next.result, key, {}, 60_000)).result).toBe('Pass - Verified');
  });
});
