import { describe, expect, it } from 'vitest';
import { applyRepairs, flatteningRepairs } from './flatteningRepairs.js';
import type { SolcError } from './solcTypes.js';

const error = (errorCode: string): SolcError => ({ severity: 'error', errorCode, message: '' });
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
pragma abicoder v2;
import "./Gone.sol";
// SPDX-License-Identifier: MIT
pragma abicoder v2;
contract A {}`;

describe('flatteningRepairs', () => {
  it('drops only the lines the reported errors are about', () => {
    expect(flatteningRepairs(SOURCE, [error('3716')])?.map((r) => r.line)).toEqual([5]);
    expect(flatteningRepairs(SOURCE, [error('3845')])?.map((r) => r.line)).toEqual([6]);
    expect(flatteningRepairs(SOURCE, [error('6275')])?.map((r) => r.line)).toEqual([4]);
    expect(flatteningRepairs(SOURCE, [error('3716'), error('6275')])?.map((r) => r.line)).toEqual([4, 5]);
  });

  it('leaves other errors alone, and warnings are not errors', () => {
    expect(flatteningRepairs(SOURCE, [error('2314')])).toBeNull();
    expect(flatteningRepairs(SOURCE, [{ severity: 'warning', errorCode: '3716', message: '' }])).toBeNull();
  });

  it('blanks the lines, so every other line keeps its number', () => {
    const repaired = applyRepairs(SOURCE, flatteningRepairs(SOURCE, [error('3716'), error('3845'), error('6275')])!);
    expect(repaired.split('\n')).toEqual(['// SPDX-License-Identifier: MIT', 'pragma solidity ^0.8.0;', 'pragma abicoder v2;', '', '', '', 'contract A {}']);
  });

  it('drops a statement or licence comment over all its lines, and never a line that also holds code', () => {
    const source = `/*
 * SPDX-License-Identifier: MIT
 */
import {
  A
} from "./A.sol";
contract B {} // SPDX-License-Identifier: MIT
import "./C.sol"; contract D {}
string constant S = "// SPDX-License-Identifier: MIT";
/* import "./InComment.sol"; */`;
    expect(flatteningRepairs(`// SPDX-License-Identifier: MIT\n${source}`, [error('3716'), error('6275')])?.map((r) => [r.line, r.why])).toEqual([
      [2, 'second_spdx_line'],
      [3, 'second_spdx_line'],
      [4, 'second_spdx_line'],
      [5, 'missing_import'],
      [6, 'missing_import'],
      [7, 'missing_import'],
    ]);
  });

  it('reads a megabyte-long import line in one pass', () => {
    const source = `import${' '.repeat(1024 * 1024)}x;\nimport "./Gone.sol";`;
    expect(flatteningRepairs(source, [error('6275')])?.map((r) => r.line)).toEqual([2]);
  });
});
