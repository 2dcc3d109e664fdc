import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, posix } from 'node:path';
import type { SolcInput } from '../src/verify/index.js';

const require = createRequire(import.meta.url);

/** Source path of the benchmark token inside the standard JSON input. */
export const TOKEN_PATH = 'contracts/Token.sol';
export const TOKEN_NAME = 'Token';

const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract Token is ERC20 {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(msg.sender, supply);
    }
}
`;

const OZ_PREFIX = '@openzeppelin/contracts/';
const IMPORT_RE = /^\s*import\s+(?:[^"';]*?\bfrom\s+)?["']([^"']+)["']\s*;/gm;

/**
 * A standard JSON input the way a Hardhat project writes one: the given sources plus every
 * OpenZeppelin file they import, under its `@openzeppelin/contracts/...` key, with `content`
 * only. Files are read from the installed package, never from a path a user chose.
 */
export function openZeppelinStandardInput(
  ownSources: Record<string, string>,
  optimizer: { enabled: boolean; runs: number } = { enabled: true, runs: 200 },
): SolcInput {
  const ozRoot = dirname(require.resolve('@openzeppelin/contracts/package.json'));
  const sources: Record<string, { content: string }> = Object.fromEntries(Object.entries(ownSources).map(([path, content]) => [path, { content }]));
  const pending = Object.keys(sources);
  while (pending.length > 0) {
    const from = pending.pop()!;
    const content = sources[from]!.content;
    for (const match of content.matchAll(IMPORT_RE)) {
      const spec = match[1]!;
      const key = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(from), spec)) : spec;
      if (sources[key]) continue;
      if (!key.startsWith(OZ_PREFIX) || key.includes('..')) throw new Error(`unexpected import ${spec} in ${from}`);
      sources[key] = { content: readFileSync(`${ozRoot}/${key.slice(OZ_PREFIX.length)}`, 'utf8') };
      pending.push(key);
    }
  }
  return {
    language: 'Solidity',
    sources,
    settings: {
      optimizer,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'metadata'] } },
    },
  };
}

/**
 * The benchmark token's standard JSON input; an `edition` appends a comment naming it, which
 * changes the metadata hash and so the code: each edition is a compilation of its own.
 */
export function tokenStandardInput(edition?: number): SolcInput {
  const source = edition === undefined ? TOKEN_SOURCE : `${TOKEN_SOURCE}// edition ${edition}\n`;
  return openZeppelinStandardInput({ [TOKEN_PATH]: source });
}
