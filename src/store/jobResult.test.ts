import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobResult } from '../core/jobResults.js';
import type { JobKind } from './database.js';
import { decodeJobResult, encodeJobResult } from './jobResult.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'previous-release', 'tables.json');

describe('stored job results', () => {
  it('read back what was written, for every kind and outcome', () => {
    const written: [JobKind, JobResult][] = [
      [
        'source',
        { outcome: 'source_pass', document: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full', replaced: true, reusedCompilation: true } },
      ],
      [
        'source',
        {
          outcome: 'source_pass',
          document: {
            dryRun: true,
            matchKind: 'partial',
            creationMatch: null,
            runtimeMatch: 'partial',
            metadataSettingsFromCode: [{ setting: 'runs', from: '200', to: '1' }],
          },
        },
      ],
      [
        'source',
        {
          outcome: 'source_pass',
          document: {
            matchKind: 'partial',
            creationMatch: 'partial',
            runtimeMatch: 'partial',
            flatteningRepairs: [{ line: 3, text: 'pragma abicoder v2;', why: 'second_abicoder_pragma' }],
          },
        },
      ],
      [
        'source',
        {
          outcome: 'failure',
          document: {
            code: 'no_match',
            details: { compiledRuntimeLength: 1, onchainRuntimeLength: 2 },
            reasonCode: 'wrong_runs',
            diagnosis: {
              code: 'no_match',
              facts: {
                compilerRelease: '0.8.28',
                hashKind: 'ipfs',
                runtimeLength: 2,
                sent: {
                  compilerVersion: 'v0.8.28+commit.7893614a',
                  optimizer: false,
                  runs: 200,
                  evmVersion: '',
                  viaIR: false,
                  bytecodeHash: 'ipfs',
                  appendCBOR: true,
                  contractName: 'A',
                },
                sameShape: [],
              },
              fix: { changes: [{ setting: 'optimizer', from: 'false', to: 'true' }], matchKind: 'full' },
              comparison: null,
              tried: 1,
              compiles: 1,
              ms: 10,
              budgetSpent: false,
              limitReached: null,
              compilesStopped: 0,
            },
          },
        },
      ],
      [
        'source',
        {
          outcome: 'failure',
          document: {
            code: 'no_match',
            details: { compiledRuntimeLength: 1, onchainRuntimeLength: 2 },
            diagnosisSkipped: { code: 'diagnosis_quota_reached', details: { limit: 1, resetsAt: '2026-11-23T00:00:00.000Z' } },
          },
        },
      ],
      ['source', { outcome: 'unfinished', document: { error: { code: 'attempts_exhausted', message: 'lease expired repeatedly' } } }],
      [
        'build',
        {
          outcome: 'build_pass',
          document: {
            contracts: [{ path: 'A.sol', name: 'A' }],
            verified: [{ address: '0x00000000000000000000000000000000000000aa', contractName: 'A', sourcePath: 'A.sol', matchKind: 'full' }],
          },
        },
      ],
      ['build', { outcome: 'failure', document: { code: 'no_contract_in_build', details: {} } }],
      ['proxy', { outcome: 'proxy_found', document: { implementation: '0x00000000000000000000000000000000000000bb', pattern: 'eip1967', blockNumber: 6 } }],
      [
        'proxy',
        {
          outcome: 'proxy_not_found',
          document: { reason: 'expected_implementation_differs', expectedImplementation: '0x01', candidates: [{ implementation: '0x02' }] },
        },
      ],
      ['proxy', { outcome: 'unfinished', document: { error: { code: 'internal', message: 'boom' } } }],
    ];
    for (const [kind, result] of written) expect(decodeJobResult(kind, encodeJobResult(result)), `${kind} ${result.outcome}`).toEqual(result);
    expect(decodeJobResult('source', null)).toBeNull();
  });

  it('stores the document tagged with its outcome and versioned, as job requests are', () => {
    expect(encodeJobResult({ outcome: 'proxy_found', document: { implementation: '0xbb', pattern: 'eip1967', blockNumber: 6 } })).toBe(
      '{"version":2,"outcome":"proxy_found","document":{"implementation":"0xbb","pattern":"eip1967","blockNumber":6}}',
    );
  });

  it('read the documents earlier releases stored alone as the outcomes they are', () => {
    expect(decodeJobResult('proxy', '{"implementation":"0xbb","pattern":"eip1967","blockNumber":6}')).toEqual({
      outcome: 'proxy_found',
      document: { implementation: '0xbb', pattern: 'eip1967', blockNumber: 6 },
    });
    expect(decodeJobResult('source', '{"matchKind":"full","creationMatch":"full","runtimeMatch":"full"}')?.outcome).toBe('source_pass');
  });

  it('a tagged document that is not what its outcome keeps, or an outcome the kind never has, reads as older', () => {
    for (const [kind, stored] of [
      ['source', { version: 2, outcome: 'source_pass', document: { matchKind: 'most', creationMatch: null, runtimeMatch: null } }],
      ['proxy', { version: 2, outcome: 'source_pass', document: { matchKind: 'full', creationMatch: null, runtimeMatch: 'full' } }],
      ['build', { version: 2, outcome: 'older', document: {} }],
    ] as const) {
      expect(decodeJobResult(kind, JSON.stringify(stored))).toEqual({ outcome: 'older', document: stored.document });
    }
  });

  it("read the previous release's results as the outcomes they are", () => {
    const tables = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { tables: { verification_jobs: { kind: JobKind; state: string; result: string | null }[] } };
    const outcomes = tables.tables.verification_jobs.map((job) => `${job.state} ${decodeJobResult(job.kind, job.result)?.outcome}`);
    expect(new Set(outcomes)).toEqual(new Set(['pass source_pass', 'pass proxy_found', 'fail failure']));
  });

  it('read a creation-only pass of the first release', () => {
    expect(decodeJobResult('source', '{"matchKind":"partial","creationMatch":"partial","runtimeMatch":null}')?.outcome).toBe('source_pass');
  });

  it('keep the documents no later release writes as they were: their jobs answer the text they kept', () => {
    // A build's compiler errors, an unreadable request's text (or none), and anything else.
    for (const [kind, stored] of [
      ['build', '{"errors":[{"severity":"error","message":"x"}]}'],
      ['source', '{"error":"The stored request is not a source verification"}'],
      ['proxy', '{}'],
      ['source', '{"implementation":"0xbb","pattern":"eip1967","blockNumber":6}'],
      ['build', '{"matchKind":"full","creationMatch":"full","runtimeMatch":"full"}'],
    ] as const) {
      expect(decodeJobResult(kind, stored), stored).toEqual({ outcome: 'older', document: JSON.parse(stored) });
    }
    expect(decodeJobResult('source', 'not json')).toEqual({ outcome: 'older', document: 'not json' });
  });
});
