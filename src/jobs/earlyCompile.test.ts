import { describe, expect, it } from 'vitest';
import type { Compiler, SolcInput, SolcOutput } from '../verify/index.js';
import { earlyCompiler, lookupsOnce } from './earlyCompile.js';

const input = (content: string): SolcInput => ({ language: 'Solidity', sources: { 'a.sol': { content } }, settings: {} });

/** A compiler that records its compiles and answers each when told. */
function recordingCompiler() {
  const calls: { input: SolcInput; signal?: AbortSignal; answer: (o: SolcOutput) => void }[] = [];
  const compiler: Compiler = {
    compile: (_version, sent, signal) =>
      new Promise<SolcOutput>((resolve, reject) => {
        calls.push({ input: sent, ...(signal ? { signal } : {}), answer: resolve });
        signal?.addEventListener('abort', () => reject(new Error('stopped')));
      }),
  };
  return { compiler, calls };
}

describe('earlyCompiler (a compile started while the chain is read)', () => {
  it('hands the compile already under way to the verification that asks for the same input', async () => {
    const { compiler, calls } = recordingCompiler();
    const early = earlyCompiler(compiler);
    void early.start('0.8.28+commit.7893614a', input('contract A {}'));
    const asked = early.compile('0.8.28+commit.7893614a', input('contract A {}'));
    expect(calls).toHaveLength(1);
    calls[0]!.answer({ contracts: {} });
    await expect(asked).resolves.toEqual({ contracts: {} });
    // Taken once: the same input asked again is compiled again.
    void early.compile('0.8.28+commit.7893614a', input('contract A {}'));
    expect(calls).toHaveLength(2);
  });

  it('compiles any other input or version as usual, and stops an early compile nobody took', async () => {
    const { compiler, calls } = recordingCompiler();
    const early = earlyCompiler(compiler);
    const ended = early.start('0.8.28+commit.7893614a', input('contract A {}'));
    void early.compile('0.8.28+commit.7893614a', input('contract B {}'));
    void early.compile('0.8.26+commit.8a97fa7a', input('contract A {}'));
    expect(calls).toHaveLength(3);
    early.discard();
    expect(calls[0]!.signal?.aborted).toBe(true);
    await expect(ended).resolves.toBeUndefined();
  });
});

describe('lookupsOnce (the known compilations of one job)', () => {
  it('looks each input up once, and other inputs as usual', async () => {
    const asked: string[] = [];
    const known = lookupsOnce({
      find: async (_version, sent, _path, name) => {
        asked.push(`${name}:${sent.sources['a.sol']?.content}`);
        return null;
      },
    });
    await known.find('0.8.28+commit.7893614a', input('contract A {}'), 'a.sol', 'A');
    await known.find('0.8.28+commit.7893614a', input('contract A {}'), 'a.sol', 'A');
    await known.find('0.8.28+commit.7893614a', input('contract B {}'), 'a.sol', 'B');
    expect(asked).toEqual(['A:contract A {}', 'B:contract B {}']);
  });
});
