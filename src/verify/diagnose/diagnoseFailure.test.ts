/**
 * The diagnosis's limits, with stand-in compilers as its neighbour: one that never finishes on
 * its own (it ends only when its signal fires, as the pool stops a worker), one that answers at
 * once with nothing. The order of events shows that the verdict comes at the time limit, not
 * after the compile.
 */
import { describe, expect, it } from 'vitest';
import { SolproofError } from '../../core/errors.js';
import type { SourceSubmission } from '../../core/types.js';
import type { Compiler } from '../ports.js';
import { type DiagnoseArgs, diagnoseFailure } from './diagnoseFailure.js';

const submission: SourceSubmission = {
  codeFormat: 'solidity-single-file',
  address: '0x00000000000000000000000000000000000000aa',
  contractName: 'C',
  compilerVersion: 'v0.8.28+commit.7893614a',
  optimizationUsed: false,
  runs: 200,
  constructorArguments: '',
  evmVersion: '',
  licenseType: 0,
  libraries: [],
  viaIR: false,
  sourceCode: '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract C { uint256 public n; }\n',
};

const args = (compiler: Compiler, budget: DiagnoseArgs['budget'], more: Partial<DiagnoseArgs> = {}): DiagnoseArgs => ({
  compiler,
  submission,
  runtimeCode: '0x6080604052600080fd',
  creation: null,
  failure: new SolproofError('no_match', { compiledRuntimeLength: 12, onchainRuntimeLength: 9 }),
  releases: () => null,
  compilerAvailable: async () => true,
  budget,
  ...more,
});

/** Never finishes unless its signal fires; then rejects as the pool does. */
function endlessCompiler(events: string[]): Compiler {
  return {
    compile: (_version, _input, signal) =>
      new Promise((_resolve, reject) => {
        events.push('compile started');
        signal?.addEventListener(
          'abort',
          () => {
            events.push('compile stopped');
            reject(new SolproofError('compile_cancelled', {}));
          },
          { once: true },
        );
      }),
  };
}

describe('diagnoseFailure within its budget', () => {
  it('stops the compile in flight at its time limit and answers then, saying so', async () => {
    const events: string[] = [];
    const diagnosis = await diagnoseFailure(args(endlessCompiler(events), { compiles: 24, ms: 300 }));
    events.push('diagnosis answered');
    expect(events).toEqual(['compile started', 'compile stopped', 'diagnosis answered']);
    expect(diagnosis).toMatchObject({ fix: null, tried: 0, compiles: 1, compilesStopped: 1, budgetSpent: true, limitReached: 'time' });
  });

  it('stops waiting for the verifications it yields to at its time limit, without compiling', async () => {
    const events: string[] = [];
    const diagnosis = await diagnoseFailure(
      args(
        endlessCompiler(events),
        { compiles: 24, ms: 300 },
        {
          // Verifications that never let go of the gate: only the signal ends the wait.
          beforeCompile: (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
        },
      ),
    );
    expect(events).toEqual([]);
    expect(diagnosis).toMatchObject({ compiles: 0, compilesStopped: 0, budgetSpent: true, limitReached: 'time' });
  });

  it('ends at its number of compiles when those finish within its time', async () => {
    const signals: AbortSignal[] = [];
    const empty: Compiler = {
      compile: async (_version, _input, signal) => {
        if (signal) signals.push(signal);
        return {};
      },
    };
    const diagnosis = await diagnoseFailure(args(empty, { compiles: 3, ms: 60_000 }));
    expect(diagnosis).toMatchObject({ fix: null, compiles: 3, compilesStopped: 0, budgetSpent: true, limitReached: 'compiles' });
    // Every compile was given the diagnosis's deadline; none of them was stopped by it.
    expect(signals).toHaveLength(3);
    expect(signals.every((s) => !s.aborted)).toBe(true);
  });

  it('does not say it stopped early when every candidate was tried', async () => {
    const empty: Compiler = { compile: async () => ({}) };
    const diagnosis = await diagnoseFailure(args(empty, { compiles: 1000, ms: 60_000 }));
    expect(diagnosis).toMatchObject({ budgetSpent: false, limitReached: null, compilesStopped: 0 });
    expect(diagnosis.tried).toBeGreaterThan(5);
  });
});
