import { describe, expect, it } from 'vitest';
import { standardJsonSubmission, submissionWith } from '../../test/helpers/submissions.js';
import { decodeJobRequest, encodeJobRequest, type JobRequest } from './jobRequest.js';

const INPUT = { language: 'Solidity', sources: { 'A.sol': { content: 'contract A {}' } }, settings: { optimizer: { enabled: true, runs: 1 } } };

describe('stored job requests', () => {
  it('read back what was written, for both kinds', () => {
    const requests: JobRequest[] = [
      { kind: 'source', submission: submissionWith({ sourceCode: 'contract A {}', contractName: 'A' }) },
      { kind: 'source', submission: standardJsonSubmission(INPUT, 'A.sol:A') },
      { kind: 'proxy', proxy: { address: '0x00000000000000000000000000000000000000aa', expectedImplementation: '0x00000000000000000000000000000000000000bb' } },
    ];
    for (const request of requests) expect(decodeJobRequest(request.kind, encodeJobRequest(request))).toEqual(request);
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
    expect(() => decodeJobRequest('source', 'not json')).toThrow('The stored request cannot be read: not JSON');
    expect(() => decodeJobRequest('proxy', '{"address":"nope"}')).toThrow('The stored request cannot be read: no proxy address');
    const proxy = encodeJobRequest({ kind: 'proxy', proxy: { address: '0x00000000000000000000000000000000000000aa' } });
    expect(() => decodeJobRequest('source', proxy)).toThrow('The stored request cannot be read: a proxy request in a source job');
  });
});
