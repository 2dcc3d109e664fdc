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
});
