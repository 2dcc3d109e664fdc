import { describe, expect, it } from 'vitest';
import { looksLikeVyperSource } from './sourceLanguage.js';

describe('telling a Vyper source from a Solidity one', () => {
  it.each([
    ['# pragma version ~=0.4.0\nx: uint256\n', true],
    ['# @version ^0.3.7\n', true],
    ['x: public(uint256)\n\n@external\n@view\ndef get() -> uint256:\n    return self.x\n', true],
    ['// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract A { function f() external {} }\n', false],
    ['contract A {\n  // # pragma version 0.4.0 in a comment\n}\n', false],
    ['', false],
    ['@external is mentioned in prose, with no def after it', false],
  ])('%j: %s', (text, vyper) => {
    expect(looksLikeVyperSource(text)).toBe(vyper);
  });
});
