import { describe, expect, it } from 'vitest';
import { standardJsonSubmission, submissionWith } from '../../test/helpers/submissions.js';
import { errorFacts, isSolproofError } from '../core/errors.js';
import { decodeJobRequest, encodeJobRequest, type JobRequest } from './jobRequest.js';

const INPUT = { language: 'Solidity', sources: { 'A.sol': { content: 'contract A {}' } }, settings: { optimizer: { enabled: true, runs: 1 } } };

/** The code and facts of the error a read throws. */
function readingError(read: () => unknown): unknown {
  try {
    read();
  } catch (e) {
    return isSolproofError(e) ? errorFacts(e) : e;
  }
  return 'no error';
}

describe('stored job requests', () => {
  it('read back what was written, for both kinds', () => {
    const requests: JobRequest[] = [
      { kind: 'source', submission: submissionWith({ sourceCode: 'contract A {}', contractName: 'A' }) },
      { kind: 'source', submission: standardJsonSubmission(INPUT, 'A.sol:A') },
      { kind: 'proxy', proxy: { address: '0x00000000000000000000000000000000000000aa', expectedImplementation: '0x00000000000000000000000000000000000000bb' } },
    ];
    for (const request of requests) expect(decodeJobRequest(request.kind, encodeJobRequest(request))).toEqual(request);
  });

  it('read back a Vyper submission, as vyper-json and as one .vy file', () => {
    const fields = { address: '0x00000000000000000000000000000000000000cc' as const, compilerVersion: 'vyper:0.4.3', constructorArguments: '', licenseType: 0 };
    const requests: JobRequest[] = [
      {
        kind: 'source',
        submission: {
          ...fields,
          codeFormat: 'vyper-json',
          contractName: 'src/Token.vy:Token',
          vyperJson: { language: 'Vyper', sources: { 'src/Token.vy': { content: 'x: uint256' } }, settings: { optimize: 'gas' } },
        },
        dryRun: true,
      },
      {
        kind: 'source',
        submission: {
          ...fields,
          codeFormat: 'vyper-single-file',
          contractName: 'Token',
          sourceCode: 'x: uint256',
          optimizationUsed: true,
          evmVersion: '',
          fileName: 'Token.vy',
        },
      },
    ];
    for (const request of requests) expect(decodeJobRequest(request.kind, encodeJobRequest(request))).toEqual(request);
    const notVyper = JSON.stringify({
      version: 2,
      kind: 'source',
      submission: { ...fields, codeFormat: 'vyper-json', contractName: 'A', vyperJson: { language: 'Solidity', sources: {} } },
    });
    expect(readingError(() => decodeJobRequest('source', notVyper))).toEqual({
      code: 'invalid_input',
      details: { problem: 'stored_request_unreadable', why: 'no Vyper JSON input' },
    });
  });

  it('read the first version: the submission itself, a standard JSON input as its submitted text', () => {
    const { standardJson: _parsed, ...fields } = standardJsonSubmission(INPUT, 'A.sol:A');
    const v1 = JSON.stringify({ ...fields, sourceCode: `{${JSON.stringify(INPUT)}}` });
    expect(decodeJobRequest('source', v1)).toEqual({ kind: 'source', submission: standardJsonSubmission(INPUT, 'A.sol:A') });
    expect(decodeJobRequest('proxy', '{"address":"0x00000000000000000000000000000000000000aa"}')).toEqual({
      kind: 'proxy',
      proxy: { address: '0x00000000000000000000000000000000000000aa' },
    });
  });

  it('say what is wrong with a document that is not a request of its kind', () => {
    expect(readingError(() => decodeJobRequest('source', 'not json'))).toEqual({
      code: 'invalid_input',
      details: { problem: 'stored_request_unreadable', why: 'not JSON' },
    });
    expect(readingError(() => decodeJobRequest('proxy', '{"address":"nope"}'))).toEqual({
      code: 'invalid_input',
      details: { problem: 'stored_request_unreadable', why: 'no proxy address' },
    });
    const proxy = encodeJobRequest({ kind: 'proxy', proxy: { address: '0x00000000000000000000000000000000000000aa' } });
    expect(readingError(() => decodeJobRequest('source', proxy))).toEqual({
      code: 'invalid_input',
      details: { problem: 'stored_request_unreadable', why: 'a proxy request in a source job' },
    });
  });
});
