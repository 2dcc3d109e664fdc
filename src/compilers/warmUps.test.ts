import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALLED_SOLC_VERSIONS, seedCompilerCache } from '../../test/helpers/compilerCache.js';
import type { SolcOutput } from '../verify/index.js';
import { CompilerPool } from './compilerPool.js';
import run from './compileWorker.js';
import { createSolcCompiler, type SolcCompiler } from './solcCompiler.js';
import { WARM_UP_INPUTS } from './warmUpInput.js';

const require = createRequire(import.meta.url);

const tiny = (n: number): string =>
  JSON.stringify({
    language: 'Solidity',
    sources: { 'T.sol': { content: `pragma solidity >=0.4.11;\ncontract T { uint256 public v${n}; }\n` } },
    settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  });

async function until(condition: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let cacheDir: string;
let versions: Record<string, string>;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'solproof-warm-ups-'));
  versions = await seedCompilerCache(cacheDir);
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await rm(cacheDir, { recursive: true, force: true });
});

describe('warm-up compiles (V8 optimises a compiler before users wait on it)', () => {
  it('compiles without errors with every installed solc, optimizer off and on', async () => {
    const compiler: SolcCompiler = createSolcCompiler({ cacheDir, mirrorUrl: null, npmRegistryUrl: null, maxThreads: 2, warmUpCompiles: 0 });
    closers.push(() => compiler.close());
    for (const short of INSTALLED_SOLC_VERSIONS) {
      for (const text of WARM_UP_INPUTS) {
        const output: SolcOutput = await compiler.compile(versions[short]!, JSON.parse(text));
        expect(
          (output.errors ?? []).filter((e) => e.severity === 'error'),
          short,
        ).toEqual([]);
        expect(output.contracts?.['WarmUp.sol']?.['WarmUp']?.evm?.bytecode?.object, short).toMatch(/^[0-9a-f]{100,}$/);
      }
    }
  }, 300_000);

  it('runs only with a compiler the worker already has loaded: it never loads one', () => {
    const path = require.resolve('solc-0.4.26/soljson.js');
    const warmUp = { kind: 'warm_up' as const, path, input: WARM_UP_INPUTS[0]!, maxMemoryMb: 2048 };
    const before = run(warmUp);
    expect(before).toMatchObject({ ok: true, warmedUp: true, compileMs: null });
    expect(before.warm).not.toContain(path);
    run({ kind: 'compile', path, input: tiny(0), warmPerWorker: 3, maxMemoryMb: 2048, maxOutputBytes: 1 << 26 });
    const after = run(warmUp);
    expect(after).toMatchObject({ ok: true, warmedUp: true });
    expect(after.ok && 'warmedUp' in after ? after.compileMs : null).toBeGreaterThan(0);
    expect(after.warm).toContain(path);
  }, 120_000);

  it('follows a compiler load while the pool is idle, and a compile that arrives meanwhile waits for the warm worker', async () => {
    const path = require.resolve('solc/soljson.js');
    const pool = new CompilerPool({ maxThreads: 2, timeoutMs: 60_000, maxMemoryMb: 2048, warmPerWorker: 3, idleTimeoutMs: 60_000, warmUpCompiles: 6 });
    closers.push(() => pool.close());
    const first = await pool.compileSoljson(path, tiny(1));
    expect(first.loadMs).not.toBeNull();
    await until(() => pool.stats().warmUps >= 1);
    // Arrives while the warm-ups run: served by the worker that has the compiler, not loaded again in the other.
    const second = await pool.compileSoljson(path, tiny(2));
    expect(second.loadMs).toBeNull();
    await until(() => pool.stats().warmUps === 6 && pool.stats().running === 0);
    const third = await pool.compileSoljson(path, tiny(3));
    expect(third.loadMs).toBeNull();
    expect(pool.stats()).toMatchObject({ compiles: 3, coldLoads: 1, warmCompiles: 2, warmUps: 6 });
    // Done: no more warm-ups for a compiler already warmed.
    await new Promise((r) => setTimeout(r, 200));
    expect(pool.stats().warmUps).toBe(6);
  }, 120_000);

  it('stops with the pool: closing while warm-ups are pending leaves nothing running', async () => {
    const path = require.resolve('solc/soljson.js');
    const pool = new CompilerPool({ maxThreads: 1, timeoutMs: 60_000, maxMemoryMb: 2048, warmPerWorker: 3, idleTimeoutMs: 60_000, warmUpCompiles: 1000 });
    await pool.compileSoljson(path, tiny(4));
    await until(() => pool.stats().warmUps >= 1);
    await pool.close();
    const after = pool.stats().warmUps;
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.stats().warmUps).toBe(after);
  }, 120_000);
});
