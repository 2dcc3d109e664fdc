import type { SolcInput } from '../src/verify/index.js';
import { openZeppelinStandardInput } from './tokenInput.js';

/**
 * The contracts the per-contract bench verifies. `input(edition)` is a standard JSON input
 * whose code differs per edition (a trailing comment changes the metadata hash), so every
 * deployment is a compilation the service has not seen.
 */
export interface BenchContract {
  label: string;
  /** Which solc: a package name (`solc`, `solc-0.5.17`). */
  solcPackage: string;
  path: string;
  name: string;
  input(edition: number): SolcInput;
}

const edition = (source: string, n: number): string => `${source}// edition ${n}\n`;

const plain = (sources: Record<string, string>, optimizer = { enabled: true, runs: 200 }): SolcInput => ({
  language: 'Solidity',
  sources: Object.fromEntries(Object.entries(sources).map(([path, content]) => [path, { content }])),
  settings: { optimizer, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'metadata'] } } },
});

export const TINY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Tiny {
    uint256 public value;

    constructor(uint256 v) {
        value = v;
    }
}
`;

export const LIBRARY_PATH = 'contracts/MathLib.sol';
export const LIBRARY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

library MathLib {
    function triple(uint256 a) external pure returns (uint256) {
        return a * 3;
    }
}
`;

const USES_LIB_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import {MathLib} from "./MathLib.sol";

contract UsesLib {
    uint256 public value;

    constructor(uint256 v) {
        value = MathLib.triple(v);
    }

    function calc(uint256 a) external pure returns (uint256) {
        return MathLib.triple(a);
    }
}
`;

const FACTORY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Child {
    uint256 public id;
    address public maker;

    constructor(uint256 i) {
        id = i;
        maker = msg.sender;
    }
}

contract Factory {
    event Made(address child);

    function make(uint256 i) external returns (address c) {
        c = address(new Child(i));
        emit Made(c);
    }
}
`;

const OLD_SOURCE = `pragma solidity ^0.5.0;

contract Old {
    uint256 public value;

    constructor(uint256 v) public {
        value = v;
    }

    function set(uint256 v) public {
        value = v;
    }
}
`;

export const VOTES_TOKEN_PATH = 'contracts/VotesToken.sol';
const VOTES_TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

contract VotesToken is ERC20, ERC20Permit, ERC20Votes {
    constructor() ERC20("Votes", "VOT") ERC20Permit("Votes") {}

    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Votes) {
        super._update(from, to, value);
    }

    function nonces(address owner) public view override(ERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }
}
`;

const GOVERNOR_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Governor} from "@openzeppelin/contracts/governance/Governor.sol";
import {GovernorCountingSimple} from "@openzeppelin/contracts/governance/extensions/GovernorCountingSimple.sol";
import {GovernorSettings} from "@openzeppelin/contracts/governance/extensions/GovernorSettings.sol";
import {GovernorVotes} from "@openzeppelin/contracts/governance/extensions/GovernorVotes.sol";
import {GovernorVotesQuorumFraction} from "@openzeppelin/contracts/governance/extensions/GovernorVotesQuorumFraction.sol";
import {IVotes} from "@openzeppelin/contracts/governance/utils/IVotes.sol";

contract BenchGovernor is Governor, GovernorSettings, GovernorCountingSimple, GovernorVotes, GovernorVotesQuorumFraction {
    constructor(IVotes token)
        Governor("BenchGovernor")
        GovernorSettings(7200, 50400, 0)
        GovernorVotes(token)
        GovernorVotesQuorumFraction(4)
    {}

    function votingDelay() public view override(Governor, GovernorSettings) returns (uint256) {
        return super.votingDelay();
    }

    function votingPeriod() public view override(Governor, GovernorSettings) returns (uint256) {
        return super.votingPeriod();
    }

    function quorum(uint256 blockNumber) public view override(Governor, GovernorVotesQuorumFraction) returns (uint256) {
        return super.quorum(blockNumber);
    }

    function proposalThreshold() public view override(Governor, GovernorSettings) returns (uint256) {
        return super.proposalThreshold();
    }
}
`;

export const votesTokenInput = (): SolcInput => openZeppelinStandardInput({ [VOTES_TOKEN_PATH]: VOTES_TOKEN_SOURCE });

/** The library's own input (deployed once; the linking contract names its address). */
export const libraryInput = (): SolcInput => plain({ [LIBRARY_PATH]: LIBRARY_SOURCE });

export const TINY: BenchContract = {
  label: 'tiny',
  solcPackage: 'solc',
  path: 'contracts/Tiny.sol',
  name: 'Tiny',
  input: (n) => plain({ 'contracts/Tiny.sol': edition(TINY_SOURCE, n) }, { enabled: false, runs: 200 }),
};

/** A Tiny for another compiler (the memory figure keeps several warm); `pragma` fits it. */
export function tinyFor(solcPackage: string, pragma: string): BenchContract {
  const source = TINY_SOURCE.replace('^0.8.0', pragma).replace('constructor(uint256 v) {', 'constructor(uint256 v) public {');
  const fixed = pragma.startsWith('^0.8') ? TINY_SOURCE : source;
  return { ...TINY, label: `tiny ${solcPackage}`, solcPackage, input: (n) => plain({ 'contracts/Tiny.sol': edition(fixed, n) }) };
}

export const ERC20_TOKEN: BenchContract = {
  label: 'OZ ERC-20',
  solcPackage: 'solc',
  path: 'contracts/Token.sol',
  name: 'Token',
  // Same as tokenStandardInput: kept here so every contract is built one way.
  input: (n) =>
    openZeppelinStandardInput({
      'contracts/Token.sol': edition(
        `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract Token is ERC20 {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(msg.sender, supply);
    }
}
`,
        n,
      ),
    }),
};

/** Linked by solc (`settings.libraries`), as Etherscan and Remix builds are. */
export function usesLibContract(libraryAddress: string): BenchContract {
  return {
    label: 'library linked',
    solcPackage: 'solc',
    path: 'contracts/UsesLib.sol',
    name: 'UsesLib',
    input: (n) => {
      const input = plain({ [LIBRARY_PATH]: LIBRARY_SOURCE, 'contracts/UsesLib.sol': edition(USES_LIB_SOURCE, n) });
      input.settings!.libraries = { [LIBRARY_PATH]: { MathLib: libraryAddress } };
      return input;
    },
  };
}

export const FACTORY_CHILD: BenchContract = {
  label: 'factory-created',
  solcPackage: 'solc',
  path: 'contracts/Factory.sol',
  name: 'Child',
  input: (n) => plain({ 'contracts/Factory.sol': edition(FACTORY_SOURCE, n) }),
};

export const OLD_05: BenchContract = {
  label: 'solc 0.5.17',
  solcPackage: 'solc-0.5.17',
  path: 'contracts/Old.sol',
  name: 'Old',
  input: (n) => plain({ 'contracts/Old.sol': edition(OLD_SOURCE, n) }),
};

export const GOVERNOR: BenchContract = {
  label: 'OZ Governor',
  solcPackage: 'solc',
  path: 'contracts/BenchGovernor.sol',
  name: 'BenchGovernor',
  input: (n) => openZeppelinStandardInput({ 'contracts/BenchGovernor.sol': edition(GOVERNOR_SOURCE, n) }),
};

/** The outputs a bare compile asks for: what a deployment tool needs, for the one contract. */
export function minimalOutputs(input: SolcInput, path: string, name: string): SolcInput {
  const outputs = [
    'abi',
    'metadata',
    'evm.bytecode.object',
    'evm.bytecode.linkReferences',
    'evm.deployedBytecode.object',
    'evm.deployedBytecode.immutableReferences',
    'evm.deployedBytecode.linkReferences',
  ];
  return { ...input, settings: { ...input.settings, outputSelection: { [path]: { [name]: outputs } } } };
}
