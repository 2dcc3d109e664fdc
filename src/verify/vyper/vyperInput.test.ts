import { describe, expect, it } from 'vitest';
import { rejection } from '../../../test/helpers/rejection.js';
import type { Address, VyperJsonSubmission, VyperSingleFileSubmission } from '../../core/types.js';
import { parseVyperVersion } from '../../core/vyperVersion.js';
import { errorSentence } from '../../texts/index.js';
import { buildVyperInput, VYPER_CONTRACT_OUTPUTS } from './buildVyperInput.js';
import { checkVyperJsonInput, parseVyperJsonText } from './vyperJsonInput.js';

const ADDRESS = `0x${'ab'.repeat(20)}` as Address;
const v = (text: string) => parseVyperVersion(text)!;

function json(input: unknown, contractName: string): VyperJsonSubmission {
  return {
    codeFormat: 'vyper-json',
    address: ADDRESS,
    contractName,
    compilerVersion: 'vyper:0.4.3',
    constructorArguments: '',
    licenseType: 0,
    vyperJson: checkVyperJsonInput(input),
  };
}

function file(sourceCode: string, optimizationUsed: boolean, extra: Partial<VyperSingleFileSubmission> = {}): VyperSingleFileSubmission {
  return {
    codeFormat: 'vyper-single-file',
    address: ADDRESS,
    contractName: 'Token',
    compilerVersion: 'vyper:0.4.3',
    constructorArguments: '',
    licenseType: 0,
    sourceCode,
    optimizationUsed,
    evmVersion: '',
    ...extra,
  };
}

describe("Vyper's standard JSON input as submitted", () => {
  it('refuses Solidity sent as vyper-json, saying what to send instead', () => {
    const error = (() => {
      try {
        parseVyperJsonText(JSON.stringify({ language: 'Solidity', sources: { 'A.sol': { content: 'contract A {}' } } }));
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(error).toMatchObject({ code: 'invalid_standard_json', details: { problem: 'not_vyper', language: '"Solidity"' } });
    expect(errorSentence(error as never)).toBe(
      'A vyper-json input must have "language": "Vyper" (got "Solidity"); send Solidity as solidity-standard-json-input with a solc version',
    );
  });

  it.each([
    [{ language: 'Vyper', sources: {} }, 'no_sources'],
    [{ language: 'Vyper', sources: { 'a.vy': { urls: ['/etc/passwd'] } } }, 'source_urls'],
    [{ language: 'Vyper', sources: { 'a.vy': { content: 1 } } }, 'source_without_content'],
    [{ language: 'Vyper', sources: { 'a.vy': { content: '' } }, interfaces: { 'I.vy': { urls: ['x'] } } }, 'interface_shape'],
    [{ language: 'Vyper', sources: { 'a.vy': { content: '' } }, interfaces: { 'I.json': 'abi' } }, 'interface_shape'],
    [{ language: 'Vyper', sources: { 'a.vy': { content: '' } }, settings: [] }, 'settings_not_an_object'],
  ])('refuses %j (%s)', (input, problem) => {
    expect(() => checkVyperJsonInput(input)).toThrow(expect.objectContaining({ details: expect.objectContaining({ problem }) }));
  });

  it("reads Etherscan's {{...}} wrapping, interfaces as text, ABI, bare list or EthPM manifest", () => {
    const input = parseVyperJsonText(
      `{${JSON.stringify({
        language: 'Vyper',
        sources: { 'a.vy': { content: 'x: uint256' } },
        interfaces: { 'I.vy': { content: '' }, 'E.json': { abi: [] }, 'L.json': [], 'M.json': { contractTypes: { M: { abi: [] } } } },
      })}}`,
    );
    expect(Object.keys(input.interfaces ?? {})).toEqual(['I.vy', 'E.json', 'L.json', 'M.json']);
  });
});

describe('the input a Vyper submission compiles as', () => {
  const sources = {
    language: 'Vyper',
    sources: { 'src/Token.vy': { content: 'a' }, 'src/lib.vy': { content: 'b' }, 'other/Token.vy': { content: 'c' } },
    settings: { optimize: 'codesize' },
  };

  it('keeps the settings given and asks for the one contract', () => {
    const built = buildVyperInput(json(sources, 'src/Token.vy:Token'), v('0.4.3'));
    expect(built).toMatchObject({ sourcePath: 'src/Token.vy', contractName: 'Token' });
    expect(built.input.settings).toEqual({ optimize: 'codesize', outputSelection: { 'src/Token.vy': [...VYPER_CONTRACT_OUTPUTS] } });
    expect(buildVyperInput(json(sources, 'src/lib.vy'), v('0.4.3')).sourcePath).toBe('src/lib.vy');
    expect(buildVyperInput(json(sources, 'lib'), v('0.4.3')).sourcePath).toBe('src/lib.vy');
  });

  it("finds forge's contract by its project path among sources keyed by absolute paths", () => {
    const forge = {
      language: 'Vyper',
      sources: { '/home/me/project/src/Vault.vy': { content: 'x: uint256' }, '/home/me/project/src/lib/Vault.vy': { content: 'y: uint256' } },
    };
    expect(buildVyperInput(json(forge, 'src/Vault.vy:Vault'), v('0.4.3')).sourcePath).toBe('/home/me/project/src/Vault.vy');
    expect(buildVyperInput(json(forge, 'lib/Vault.vy:Vault'), v('0.4.3')).sourcePath).toBe('/home/me/project/src/lib/Vault.vy');
    // Two sources end with Vault.vy: the name designates neither.
    expect(() => buildVyperInput(json(forge, 'Vault.vy:Vault'), v('0.4.3'))).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ problem: 'file_not_among_sources' }) }),
    );
  });

  it('refuses a name that is no source, a path whose stem is another name, and a name two files have', () => {
    expect(() => buildVyperInput(json(sources, 'Nope'), v('0.4.3'))).toThrow(
      expect.objectContaining({ details: { problem: 'not_declared', contractName: 'Nope' } }),
    );
    expect(() => buildVyperInput(json(sources, 'src/Token.vy:Other'), v('0.4.3'))).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ problem: 'not_in_output' }) }),
    );
    expect(() => buildVyperInput(json(sources, 'Token'), v('0.4.3'))).toThrow(
      expect.objectContaining({ details: { problem: 'declared_several_times', contractName: 'Token' } }),
    );
    expect(() => buildVyperInput(json(sources, 'x/Token.vy:Token'), v('0.4.3'))).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ problem: 'file_not_among_sources' }) }),
    );
  });

  it("a single file: the form's optimisation as the release spells it, its EVM version, its name as the file's", () => {
    expect(buildVyperInput(file('x: uint256', true), v('0.4.3')).input).toEqual({
      language: 'Vyper',
      sources: { 'Token.vy': { content: 'x: uint256' } },
      settings: { optimize: 'gas', outputSelection: { 'Token.vy': [...VYPER_CONTRACT_OUTPUTS] } },
    });
    expect(buildVyperInput(file('x: uint256', false, { evmVersion: 'paris' }), v('0.4.3')).input.settings).toMatchObject({
      optimize: 'none',
      evmVersion: 'paris',
    });
    expect(buildVyperInput(file('x: uint256', false), v('0.3.9')).input.settings.optimize).toBe(false);
    expect(buildVyperInput(file('x: uint256', true, { fileName: 'contracts/Vault.vy' }), v('0.4.3'))).toMatchObject({
      sourcePath: 'contracts/Vault.vy',
      contractName: 'Vault',
    });
  });

  it('an empty file is refused', async () => {
    const error = await rejection(Promise.resolve().then(() => buildVyperInput(file('  \n', true), v('0.4.3'))));
    expect(error).toMatchObject({ code: 'invalid_input', details: { problem: 'empty_source' } });
  });
});
