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
    await ahead.start({ receipt: 'r1', submission: sent });
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

  it('starts nothing when its runner has no room, or too many wait to be taken', async () => {
    const { compiler, calls } = recordingCompiler();
    let room = false;
    const ahead = compilesAhead(compiler, { room: () => room, maxKept: 2 });
    await ahead.start({ receipt: 'r1', submission: submission('contract A {}') });
    expect(calls).toHaveLength(0);
    room = true;
    for (const receipt of ['r2', 'r3', 'r4']) await ahead.start({ receipt, submission: submission(`contract A {} // ${receipt}`) });
    expect(calls).toHaveLength(2);
    expect(ahead.take('r4')).toBeNull();
  });

  it("never starts more compiles for a key than its share, counting its running jobs; another key's goes ahead", async () => {
    const { compiler, calls } = recordingCompiler();
    const keys: Record<string, string> = { s1: 'sourcify:1.2.3.4', s2: 'sourcify:1.2.3.4', s3: 'sourcify:1.2.3.4', k1: 'key_k', r1: 'key_r' };
    const running: Record<string, number> = { 'sourcify:1.2.3.4': 0, key_k: 0, key_r: 1 };
    const ahead = compilesAhead(compiler, {
      room: () => true,
      share: { perKey: 1, runningOfJobsKey: async (receipt) => ({ apiKeyId: keys[receipt]!, running: running[keys[receipt]!]! }) },
    });
    // Submitted together: decided one at a time, so only the first of the key gets a compile.
    await Promise.all(['s1', 's2', 's3', 'k1', 'r1'].map((receipt) => ahead.start({ receipt, submission: submission(`contract A {} // ${receipt}`) })));
    expect(calls).toHaveLength(2);
    expect(ahead.take('s2')).toBeNull();
    expect(ahead.take('s3')).toBeNull();
    // key_r already runs its share: nothing ahead for it.
    expect(ahead.take('r1')).toBeNull();
    expect(ahead.take('k1')).not.toBeNull();
    expect(ahead.take('s1')).not.toBeNull();
  });

  it('stops a compile whose job the runner did not take in the claims that followed, at once; keeps the taken and the newer ones', async () => {
    const { compiler, calls } = recordingCompiler();
    const ahead = compilesAhead(compiler, { room: () => true });
    await ahead.start({ receipt: 'r1', submission: submission('contract A {} // r1') });
    await ahead.start({ receipt: 'r2', submission: submission('contract A {} // r2') });
    const lookedAt = performance.now();
    await ahead.start({ receipt: 'r3', submission: submission('contract A {} // r3') });
    // The round looked at the queue after r1 and r2 were queued: it took r1, not r2 (another runner did, or it waits).
    ahead.keepOnly(new Set(['r1']), lookedAt);
    expect(calls[1]!.signal?.aborted).toBe(true);
    expect(ahead.take('r2')).toBeNull();
    expect(calls[0]!.signal?.aborted).toBe(false);
    // r3 was queued after that look: left for the next round.
    expect(calls[2]!.signal?.aborted).toBe(false);
    expect(ahead.take('r1')).not.toBeNull();
    expect(ahead.take('r3')).not.toBeNull();
  });

  it("lets a job that needs another input stop the adopted compile and start its own; the job's signal stops an adopted compile", async () => {
    const { compiler, calls } = recordingCompiler();
    const ahead = compilesAhead(compiler, { room: () => true });
    await ahead.start({ receipt: 'r1', submission: submission('contract A {}') });
    const early = earlyCompiler(compiler);
    early.adopt(ahead.take('r1')!);
    void early.start('0.8.28+commit.7893614a', input('contract B {}'));
    expect(calls).toHaveLength(2);
    expect(calls[0]!.signal?.aborted).toBe(true);

    await ahead.start({ receipt: 'r2', submission: submission('contract A {} // r2') });
    const job = new AbortController();
    earlyCompiler(compiler, job.signal).adopt(ahead.take('r2')!);
    job.abort(new Error('put back for another key'));
    expect(calls[2]!.signal?.aborted).toBe(true);
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
