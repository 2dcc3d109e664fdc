import { describe, expect, it } from 'vitest';
import { SolproofError } from '../core/errors.js';
import { errorSentence, submittedVyperVersionText, vyperPartialText } from './index.js';

describe('the texts of Vyper refusals and verdicts', () => {
  it.each([
    [
      new SolproofError('invalid_input', { problem: 'solc_version_for_vyper', compilerVersion: 'v0.8.26+commit.8a97fa7a' }),
      'v0.8.26+commit.8a97fa7a is a solc version, and these are Vyper sources: name a Vyper compiler (vyper:0.4.1, as Etherscan spells it)',
    ],
    [
      new SolproofError('invalid_input', { problem: 'vyper_source_as_solidity', compilerVersion: 'v0.8.26+commit.8a97fa7a' }),
      'These sources are Vyper, not Solidity: send them as vyper-json (or a .vy file) with a Vyper compiler version (vyper:0.4.1), not v0.8.26+commit.8a97fa7a',
    ],
    [
      new SolproofError('invalid_input', { problem: 'vyper_version_for_solidity', compilerVersion: 'vyper:0.4.1' }),
      'vyper:0.4.1 is a Vyper compiler, and these sources are Solidity: name a solc version (v0.8.26+commit.8a97fa7a)',
    ],
    [
      new SolproofError('invalid_standard_json', { problem: 'not_vyper', language: '"Solidity"' }),
      'A vyper-json input must have "language": "Vyper" (got "Solidity"); send Solidity as solidity-standard-json-input with a solc version',
    ],
    [
      new SolproofError('compiler_version_not_found', { version: 'vyper:0.9', why: 'not_a_version', compiler: 'vyper' }),
      'Compiler version vyper:0.9 is not a Vyper version (spell it vyper:0.4.1, or 0.4.1+commit.8a93dd27)',
    ],
    [
      new SolproofError('compiler_error', { errors: [{ severity: 'error', message: 'bad', formattedMessage: 'line 2: bad' }], language: 'Vyper' }),
      'Vyper Compilation Error: line 2: bad',
    ],
  ])('%s', (error, text) => {
    expect(errorSentence(error)).toBe(text);
  });

  it('says why a submitted version names no Vyper compiler', () => {
    expect(submittedVyperVersionText({ problem: 'vyper_commit_needed', given: 'vyper:0.9.9', release: '0.9.9' })).toBe(
      'Compiler version vyper:0.9.9 is not a Vyper release known here: name an existing release (vyper:0.4.3), or give its commit (0.9.9+commit.<8 hex digits>)',
    );
    expect(submittedVyperVersionText({ problem: 'not_a_vyper_release', given: 'vyper:0.4.3+commit.deadbeef', longVersion: '0.4.3+commit.bff19ea2' })).toBe(
      'Compiler version vyper:0.4.3+commit.deadbeef is not a Vyper release: that release is vyper:0.4.3+commit.bff19ea2',
    );
    expect(errorSentence(new SolproofError('invalid_standard_json', { problem: 'solidity_in_vyper_json', path: 'A.sol' }))).toBe(
      'The vyper-json input holds Solidity ("A.sol"): send Solidity as solidity-standard-json-input with a solc version',
    );
  });

  it('says why a Vyper match is partial', () => {
    expect(vyperPartialText('no_source_hash')).toBe(
      'A partial match: Vyper before 0.4.1 writes no hash of the sources into the code, so no verifier can prove them byte for byte (from 0.4.1 the integrity hash does).',
    );
    expect(vyperPartialText('creation_not_found')).toMatch(/^A partial match: the creation transaction was not found/);
  });
});
