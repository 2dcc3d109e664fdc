import type { SingleFileSubmission, StandardJsonSubmission } from '../../src/core/types.js';
import type { SolcInput } from '../../src/verify/index.js';

/** A single-file submission with plain defaults (solc 0.8.28, optimizer off, MIT), changed by `overrides`. */
export function submissionWith(overrides: Partial<SingleFileSubmission> = {}): SingleFileSubmission {
  return {
    address: '0x0000000000000000000000000000000000000001',
    codeFormat: 'solidity-single-file',
    sourceCode: '',
    contractName: '',
    compilerVersion: 'v0.8.28+commit.7893614a',
    optimizationUsed: false,
    runs: 200,
    constructorArguments: '',
    evmVersion: '',
    licenseType: 3,
    libraries: [],
    viaIR: false,
    ...overrides,
  };
}

/** A standard-JSON submission of `input` (parsed, as the API keeps it) for `contractName` (`path:Name`). */
export function standardJsonSubmission(
  input: SolcInput | unknown,
  contractName: string,
  overrides: Partial<Omit<StandardJsonSubmission, 'codeFormat'>> = {},
): StandardJsonSubmission {
  const { codeFormat: _single, sourceCode: _text, ...fields } = submissionWith({ contractName });
  return { ...fields, codeFormat: 'solidity-standard-json-input', standardJson: structuredClone(input) as SolcInput, ...overrides };
}
