/**
 * Attacks 5 and 6 of the attack review, against a service of their own on the suite's anvil:
 * inputs that cost a compile far more than their size (output amplification, the SMT model
 * checker), and one key's queue delaying everyone else's.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AMPLIFICATION_PATH, AMPLIFICATION_TARGET, amplificationInput } from '../../bench/amplificationInput.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope, waitForVerdict } from '../helpers/api.js';
import { deployContract, deployRaw } from '../helpers/chain.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { compileForTest } from '../helpers/solc.js';

const ACCOUNT = deployerAccount('attacks/compileCost');
const COMPILE_TIMEOUT_MS = 60_000;

/** Peak resident memory of a process (all its threads), in MB. */
function peakMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

describe('inputs that cost a compile more than their size', () => {
  let service: RunningService;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      args: [
        '--compile-timeout-ms',
        String(COMPILE_TIMEOUT_MS),
        '--compiler-threads',
        '2',
        '--job-concurrency',
        '2',
        '--key-queued-jobs',
        '4',
        '--rate-free',
        '1000',
        // The slow jobs are meant to fail: diagnosing each (more slow compiles) would only lengthen the run.
        '--diagnosis-compiles',
        '0',
        // Status checks answer at once: attack 6 reads where the slow jobs stand at one moment.
        '--status-wait-ms',
        '0',
      ],
    });
    [key, otherKey] = await Promise.all([createKey(service.dataDir), createKey(service.dataDir)]);
  });
  afterAll(async () => service?.stop());

  const submit = (apiKey: string, fields: Record<string, string>): Promise<Envelope> =>
    apiPost(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...fields });

  it('attack 5: 1,700 contracts with their sources in every metadata verify in bounded memory, reads answering meanwhile', async () => {
    const input = amplificationInput();
    const text = JSON.stringify(input);
    expect(text.length).toBeGreaterThan(200_000);
    const own = { ...input, settings: { ...input.settings, outputSelection: { [AMPLIFICATION_PATH]: { [AMPLIFICATION_TARGET]: ['evm.bytecode.object'] } } } };
    const bytecode = compileForTest('solc', own).contracts![AMPLIFICATION_PATH]![AMPLIFICATION_TARGET]!.evm!.bytecode!.object;
    const { address } = await deployRaw(`0x${bytecode}`, ACCOUNT);

    const before = peakMb(service.process.pid!);
    const submitted = await submit(key, {
      contractaddress: address,
      sourceCode: text,
      codeformat: 'solidity-standard-json-input',
      contractname: `${AMPLIFICATION_PATH}:${AMPLIFICATION_TARGET}`,
      compilerversion: 'v0.8.28+commit.7893614a',
    });
    expect(submitted.status).toBe('1');
    const reads: number[] = [];
    // Reads answered while the service still had the verification pending: its compile did not hold them.
    let readsWhilePending = 0;
    let done = false;
    const watcher = (async () => {
      while (!done) {
        const t0 = performance.now();
        const abi = await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address, apikey: otherKey });
        reads.push(performance.now() - t0);
        expect(abi.status === '1' || abi.result === 'Contract source code not verified', JSON.stringify(abi)).toBe(true);
        // Still no verdict (the status check below holds its answer until there is one).
        if (!done && abi.status !== '1') readsWhilePending++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const verdict = await waitForVerdict(service.apiUrl, submitted.result, key, { chainid: '31337' }, 120_000);
    const seconds = (performance.now() - started) / 1000;
    done = true;
    await watcher;
    const peak = peakMb(service.process.pid!);
    console.log(
      `amplification input: ${verdict.result} in ${seconds.toFixed(1)} s; service peak memory ${before.toFixed(0)} -> ${peak.toFixed(0)} MB; ${reads.length} reads meanwhile (${readsWhilePending} while pending), slowest ${Math.max(...reads).toFixed(0)} ms`,
    );
    expect(verdict.result).toBe('Pass - Verified');
    // The same input made the service peak at about 2.1 GB before (and run out of output space).
    expect(peak).toBeLessThan(1000);
    expect(readsWhilePending).toBeGreaterThan(0);
  });

  it('attack 6: a model checker setting does not hold a worker; the contract still matches fully without it', async () => {
    const source = `pragma solidity ^0.8.0;
contract M {
  function f(uint a, uint b) external pure returns (uint x) {
    x = a * b + b * b;
    for (uint i; i < a; i++) x = x * 3 + i * i;
    assert(x != 7);
  }
}`;
    const input = standardInput({ 'M.sol': source });
    const m = await build('0.8.28', input, 'M.sol', 'M');
    const { address } = await deployContract(m.abi, m.bytecode, [], ACCOUNT);
    // 392 bytes: solc's CHC engine does not finish on it within a minute (timeout 0: no limit of its own).
    const hostile = { ...input, settings: { ...input.settings, modelChecker: { engine: 'chc', targets: ['assert'], timeout: 0 } } };
    const submitted = await submit(key, {
      contractaddress: address,
      sourceCode: JSON.stringify(hostile),
      codeformat: 'solidity-standard-json-input',
      contractname: 'M.sol:M',
      compilerversion: m.compilerVersion,
    });
    expect(submitted.status).toBe('1');
    // Had the model checker run, the compile would have ended at the service's time limit (60 s) and failed.
    const verdict = await waitForVerdict(service.apiUrl, submitted.result, key, { chainid: '31337' }, 120_000);
    expect(verdict.result).toBe('Pass - Verified');
    const record = (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key })).result[0];
    expect(record.MatchKind).toBe('full');
  });

  it("attack 6: one key's queue does not delay another key; a key's unfinished jobs are bounded", async () => {
    // Each slow job compiles about 3 s (40 looping functions through the IR optimizer).
    let body = '';
    for (let i = 0; i < 40; i++) {
      body += `  function f${i}(uint256 a, uint256 b) external pure returns (uint256 r) { unchecked { r = a; for (uint256 k = 0; k < b; k++) { r = (r * ${i + 3} + k) ^ (r >> ${i + 1}); if (r % ${i + 7} == 0) r += a * b; } } }\n`;
    }
    const boxSource = 'pragma solidity ^0.8.0;\ncontract Box { uint256 public value = 7; }\n';
    const box: Built = await build('0.8.28', standardInput({ 'Box.sol': boxSource }), 'Box.sol', 'Box');
    // The slow jobs are for one box (they never match it), the other key's job for another.
    // One box per slow job: a key's second unfinished job for one address would be refused as its duplicate.
    const slowTargets: string[] = [];
    for (let n = 0; n <= 5; n++) slowTargets.push((await deployContract(box.abi, box.bytecode, [], ACCOUNT)).address);
    const { address } = await deployContract(box.abi, box.bytecode, [], ACCOUNT);
    const slow = (n: number) => ({
      contractaddress: slowTargets[n]!,
      codeformat: 'solidity-single-file',
      contractname: 'Slow',
      compilerversion: box.compilerVersion,
      optimizationUsed: '1',
      viaIR: '1',
      sourceCode: `pragma solidity ^0.8.0;\ncontract Slow {\n  uint256 public n = ${n};\n${body}}\n`,
    });
    const queued = await Promise.all([1, 2, 3, 4].map((n) => submit(key, slow(n))));
    for (const q of queued) expect(q.status).toBe('1');
    expect(await submit(key, slow(5))).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'This API key has 4 verifications waiting or running; submit more when some have finished',
    });

    const started = performance.now();
    const other = await submit(otherKey, {
      contractaddress: address,
      codeformat: 'solidity-single-file',
      contractname: 'Box',
      compilerversion: box.compilerVersion,
      optimizationUsed: '0',
      sourceCode: boxSource,
    });
    expect(other.status).toBe('1');
    const verdict = await waitForVerdict(service.apiUrl, other.result, otherKey, {}, 60_000);
    const waited = performance.now() - started;
    const pending = await Promise.all(
      queued.map(async (q) => (await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: q.result, apikey: key })).result),
    );
    console.log(
      `another key's verification while one key had 4 slow jobs queued: ${verdict.result} after ${waited.toFixed(0)} ms; that key's jobs then: ${pending.join(', ')}`,
    );
    expect(verdict.result).toBe('Pass - Verified');
    // First in, first out would have run all four slow jobs first (two at a time).
    expect(pending.filter((p) => p === 'Pending in queue').length).toBeGreaterThanOrEqual(2);
    const finals = [];
    for (const q of queued) finals.push((await waitForVerdict(service.apiUrl, q.result, key, { verbose: '1' }, 120_000)).result);
    console.log(`slow jobs done after ${(performance.now() - started).toFixed(0)} ms: ${finals.join(' | ')}`);
  });
});
