import { encodeAbiParameters } from 'viem';
import { describe, expect, it } from 'vitest';
import { encodeConstructorValues, readVerifyForm, sourcesFromFiles } from './verifyForm.js';

describe('encodeConstructorValues', () => {
  it('encodes values typed as JSON with the constructor parameter list (names and data locations allowed)', () => {
    const hex = encodeConstructorValues(
      'uint256 supply, string memory name_, address owner, bool open, uint8[] memory shares',
      '[1000, "Token", "0x00000000000000000000000000000000000000aa", true, [1, "2"]]',
    );
    expect(hex).toEqual({
      hex: encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'string' }, { type: 'address' }, { type: 'bool' }, { type: 'uint8[]' }],
        [1000n, 'Token', '0x00000000000000000000000000000000000000aa', true, [1, 2]],
      ),
    });
    expect(encodeConstructorValues('constructor(uint256)', '["0x10"]')).toEqual({ hex: encodeAbiParameters([{ type: 'uint256' }], [16n]) });
  });

  it('names what is wrong: the types, the JSON, the count, a value', () => {
    expect(encodeConstructorValues('uint256 x', '1')).toMatchObject({ error: expect.stringContaining('JSON array') });
    expect(encodeConstructorValues('uint256 x', '[1, 2]')).toMatchObject({ error: 'The constructor takes 1 value; 2 given' });
    expect(encodeConstructorValues('uint256 x', '["ten"]')).toMatchObject({ error: expect.stringContaining('expected an integer') });
    expect(encodeConstructorValues('what ever(', '[]')).toMatchObject({ error: expect.stringContaining('not Solidity parameter types') });
  });
});

describe('readVerifyForm', () => {
  const base = [
    { name: 'address', value: '0x00000000000000000000000000000000000000aa' },
    { name: 'compiler', value: 'v0.8.28+commit.7893614a' },
    { name: 'apikey', value: 'K' },
  ];

  it('a single file: its one contract is taken as the name; typed values become the hex field', () => {
    const read = readVerifyForm([
      ...base,
      { name: 'format', value: 'single' },
      { name: 'source', value: 'contract A { constructor(uint256 x) {} }' },
      { name: 'constructortypes', value: 'uint256 x' },
      { name: 'constructorvalues', value: '[5]' },
    ]);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.params).toMatchObject({ contractname: 'A', codeformat: 'solidity-single-file', constructorArguements: `${'0'.repeat(63)}5` });
  });

  const VYPER = '# pragma version 0.4.3\nx: public(uint256)\n\n@deploy\ndef __init__(v: uint256):\n    self.x = v\n';

  it('a Vyper file: sent as vyper-single-file, named after the uploaded file', () => {
    const read = readVerifyForm([
      ...base.filter((e) => e.name !== 'compiler'),
      { name: 'compiler', value: 'vyper:0.4.3' },
      { name: 'format', value: 'single' },
      { name: 'sourcefile', file: { filename: 'contracts/Store.vy', text: VYPER } },
    ]);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.params).toMatchObject({ codeformat: 'vyper-single-file', contractname: 'Store', compilerversion: 'vyper:0.4.3', sourceCode: VYPER });
  });

  it('a Vyper source with a solc version: the compiler field says to choose a Vyper compiler', () => {
    const read = readVerifyForm([...base, { name: 'format', value: 'single' }, { name: 'source', value: VYPER }, { name: 'contractname', value: 'Store' }]);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors.compiler).toBe('This is a Vyper source: choose a Vyper compiler (vyper:0.4.3)');
  });

  it("Vyper's standard JSON input: sent as vyper-json as given; its one .vy file is the contract", () => {
    const json = JSON.stringify({ language: 'Vyper', sources: { 'src/Store.vy': { content: VYPER } }, settings: { outputSelection: { '*': ['*'] } } });
    const read = readVerifyForm([
      ...base.filter((e) => e.name !== 'compiler'),
      { name: 'compiler', value: 'vyper:0.4.3' },
      { name: 'format', value: 'json' },
      { name: 'standardjson', value: json },
    ]);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.params).toMatchObject({ codeformat: 'vyper-json', contractname: 'src/Store.vy:Store', sourceCode: json });
    expect(read.contracts).toEqual(['src/Store.vy:Store']);
  });

  it('several files: imports resolved among them, a bare name qualified with its file', () => {
    const read = readVerifyForm([
      ...base,
      { name: 'format', value: 'files' },
      { name: 'contractname', value: 'Main' },
      { name: 'sourcefiles', file: { filename: 'Main.sol', text: 'import "./lib/Lib.sol";\ncontract Main {}' } },
      { name: 'sourcefiles', file: { filename: 'Lib.sol', text: 'library Lib {}' } },
    ]);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.params['contractname']).toBe('Main.sol:Main');
    expect(Object.keys((JSON.parse(read.params['sourceCode']!) as { sources: object }).sources).sort()).toEqual(['Lib.sol', 'Main.sol', 'lib/Lib.sol']);
  });

  it('contracts and imports in comments and strings are not taken; a megabyte of /* is read in one pass', () => {
    const source = `/* contract InComment {} */\n// import "./Gone.sol";\nstring constant S = "library InString {}";\nabstract contract Base {}\ninterface I {}\ncontract Main is Base {}`;
    const read = readVerifyForm([...base, { name: 'format', value: 'single' }, { name: 'source', value: source }]);
    expect(read.contracts).toEqual(['Base', 'Main']);
    expect(sourcesFromFiles([{ filename: 'Main.sol', text: source }])).toEqual({ sources: { 'Main.sol': source } });
    const hostile = readVerifyForm([...base, { name: 'format', value: 'single' }, { name: 'source', value: `contract Only {}\n${'/* '.repeat(350_000)}` }]);
    expect(hostile.ok && hostile.params['contractname']).toBe('Only');
  });

  it('a file that imports itself under ever longer paths is refused, not followed without end', () => {
    expect(sourcesFromFiles([{ filename: 'A.sol', text: 'import "./sub/A.sol";\ncontract A {}' }])).toEqual({
      error: 'The imports name the files under too many other paths (at most 300); choose the files from the folders the imports name',
    });
  });

  it('an import no file answers is named', () => {
    expect(sourcesFromFiles([{ filename: 'A.sol', text: 'import "./B.sol";' }])).toEqual({ error: 'A.sol imports "./B.sol", which is not among the files' });
    expect(sourcesFromFiles([{ filename: '../A.sol', text: '' }])).toMatchObject({ error: expect.stringContaining('not a usable file name') });
  });
});
