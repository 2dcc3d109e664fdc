import { describe, expect, it } from 'vitest';
import type { SourceSubmission } from '../core/types.js';
import { otherLineEndings } from './runVerification.js';

const fields: Omit<SourceSubmission, 'codeFormat' | 'sourceCode' | 'standardJson'> = {
  address: '0x00000000000000000000000000000000000000aa',
  contractName: 'A',
  compilerVersion: 'v0.8.28+commit.7893614a',
  optimizationUsed: false,
  runs: 200,
  constructorArguments: '',
  evmVersion: '',
  licenseType: 0,
  libraries: [],
  viaIR: false,
};

describe('otherLineEndings', () => {
  it('makes CRLF sources LF, in a single file and in every file of a standard JSON input', () => {
    const single: SourceSubmission = { ...fields, codeFormat: 'solidity-single-file', sourceCode: 'contract A {}\r\n// x\r\n' };
    expect(otherLineEndings(single)).toMatchObject({ sourceCode: 'contract A {}\n// x\n' });
    const json: SourceSubmission = {
      ...fields,
      codeFormat: 'solidity-standard-json-input',
      standardJson: { language: 'Solidity', sources: { 'a.sol': { content: 'a\r\nb' }, 'b.sol': { content: 'c\nd' } }, settings: {} },
    };
    expect((otherLineEndings(json) as Extract<SourceSubmission, { codeFormat: 'solidity-standard-json-input' }>).standardJson.sources).toEqual({
      'a.sol': { content: 'a\nb' },
      'b.sol': { content: 'c\nd' },
    });
  });

  it('tries CRLF only for a single LF file; nothing when there is no line break', () => {
    const single: SourceSubmission = { ...fields, codeFormat: 'solidity-single-file', sourceCode: 'contract A {}\n// x\n' };
    expect(otherLineEndings(single)).toMatchObject({ sourceCode: 'contract A {}\r\n// x\r\n' });
    expect(otherLineEndings({ ...single, sourceCode: 'contract A {}' })).toBeNull();
    const json: SourceSubmission = {
      ...fields,
      codeFormat: 'solidity-standard-json-input',
      standardJson: { language: 'Solidity', sources: { 'a.sol': { content: 'a\nb' } }, settings: {} },
    };
    expect(otherLineEndings(json)).toBeNull();
  });
});
