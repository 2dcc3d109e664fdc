import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import run, { type CompileTask } from './compileWorker.js';

const require = createRequire(import.meta.url);

const task = (path: string, warmMemoryBytes: number): CompileTask => ({
  kind: 'compile',
  path,
  input: JSON.stringify({
    language: 'Solidity',
    sources: { 'a.sol': { content: 'contract A {}' } },
    settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  }),
  warmPerWorker: 3,
  warmMemoryBytes,
  maxMemoryMb: 2048,
  maxOutputBytes: 64 * 1024 * 1024,
});

describe('compilers kept loaded between compiles', () => {
  it('keeps a compiler within the memory budget loaded, and drops one that does not fit', () => {
    const path = require.resolve('solc-0.4.26/soljson.js');
    const first = run(task(path, 1024 * 1024 * 1024));
    expect(first.ok && 'loadMs' in first && first.loadMs).not.toBe(null);
    const warm = run(task(path, 1024 * 1024 * 1024));
    expect(warm.ok && 'loadMs' in warm ? warm.loadMs : 'failed').toBe(null);
    expect(warm.warm).toEqual([path]);
    // A budget smaller than the compiler: loaded for the compile, then dropped.
    const over = run(task(path, 1024));
    expect(over.ok).toBe(true);
    expect(over.warm).toEqual([]);
    const again = run(task(path, 1024));
    expect(again.ok && 'loadMs' in again ? again.loadMs : 'failed').not.toBe(null);
  }, 120_000);
});
