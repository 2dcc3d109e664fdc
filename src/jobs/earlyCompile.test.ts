import { describe, expect, it } from 'vitest';
import { submissionWith } from '../../test/helpers/submissions.js';
import type { SourceSubmission } from '../core/types.js';
import type { Compiler, SolcInput, SolcOutput } from '../verify/index.js';
import { compilesAhead, earlyCompiler, firstCompile, lookupsOnce } from './earlyCompile.js';

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

const submission = (sourceCode: string): SourceSubmission => submissionWith({ sourceCode, contractName: 'A' });

describe('compilesAhead (a compile started when the job is queued)', () => {
  it('starts the compile the job would start first, and hands it to that job once', async () => {
    const { compiler, calls } = recordingCompiler();
    const ahead = compilesAhead(compiler, { room: () => true });
    const sent = submission('pragma solidity ^0.8.0;\ncontract A {}\n');
    ahead.start({ receipt: 'r1', submission: sent });
    expect(calls).toHaveLength(1);
    const expected = firstCompile(sent)!;
    expect(calls[0]!.input).toEqual(expected.input);
    const taken = ahead.take('r1');
    expect(taken?.version).toBe('0.8.28+commit.7893614a');
    expect(ahead.take('r1')).toBeNull();

    // The job adopts it: its own early start and its compile use the one under way.
    const early = earlyCompiler(compiler);
    early.adopt(taken!);
    void early.start(expected.version, expected.input);
    const output = early.compile(expected.version, expected.input);
    expect(calls).toHaveLength(1);
    calls[0]!.answer({ contracts: {} });
    await expect(output).resolves.toEqual({ contracts: {} });
    expect(early.tookAdopted()).toBe(true);
  });

  it('starts nothing when its runner has no room, or too many wait to be taken', () => {
    const { compiler, calls } = recordingCompiler();
    let room = false;
    const ahead = compilesAhead(compiler, { room: () => room, maxKept: 2 });
    ahead.start({ receipt: 'r1', submission: submission('contract A {}') });
    expect(calls).toHaveLength(0);
    room = true;
    for (const receipt of ['r2', 'r3', 'r4']) ahead.start({ receipt, submission: submission(`contract A {} // ${receipt}`) });
    expect(calls).toHaveLength(2);
    expect(ahead.take('r4')).toBeNull();
  });

  it('keeps a compile nobody takes while it runs, and drops it keepMs after it ends', async () => {
    const { compiler, calls } = recordingCompiler();
    const ahead = compilesAhead(compiler, { room: () => true, keepMs: 20 });
    for (const receipt of ['r1', 'r2', 'r3']) ahead.start({ receipt, submission: submission(`contract A {} // ${receipt}`) });
    await new Promise((r) => setTimeout(r, 60));
    // Still running after longer than keepMs: a job claimed late takes it.
    expect(ahead.take('r1')).not.toBeNull();
    // Just ended: still there for a claim on its way.
    calls[1]!.answer({ contracts: {} });
    await new Promise((r) => setImmediate(r));
    expect(ahead.take('r2')).not.toBeNull();
    // Ended longer than keepMs ago: dropped.
    calls[2]!.answer({ contracts: {} });
    await new Promise((r) => setTimeout(r, 60));
    expect(ahead.take('r3')).toBeNull();
  });

  it('lets a job that needs another input stop the adopted compile and start its own', () => {
    const { compiler, calls } = recordingCompiler();
    const ahead = compilesAhead(compiler, { room: () => true });
    ahead.start({ receipt: 'r1', submission: submission('contract A {}') });
    const early = earlyCompiler(compiler);
    early.adopt(ahead.take('r1')!);
    void early.start('0.8.28+commit.7893614a', input('contract B {}'));
    expect(calls).toHaveLength(2);
    expect(calls[0]!.signal?.aborted).toBe(true);
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
