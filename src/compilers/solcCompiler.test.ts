import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALLED_SOLC_VERSIONS, seedCompilerCache } from '../../test/helpers/compilerCache.js';
import { rejection } from '../../test/helpers/rejection.js';
import { errorSentence } from '../texts/index.js';
import type { SolcInput } from '../verify/index.js';
import { createSolcCompiler, type SolcCompiler } from './solcCompiler.js';

function counterInput(extra = ''): SolcInput {
  return {
    language: 'Solidity',
    sources: {
      'Counter.sol': {
        content: `pragma solidity >=0.4.11;\ncontract Counter {\n  uint256 public count;${extra}\n  function inc() public { count += 1; }\n}\n`,
      },
    },
    settings: {
      optimizer: { enabled: false, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
}

/** Many functions compiled through the IR pipeline: takes about a minute. */
function slowInput(): SolcInput {
  let content = 'pragma solidity ^0.8.0;\ncontract Slow {\n  mapping(uint => uint) m;\n';
  for (let i = 0; i < 200; i++) {
    content += `  function f${i}(uint a, uint b) public returns (uint) { uint c = a * ${i + 1} + b; for (uint j = 0; j < a; j++) { c += m[j] * ${i} + j ** 2; m[c % 7] = c; } return c; }\n`;
  }
  return {
    language: 'Solidity',
    sources: { 'Slow.sol': { content: `${content}}\n` } },
    settings: { viaIR: true, optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
}

/** A 20 000-element array literal: solc's type checker needs far more than 64 MB for it. */
function memoryHungryInput(): SolcInput {
  const n = 20_000;
  const elements = Array.from({ length: n }, (_, i) => (i === 0 ? 'uint8(1)' : String(i % 10))).join(',');
  return {
    language: 'Solidity',
    sources: {
      'Big.sol': {
        content: `pragma solidity ^0.8.0;\ncontract Big { function f() public pure returns (uint s) { uint8[${n}] memory x = [${elements}]; s = x[3]; } }\n`,
      },
    },
    settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
}

let cacheDir: string;
let versions: Record<string, string>;
const compilers: SolcCompiler[] = [];

function compilerWith(options: Partial<Parameters<typeof createSolcCompiler>[0]> = {}): SolcCompiler {
  // No warm-ups: these tests count what runs.
  const c = createSolcCompiler({ cacheDir, mirrorUrl: null, npmRegistryUrl: null, maxThreads: 2, warmUpCompiles: 0, ...options });
  compilers.push(c);
  return c;
}

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'solproof-compilers-'));
  versions = await seedCompilerCache(cacheDir);
});

afterAll(async () => {
  await Promise.all(compilers.map((c) => c.close()));
  await rm(cacheDir, { recursive: true, force: true });
});

describe('createSolcCompiler with a seeded cache', () => {
  it('compiles the same contract with every installed solc from 0.4.11 to 0.8.28', async () => {
    const compiler = compilerWith();
    const outputs = await Promise.all(
      INSTALLED_SOLC_VERSIONS.map(async (short) => [short, await compiler.compile(`v${versions[short]}`, counterInput())] as const),
    );
    for (const [short, output] of outputs) {
      const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
      expect(errors, short).toEqual([]);
      const counter = output.contracts?.['Counter.sol']?.Counter;
      expect(counter?.evm?.bytecode?.object, short).toMatch(/^60[0-9a-f]{200,}$/);
      expect(counter?.evm?.deployedBytecode?.object, short).toMatch(/^60[0-9a-f]{100,}$/);
      expect(counter?.abi, short).toContainEqual(expect.objectContaining({ name: 'inc', type: 'function' }));
    }
    // 0.4.x appends bzzr0 auxdata, 0.6+ ipfs: each build really is the version asked for.
    const runtime = (short: string) => outputs.find(([s]) => s === short)![1].contracts!['Counter.sol']!.Counter!.evm!.deployedBytecode!.object;
    expect(runtime('0.4.11')).toMatch(/a165627a7a72305820[0-9a-f]{64}0029$/);
    expect(runtime('0.8.28')).toMatch(/a264697066735822[0-9a-f]{68}64736f6c634300081c0033$/);
    expect(runtime('0.8.18')).toMatch(/64736f6c63430008120033$/);
  });

  it('loads compilers from a cache inside an ES-module package (the default ./.data of this project)', async () => {
    const project = await mkdtemp(join(tmpdir(), 'solproof-esm-project-'));
    try {
      await writeFile(join(project, 'package.json'), '{ "type": "module" }\n');
      const inner = join(project, '.data', 'compilers');
      await seedCompilerCache(inner, ['0.8.28']);
      const compiler = createSolcCompiler({ cacheDir: inner, mirrorUrl: null, npmRegistryUrl: null, maxThreads: 1 });
      compilers.push(compiler);
      const output = await compiler.compile(versions['0.8.28']!, counterInput());
      expect(output.contracts?.['Counter.sol']?.['Counter']?.evm?.bytecode?.object).toMatch(/^[0-9a-f]+$/);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('returns Solidity errors in the output instead of throwing', async () => {
    const output = await compilerWith().compile(versions['0.8.28']!, counterInput('\n  function broken( public {}'));
    expect(output.errors?.some((e) => e.severity === 'error' && e.type === 'ParserError')).toBe(true);
    expect(output.contracts?.['Counter.sol']).toBeUndefined();
  });

  it('keeps a compiler warm: the second compile of a version skips loading it', async () => {
    const compiler = compilerWith({ maxThreads: 2 });
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await compiler.compile(versions['0.8.28']!, counterInput(`\n  uint256 public v${i};`));
      times.push(performance.now() - t0);
    }
    const stats = compiler.stats();
    console.log(`solc 0.8.28 cold load+compile ${times[0]!.toFixed(0)} ms; warm compiles ${times[1]!.toFixed(0)} ms, ${times[2]!.toFixed(0)} ms`);
    expect(stats).toMatchObject({ compiles: 3, coldLoads: 1, warmCompiles: 2 });
  });

  it('rejects a version no source has with compiler_version_not_found', async () => {
    // npm is authoritative for releases: its 404 settles the question without the mirror.
    const compiler = compilerWith({ npmRegistryUrl: 'https://registry.npmjs.org' });
    const e = await rejection(compiler.compile('v0.8.99+commit.deadbeef', counterInput()));
    expect(e.code).toBe('compiler_version_not_found');
    expect(errorSentence(e)).toBe('Compiler version v0.8.99+commit.deadbeef is not available from any compiler source');
    expect(e.retryable).toBe(false);
  });

  it('rejects malformed versions before touching the cache or the network', async () => {
    const compiler = compilerWith({ npmRegistryUrl: 'https://registry.npmjs.org' });
    for (const bad of ['latest', '0.8.26+commit.8a97fa7a/../../../etc/passwd', '0.8.26']) {
      const e = await rejection(compiler.compile(bad, counterInput()));
      expect(e.code).toBe('compiler_version_not_found');
      expect(errorSentence(e)).toMatch(/is not a valid compiler version$/);
    }
  });

  it('stops a compile at the time limit and keeps compiling afterwards', async () => {
    // The limit also holds the compile afterwards, in a new worker that loads solc first: enough
    // for that on a busy machine, far below the slow compile's minute.
    const compiler = compilerWith({ maxThreads: 1, timeoutMs: 15_000 });
    // Only the limit ends a compile with compile_timeout.
    const e = await rejection(compiler.compile(versions['0.8.28']!, slowInput()));
    expect(e.code).toBe('compile_timeout');
    expect(errorSentence(e)).toBe('Compilation exceeded the time limit of 15 s');
    const output = await compiler.compile(versions['0.8.28']!, counterInput());
    expect(output.contracts?.['Counter.sol']?.Counter?.evm?.bytecode?.object).toMatch(/^60/);
    expect(compiler.stats()).toMatchObject({ timeouts: 1, compiles: 1 });
  });

  it("stops a running compile when its caller's signal fires: its worker is terminated, the other compiles go on", async () => {
    const compiler = compilerWith({ maxThreads: 2 });
    const caller = new AbortController();
    const slow = rejection(compiler.compile(versions['0.8.28']!, slowInput(), caller.signal));
    // Another compile beside it finishes while the slow one runs (it takes about a minute).
    const beside = await compiler.compile(versions['0.8.28']!, counterInput());
    expect(beside.contracts?.['Counter.sol']?.Counter?.evm?.bytecode?.object).toMatch(/^60/);
    expect(compiler.stats()).toMatchObject({ running: 1, threads: 2, compiles: 1 });
    caller.abort();
    const e = await slow;
    expect(e.code).toBe('compile_cancelled');
    expect(errorSentence(e)).toBe('The compilation was stopped before it finished');
    // The worker that ran it is gone; the one beside it stays.
    expect(compiler.stats()).toMatchObject({ running: 0, threads: 1, cancelled: 1, timeouts: 0, crashes: 0 });
    // Both slots serve again: two compiles at once, one on a new worker.
    const [a, b] = await Promise.all([
      compiler.compile(versions['0.8.28']!, counterInput('\n  uint256 public a;')),
      compiler.compile(versions['0.8.28']!, counterInput('\n  uint256 public b;')),
    ]);
    expect(a.contracts?.['Counter.sol']?.Counter?.evm?.bytecode?.object).toMatch(/^60/);
    expect(b.contracts?.['Counter.sol']?.Counter?.evm?.bytecode?.object).toMatch(/^60/);
    expect(compiler.stats()).toMatchObject({ compiles: 3, threads: 2 });
  });

  it('drops a compile waiting for a slot when its signal fires, leaving the running one alone', async () => {
    const compiler = compilerWith({ maxThreads: 1 });
    const first = new AbortController();
    const second = new AbortController();
    const running = rejection(compiler.compile(versions['0.8.28']!, slowInput(), first.signal));
    await compiler.resolve(versions['0.8.28']!);
    while (compiler.stats().running === 0) await new Promise((r) => setTimeout(r, 10));
    const waiting = rejection(compiler.compile(versions['0.8.28']!, counterInput(), second.signal));
    while (compiler.stats().queued === 0) await new Promise((r) => setTimeout(r, 10));
    second.abort();
    expect((await waiting).code).toBe('compile_cancelled');
    expect(compiler.stats()).toMatchObject({ running: 1, queued: 0 });
    first.abort();
    expect((await running).code).toBe('compile_cancelled');
    // A signal that has fired already stops a compile before it starts.
    expect((await rejection(compiler.compile(versions['0.8.28']!, counterInput(), second.signal))).code).toBe('compile_cancelled');
    // Only the running one had a worker to stop.
    expect(compiler.stats()).toMatchObject({ running: 0, queued: 0, cancelled: 1 });
  });

  it('reports compile_out_of_memory at the memory limit and keeps compiling afterwards', async () => {
    const compiler = compilerWith({ maxThreads: 1, maxMemoryMb: 64 });
    const e = await rejection(compiler.compile(versions['0.8.28']!, memoryHungryInput()));
    expect(e.code).toBe('compile_out_of_memory');
    expect(errorSentence(e)).toMatch(/^Compiler ran out of memory \(limit 64 MB\)/);
    const output = await compiler.compile(versions['0.8.28']!, counterInput());
    expect(output.contracts?.['Counter.sol']?.Counter?.evm?.bytecode?.object).toMatch(/^60/);
  });

  it('compiles inputs larger than the emscripten stack', async () => {
    // solc-js alone fails with "memory access out of bounds" from about 1.5 MB of input.
    const input = counterInput(`\n  /*${'x'.repeat(3 * 1024 * 1024)}*/`);
    const output = await compilerWith().compile(versions['0.8.28']!, input);
    expect(output.contracts?.['Counter.sol']?.Counter?.evm?.bytecode?.object).toMatch(/^60/);
  });
});
