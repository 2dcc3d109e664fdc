import { describe, expect, it } from 'vitest';
import { compileForTest, SOLC_PACKAGES } from '../../test/helpers/solc.js';
import { standardJsonSubmission, submissionWith } from '../../test/helpers/submissions.js';
import { isSolproofError } from '../core/errors.js';
import type { SolcInput } from '../core/solcInput.js';
import type { SingleFileSubmission, StandardJsonSubmission } from '../core/types.js';
import { errorSentence } from '../texts/index.js';
import { buildSolcInput, compileSettings, everyContractSelectionFor, outputSelectionFor } from './buildSolcInput.js';
import { MAX_CONTRACT_DECLARATIONS, MAX_SOURCES, parseStandardJsonText } from './standardJsonText.js';

const LIB_ADDRESS = '0x7d53f102f4d4aa014db4e10d6deec2009b3cda6b';

function submission(overrides: Partial<SingleFileSubmission>): SingleFileSubmission {
  return submissionWith({ sourceCode: 'contract C {}', contractName: 'C', ...overrides });
}

/** The error's code and the sentence it reads as (`message`). */
function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isSolproofError(e)) return { code: e.code, message: errorSentence(e) };
    throw e;
  }
  throw new Error('expected a SolproofError');
}

const JSON_INPUT: SolcInput = {
  language: 'Solidity',
  sources: {
    'contracts/A.sol': { content: 'import "./L.sol"; contract A {}' },
    'contracts/L.sol': { content: 'library Lib { function f() external {} }\nlibrary Other {}' },
  },
  settings: {
    optimizer: { enabled: true, runs: 999 },
    evmVersion: 'paris',
    metadata: { bytecodeHash: 'ipfs' },
    outputSelection: { '*': { '*': ['abi'] } },
    remappings: [],
  },
};

describe('buildSolcInput for a single file', () => {
  it('writes the optimizer explicitly and leaves out defaults', () => {
    const { input, sourcePath, contractName } = buildSolcInput(submission({}));
    expect(sourcePath).toBe('C.sol');
    expect(contractName).toBe('C');
    expect(input).toEqual({
      language: 'Solidity',
      sources: { 'C.sol': { content: 'contract C {}' } },
      settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: outputSelectionFor('C.sol', 'C') },
    });
  });

  it('adds evmVersion, viaIR and libraries only when given', () => {
    const { input } = buildSolcInput(
      submission({
        optimizationUsed: true,
        runs: 1,
        evmVersion: 'london',
        viaIR: true,
        libraries: [
          { name: 'Lib', address: '0x7D53F102F4D4AA014DB4E10D6DEEC2009B3CDA6B' },
          { name: 'some/path.sol:Other', address: LIB_ADDRESS },
        ],
      }),
    );
    expect(input.settings).toEqual({
      optimizer: { enabled: true, runs: 1 },
      evmVersion: 'london',
      viaIR: true,
      libraries: { 'C.sol': { Lib: LIB_ADDRESS, Other: LIB_ADDRESS } },
      outputSelection: outputSelectionFor('C.sol', 'C'),
    });
    expect(buildSolcInput(submission({ evmVersion: 'default' })).input.settings.evmVersion).toBeUndefined();
  });

  it('refuses names that are not identifiers, bad addresses and empty sources', () => {
    expect(errorOf(() => buildSolcInput(submission({ contractName: '../x' }))).code).toBe('invalid_input');
    expect(errorOf(() => buildSolcInput(submission({ libraries: [{ name: 'L', address: '0x12' as `0x${string}` }] }))).code).toBe('invalid_input');
    expect(errorOf(() => buildSolcInput(submission({ sourceCode: '  ' }))).code).toBe('invalid_input');
  });
});

describe('buildSolcInput for standard JSON', () => {
  const std = (overrides: Partial<Omit<StandardJsonSubmission, 'codeFormat'>> = {}) => standardJsonSubmission(JSON_INPUT, 'contracts/A.sol:A', overrides);

  it('keeps the settings, ignores the form optimizer and overrides outputSelection', () => {
    const { input, sourcePath, contractName } = buildSolcInput(std({ optimizationUsed: false, runs: 1 }));
    expect(sourcePath).toBe('contracts/A.sol');
    expect(contractName).toBe('A');
    expect(input.settings).toEqual({ ...JSON_INPUT.settings, outputSelection: outputSelectionFor('contracts/A.sol', 'A') });
    expect(input.sources).toEqual(JSON_INPUT.sources);
    expect('libraries' in input.settings).toBe(false);
  });

  it("accepts Etherscan's {{...}} wrapping", () => {
    const input = parseStandardJsonText(`{${JSON.stringify(JSON_INPUT)}}`);
    expect(Object.keys(input.sources)).toEqual(['contracts/A.sol', 'contracts/L.sol']);
  });

  it('matches the contract path with or without a leading slash', () => {
    expect(buildSolcInput(std({ contractName: '/contracts/A.sol:A' })).sourcePath).toBe('contracts/A.sol');
    const slashed = { ...JSON_INPUT, sources: { '/contracts/A.sol': JSON_INPUT.sources['contracts/A.sol']! } };
    expect(buildSolcInput(std({ standardJson: slashed })).sourcePath).toBe('/contracts/A.sol');
  });

  it('accepts a bare contract name declared by exactly one file', () => {
    expect(buildSolcInput(std({ contractName: 'A' })).sourcePath).toBe('contracts/A.sol');
    expect(errorOf(() => buildSolcInput(std({ contractName: 'Nope' }))).code).toBe('contract_not_found_in_output');
    expect(errorOf(() => buildSolcInput(std({ contractName: 'contracts/B.sol:A' }))).code).toBe('contract_not_found_in_output');
  });

  it('merges the form libraries: qualified, bare by the declaring file, undeclared left out', () => {
    const { input } = buildSolcInput(
      std({
        libraries: [
          { name: 'Lib', address: LIB_ADDRESS },
          { name: '/contracts/A.sol:Linked', address: LIB_ADDRESS },
          { name: 'Unknown', address: LIB_ADDRESS },
        ],
      }),
    );
    expect(input.settings.libraries).toEqual({
      'contracts/L.sol': { Lib: LIB_ADDRESS },
      'contracts/A.sol': { Linked: LIB_ADDRESS },
    });
  });

  it('puts a bare library name under every file that declares it', () => {
    const twice = {
      ...JSON_INPUT,
      sources: { ...JSON_INPUT.sources, 'contracts/L2.sol': { content: '// copy\nlibrary Lib {}' } },
    };
    const { input } = buildSolcInput(std({ standardJson: twice, libraries: [{ name: 'Lib', address: LIB_ADDRESS }] }));
    expect(input.settings.libraries).toEqual({ 'contracts/L.sol': { Lib: LIB_ADDRESS }, 'contracts/L2.sol': { Lib: LIB_ADDRESS } });
  });

  it('keeps the JSON libraries and refuses a form address that contradicts them', () => {
    const linked = { ...JSON_INPUT, settings: { ...JSON_INPUT.settings, libraries: { 'contracts/L.sol': { Lib: LIB_ADDRESS } } } };
    const standardJson = linked;
    expect(buildSolcInput(std({ standardJson, libraries: [{ name: 'Lib', address: LIB_ADDRESS }] })).input.settings.libraries).toEqual({
      'contracts/L.sol': { Lib: LIB_ADDRESS },
    });
    const other = '0x1111111111111111111111111111111111111111';
    expect(errorOf(() => buildSolcInput(std({ standardJson, libraries: [{ name: 'Lib', address: other }] }))).code).toBe('invalid_input');
  });
});

describe('parseStandardJsonText', () => {
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"language":', /not valid JSON/],
    ['an array', '[]', /JSON object/],
    ['another language', JSON.stringify({ ...JSON_INPUT, language: 'Vyper' }), /"language": "Solidity"/],
    ['no sources', JSON.stringify({ ...JSON_INPUT, sources: {} }), /no "sources"/],
    ['a source without content', JSON.stringify({ ...JSON_INPUT, sources: { 'a.sol': { keccak256: '0x00' } } }), /"a\.sol" has no string "content"/],
    [
      'urls (a way to read files or fetch)',
      JSON.stringify({ ...JSON_INPUT, sources: { 'b.sol': { content: '', urls: ['/etc/passwd'] } } }),
      /"b\.sol" uses "urls"/,
    ],
    ['malformed libraries', JSON.stringify({ ...JSON_INPUT, settings: { libraries: { 'a.sol': 'x' } } }), /settings\.libraries/],
  ];

  it.each(cases)('refuses %s', (_name, text, message) => {
    const error = errorOf(() => parseStandardJsonText(text));
    expect(error.code).toBe('invalid_standard_json');
    expect(error.message).toMatch(message);
  });

  it('treats a contract name as text, never as a pattern', () => {
    const input = { language: 'Solidity', sources: { 'a.sol': { content: 'contract A {}' } } };
    const error = errorOf(() => buildSolcInput(standardJsonSubmission(input, '(a+)+$[')));
    expect(error.code).toBe('invalid_input');
  });

  it('refuses Yul: its verbatim builtin can reproduce any deployed code', () => {
    const error = errorOf(() => parseStandardJsonText(JSON.stringify({ language: 'Yul', sources: { 'a.yul': { content: '{}' } } })));
    expect(error.code).toBe('invalid_standard_json');
    expect(error.message).toBe('Only Solidity sources are verified here: the standard JSON input must have "language": "Solidity" (got "Yul")');
  });

  it('bounds the number of sources and of contracts', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_SOURCES + 1 }, (_, i) => [`s${i}.sol`, { content: '' }]));
    expect(errorOf(() => parseStandardJsonText(JSON.stringify({ language: 'Solidity', sources: many }))).message).toBe(
      `The standard JSON input has more than ${MAX_SOURCES} sources`,
    );
    const contracts = Array.from({ length: MAX_CONTRACT_DECLARATIONS + 1 }, (_, i) => `contract C${i} {}`).join('\n');
    expect(errorOf(() => parseStandardJsonText(JSON.stringify({ language: 'Solidity', sources: { 'a.sol': { content: contracts } } }))).message).toBe(
      `The standard JSON input declares more than ${MAX_CONTRACT_DECLARATIONS} contracts, libraries and interfaces`,
    );
  });

  it('drops the settings that cost time or memory without changing the code', () => {
    const settings = {
      optimizer: { enabled: true, runs: 1 },
      modelChecker: { engine: 'all', targets: ['assert'], timeout: 100000 },
      stopAfter: 'parsing',
      debug: { debugInfo: ['*'], revertStrings: 'strip' },
      metadata: { useLiteralContent: true, bytecodeHash: 'none' },
      viaIR: true,
    };
    expect(compileSettings(settings)).toEqual({
      optimizer: { enabled: true, runs: 1 },
      debug: { revertStrings: 'strip' },
      metadata: { bytecodeHash: 'none' },
      viaIR: true,
    });
    // With the metadata hash in the code, literal content changes the code: it stays.
    expect(compileSettings({ metadata: { useLiteralContent: true }, debug: { debugInfo: [] } })).toEqual({ metadata: { useLiteralContent: true } });
    // What was submitted is kept as it was: the served input is the user's.
    expect(parseStandardJsonText(JSON.stringify({ language: 'Solidity', sources: { 'a.sol': { content: '' } }, settings })).settings).toEqual(settings);
  });

  it('asks solc for the one contract being verified', () => {
    const std = standardJsonSubmission(JSON_INPUT, 'contracts/A.sol:A');
    expect(buildSolcInput(std).input.settings.outputSelection).toEqual({
      'contracts/A.sol': {
        A: [
          'abi',
          'metadata',
          'evm.bytecode.object',
          'evm.bytecode.linkReferences',
          'evm.deployedBytecode.object',
          'evm.deployedBytecode.linkReferences',
          'evm.deployedBytecode.immutableReferences',
          'evm.legacyAssembly',
          'storageLayout',
          'transientStorageLayout',
        ],
      },
    });
  });

  it('reads a standard JSON text the way solc does: a key given twice counts once, the last', () => {
    const text = '{"language":"Solidity","sources":{"a.sol":{"content":"// decoy"},"a.sol":{"content":"contract Real {}"}}}';
    expect(parseStandardJsonText(text)).toEqual({ language: 'Solidity', sources: { 'a.sol': { content: 'contract Real {}' } }, settings: {} });
    expect(JSON.stringify(parseStandardJsonText(text))).not.toContain('decoy');
    expect(parseStandardJsonText(`{${text}}`)).toEqual(parseStandardJsonText(text));
  });
});

describe('everyContractSelectionFor', () => {
  it("asks for the one contract's outputs and every other contract's creation code", () => {
    expect(everyContractSelectionFor('contracts/A.sol', 'A')).toEqual({
      '*': { '*': ['evm.bytecode.object'] },
      'contracts/A.sol': { A: outputSelectionFor('contracts/A.sol', 'A')['contracts/A.sol']!['A'] },
    });
    // A source named "*" keeps both entries.
    expect(everyContractSelectionFor('*', 'A')['*']).toEqual({ '*': ['evm.bytecode.object'], A: outputSelectionFor('*', 'A')['*']!['A'] });
  });

  // A contract created inside an internal library function: the installed compilers from 0.4.18
  // (0.4.11 ignores outputSelection) to 0.8.3 cannot compile its creator alone.
  const FACTORY = `pragma solidity >=0.4.11;
contract Child { uint public x; }
library Make { function child() internal returns (address) { return address(new Child()); } }
contract Creator { address public last; function make() public { last = Make.child(); } }
`;
  const affected = ['0.4.26', '0.5.17', '0.6.12', '0.7.6'];
  it.each(['0.4.11', ...affected, '0.8.10'])(
    'solc %s: the one-contract selection fails exactly where it should, every contract selected gives the same code',
    (version) => {
      const input = (outputSelection: Record<string, Record<string, string[]>>) => ({
        language: 'Solidity',
        sources: { 'Creator.sol': { content: FACTORY } },
        settings: { optimizer: { enabled: false, runs: 200 }, outputSelection },
      });
      const code = (output: ReturnType<typeof compileForTest>) => output.contracts?.['Creator.sol']?.['Creator']?.evm?.deployedBytecode?.object;
      const alone = compileForTest(SOLC_PACKAGES[version]!, input(outputSelectionFor('Creator.sol', 'Creator')));
      const crashed = (alone.errors ?? []).some((e) => e.type === 'InternalCompilerError' && e.message.includes('Compiled contract not found'));
      expect(crashed).toBe(affected.includes(version));
      const every = compileForTest(SOLC_PACKAGES[version]!, input(everyContractSelectionFor('Creator.sol', 'Creator')));
      const everything = compileForTest(SOLC_PACKAGES[version]!, input({ '*': { '*': ['evm.deployedBytecode.object'] } }));
      expect((every.errors ?? []).filter((e) => e.severity === 'error')).toEqual([]);
      expect(code(every)).toBeTruthy();
      expect(code(every)).toBe(code(everything));
    },
  );
});
