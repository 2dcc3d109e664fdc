import type { SolcInput } from '../src/verify/index.js';

/** The contract of the amplification input that gets deployed and verified. */
export const AMPLIFICATION_PATH = 'contracts/Many.sol';
export const AMPLIFICATION_TARGET = 'C0';

/**
 * The input of the attack review's "compiler output amplification": a small submission
 * (about 227 KB) whose one file declares 1,700 contracts, with the sources copied into the
 * metadata (`useLiteralContent`). A compile that asks solc for the metadata and assembly of
 * every contract gets back every source once per contract, hundreds of MB of JSON.
 */
export function amplificationInput(contracts = 1700): SolcInput {
  const lines = ['// SPDX-License-Identifier: MIT', 'pragma solidity ^0.8.20;'];
  for (let i = 0; i < contracts; i++) {
    lines.push(`contract C${i} { event E${i}(uint256 indexed x); function f${i}(uint256 a) external pure returns (uint256) { return a * ${i + 3} + 7; } }`);
  }
  return {
    language: 'Solidity',
    sources: { [AMPLIFICATION_PATH]: { content: `${lines.join('\n')}\n` } },
    settings: {
      optimizer: { enabled: false, runs: 200 },
      metadata: { useLiteralContent: true },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
}
