import type { SolcInput } from '../src/verify/index.js';

/** Source path and name of the contract whose compilation holds every generated file. */
export const WIDE_PATH = 'contracts/Wide.sol';
export const WIDE_NAME = 'Wide';

const partPath = (i: number): string => `contracts/parts/Part${i}.sol`;

/**
 * A standard JSON input of `files` Solidity files: `Wide` inherits a binary tree of
 * `files - 1` abstract contracts, one per file (file i imports files 2i and 2i+1), so every
 * file is part of Wide's compilation and its metadata's sources. Each part holds a constant
 * and an internal function; Wide calls a few, so its code stays small.
 */
export function wideStandardInput(files = 300): SolcInput {
  const parts = files - 1;
  const children = (i: number): number[] => [2 * i, 2 * i + 1].filter((c) => c <= parts);
  const sources: Record<string, { content: string }> = {};
  for (let i = 1; i <= parts; i++) {
    const bases = children(i);
    const imports = bases.map((c) => `import {Part${c}} from "./Part${c}.sol";\n`).join('');
    sources[partPath(i)] = {
      content: `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

${imports}
/// @title Part ${i} of the wide benchmark contract
/// @notice One of ${parts} small abstract contracts; it adds a constant and a helper.
abstract contract Part${i}${bases.length ? ` is ${bases.map((c) => `Part${c}`).join(', ')}` : ''} {
    uint256 internal constant WEIGHT_${i} = ${i * 7 + 3};

    /// @dev Scales \`x\` by this part's weight, wrapping on overflow.
    function scale${i}(uint256 x) internal pure returns (uint256) {
        unchecked {
            return x * WEIGHT_${i} + ${i};
        }
    }
}
`,
    };
  }
  sources[WIDE_PATH] = {
    content: `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Part1} from "./parts/Part1.sol";

/// @title The wide benchmark contract: its compilation has ${files} files
contract Wide is Part1 {
    event Scaled(address indexed by, uint256 input, uint256 output);

    function weightOf(uint256 x) external pure returns (uint256) {
        return scale1(x) + scale${parts}(x) + WEIGHT_${Math.ceil(parts / 2)};
    }

    function scaleAndLog(uint256 x) external returns (uint256 y) {
        y = scale2(x);
        emit Scaled(msg.sender, x, y);
    }
}
`,
  };
  return {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'metadata'] } },
    },
  };
}
