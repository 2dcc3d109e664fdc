import { describe, expect, it } from 'vitest';
import { type OutlineItem, solidityOutline } from './solidityOutline.js';

const items = (source: string): OutlineItem[] => [...solidityOutline(source)];
const declared = (source: string): string[] =>
  items(source).flatMap((i) => (i.kind === 'declaration' ? [`${i.abstract ? 'abstract ' : ''}${i.keyword} ${i.name}`] : []));
const MB = 1024 * 1024;

describe('solidityOutline: declarations', () => {
  it('reads contracts, abstract contracts, libraries and interfaces, wherever they stand on a line', () => {
    const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
interface IBox { function get() external view returns (uint256); }
abstract   contract Base {}
library Math { function f() internal {} } contract Box is Base, IBox {
  function get() external pure returns (uint256) { return 1; }
}
contract
  Split {}
abstract /* why not */ contract Commented {}`;
    expect(declared(source)).toEqual([
      'interface IBox',
      'abstract contract Base',
      'library Math',
      'contract Box',
      'contract Split',
      'abstract contract Commented',
    ]);
    const base = items(source).find((i) => i.kind === 'declaration' && i.name === 'Base')!;
    expect(source.slice(base.start, base.end)).toBe('abstract   contract Base');
  });

  it('does not take keywords inside comments, strings or longer words', () => {
    const source = `/* contract InBlock {} */
// contract InLine {}
/// library InDoc {}
/** interface InNatspec {} */
contract Real {
  string a = "contract InDouble {}";
  string b = 'library InSingle {}';
  string c = "escaped \\" contract InEscaped {}";
  bytes d = hex"00";
  string e = unicode"interface InUnicode";
  uint256 mycontract = 1; uint256 library_ = 2; uint256 contract$ = 3;
}`;
    expect(declared(source)).toEqual(['contract Real']);
  });

  it('comments do not nest: the first */ ends a block comment, and a line comment hides a /*', () => {
    expect(declared('/* outer /* inner */ contract AfterFirstClose {} */')).toEqual(['contract AfterFirstClose']);
    expect(declared('// /* not a comment start\ncontract AfterLineComment {}')).toEqual(['contract AfterLineComment']);
    expect(declared('/* // */ contract AfterBlock {}')).toEqual(['contract AfterBlock']);
    expect(declared('/*/ contract Hidden {} */ contract Shown {}')).toEqual(['contract Shown']);
  });

  it('an unterminated block comment hides the rest; an unterminated string only the rest of its line', () => {
    expect(declared('contract Before {}\n/* never closed\ncontract After {}')).toEqual(['contract Before']);
    expect(declared('string s = "never closed; contract SameLine {}\ncontract NextLine {}')).toEqual(['contract NextLine']);
    expect(declared("x = 'open\r\nlibrary AfterCrLf {}")).toEqual(['library AfterCrLf']);
    expect(declared('"\\\ncontract AfterContinuation {}" contract Out {}')).toEqual(['contract Out']);
  });

  it('a keyword without a name is no declaration', () => {
    expect(declared('contract')).toEqual([]);
    expect(declared('contract 1x {}')).toEqual([]);
    expect(declared('contract {} library L {}')).toEqual(['library L']);
    expect(declared('contract library L2 {}')).toEqual(['library L2']);
    expect(declared('abstract library L3 {}')).toEqual(['library L3']);
  });
});

describe('solidityOutline: imports, pragmas and licences', () => {
  it('reads every form of import with its path, and pragmas with their bodies', () => {
    const source = `pragma solidity >=0.8.0 <0.9.0;
pragma abicoder   v2 ;
import "./A.sol";
import './B.sol' as B;
import * as C from "lib/C.sol";
import {D, E as F} from
  "@scope/pkg/D.sol";
// import "./Commented.sol";
string constant S = "import './InString.sol';";
import "./Unterminated.sol"`;
    const found = items(source).flatMap((i) => (i.kind === 'import' ? [i.path] : i.kind === 'pragma' ? [`pragma ${i.body}`] : []));
    expect(found).toEqual(['pragma solidity >=0.8.0 <0.9.0', 'pragma abicoder   v2', './A.sol', './B.sol', 'lib/C.sol', '@scope/pkg/D.sol']);
    const d = items(source).find((i) => i.kind === 'import' && i.path === '@scope/pkg/D.sol')!;
    expect(source.slice(d.start, d.end)).toBe('import {D, E as F} from\n  "@scope/pkg/D.sol";');
  });

  it('a declaration keyword ends a statement left open', () => {
    expect(items('import "./A.sol"\ncontract C {}').map((i) => i.kind)).toEqual(['declaration']);
  });

  it('reads licences from line and block comments, never from strings', () => {
    const source = `// SPDX-License-Identifier: MIT
/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SPDX-License-Identifier:   Apache-2.0 OR MIT
 */
string constant L = "SPDX-License-Identifier: BUSL-1.1";`;
    const licenses = items(source).filter((i) => i.kind === 'license');
    expect(licenses.map((l) => l.kind === 'license' && l.expression)).toEqual(['MIT', 'GPL-3.0-or-later', 'Apache-2.0 OR MIT']);
    expect(source.slice(licenses[1]!.start, licenses[1]!.end)).toBe('/* SPDX-License-Identifier: GPL-3.0-or-later */');
  });
});

describe('solidityOutline: contract creations', () => {
  const created = (source: string): string[] => items(source).flatMap((i) => (i.kind === 'creation' ? [source.slice(i.start, i.end)] : []));

  it('finds `new C`, `new lib.C` and `type(C).creationCode` / `.runtimeCode`', () => {
    const source = `contract F {
  function a() external { new Child(1); new  /* c */ lib.Token(); }
  function b() external pure returns (bytes memory, bytes memory) { return (type(C).creationCode, type(C).runtimeCode); }
}`;
    expect(created(source)).toEqual(['Child', 'lib', 'creationCode', 'runtimeCode']);
  });

  it('not arrays, bytes or strings, and not words in comments, strings or longer words', () => {
    const source = `contract A {
  function f(uint n) external pure returns (uint) {
    bytes memory b = new bytes(n); string memory s = new string(n); uint256[] memory u = new uint256[](n);
    address[] memory x = new address[](n); bool[] memory y = new bool[](n); bytes32[] memory z = new bytes32[](n);
    // new Child(); creationCode
    string memory t = "new Child() type(C).creationCode";
    uint renew = newest + n;
    return b.length + u.length + renew;
  }
}`;
    expect(created(source)).toEqual([]);
  });
});

describe('solidityOutline: hostile text costs one pass', () => {
  // Each of these took minutes with the regular expressions it replaces (or would have):
  // the test's time limit is the bound.
  it('1 MB of /* without a */', () => {
    expect(items('/* '.repeat(MB / 3))).toEqual([]);
    expect(declared(`contract First {}\n${'/* '.repeat(MB / 3)}\ncontract Hidden {}`)).toEqual(['contract First']);
  });

  it('1 MB of quotes that never close, of comments, of keywords without names', () => {
    expect(items('"a\n'.repeat(MB / 3))).toEqual([]);
    expect(items(`'${'\\'.repeat(MB)}`)).toEqual([]);
    expect(items('//x\n'.repeat(MB / 4))).toEqual([]);
    expect(items('/**/'.repeat(MB / 4))).toEqual([]);
    expect(items(`contract${' '.repeat(MB)}!`)).toEqual([]);
    expect(items(`import${' '.repeat(MB)}x`)).toEqual([]);
    expect(items('new '.repeat(MB / 4)).length).toBe(0);
    expect(items(`new ${'x'.repeat(MB)}`).length).toBe(1);
  });

  it('1 MB of declarations can be stopped early', () => {
    let seen = 0;
    for (const item of solidityOutline('contract A {}\n'.repeat(MB / 14))) {
      if (item.kind === 'declaration' && ++seen === 10) break;
    }
    expect(seen).toBe(10);
    expect(declared('contract A {}\n'.repeat(MB / 14)).length).toBe(Math.floor(MB / 14));
  });
});
