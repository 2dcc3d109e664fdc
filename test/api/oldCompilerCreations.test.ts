/**
 * Contracts that create another contract through a library, a free function or an abstract
 * base, built with the compilers (solc 0.4.18 to 0.8.3) that cannot compile such a contract
 * when asked for it alone: deployed on the suite's anvil and verified through the service,
 * as a single file and as a standard JSON input of several files, and diagnosed when a
 * setting is wrong.
 */
import { encodeAbiParameters } from 'viem';
import { describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { compileForTest, solcPackageFor } from '../helpers/solc.js';

const ACCOUNT = deployerAccount('api/oldCompilerCreations');
const { apiUrl, apiKey, baseUrl } = sharedService();
const RUN = Date.now();

/** The token bridge's pattern: a value that cannot be sent is forced through a contract that self-destructs. */
const TOKEN_0_4 = `pragma solidity 0.4.26;

/// Created only to force a payment (${RUN}).
contract Sacrifice {
    constructor(address _recipient) public payable {
        selfdestruct(_recipient);
    }
}

library AddressUtils {
    function safeSendValue(address _receiver, uint256 _value) internal {
        if (!_receiver.send(_value)) {
            (new Sacrifice).value(_value)(_receiver);
        }
    }
}

contract BridgeToken {
    string public name;
    address public owner;

    constructor(string _name) public {
        name = _name;
        owner = msg.sender;
    }

    function claimValues(address _to) public {
        require(msg.sender == owner);
        AddressUtils.safeSendValue(_to, address(this).balance);
    }

    function () public payable {}
}
`;

const SACRIFICE_0_5 = `pragma solidity 0.5.17;

/// Created only to force a payment (${RUN}).
contract Sacrifice {
    constructor(address payable _recipient) public payable {
        selfdestruct(_recipient);
    }
}
`;

const ADDRESS_0_5 = `pragma solidity 0.5.17;

import "./Sacrifice.sol";

library Address {
    function safeSendValue(address payable _receiver, uint256 _value) internal {
        if (!_receiver.send(_value)) {
            (new Sacrifice).value(_value)(_receiver);
        }
    }
}
`;

const TOKEN_0_5 = `pragma solidity 0.5.17;

import "../libraries/Address.sol";

contract ERC677MultiBridgeToken {
    string public name;
    address payable public owner;

    constructor(string memory _name) public {
        name = _name;
        owner = msg.sender;
    }

    function claimValues(address payable _to) public {
        require(msg.sender == owner);
        Address.safeSendValue(_to, address(this).balance);
    }

    function () external payable {}
}
`;

/** 0.6: the creation sits in an abstract base, which solc never compiles on its own. */
const VAULT_0_6 = `// SPDX-License-Identifier: MIT
pragma solidity 0.6.12;

/// Created only to force a payment (${RUN}).
contract Sacrifice {
    constructor(address payable _recipient) public payable {
        selfdestruct(_recipient);
    }
}

abstract contract Claimable {
    function owner() public view virtual returns (address);

    function claimValues(address payable _to) public {
        require(msg.sender == owner());
        (new Sacrifice).value(address(this).balance)(_to);
    }
}

contract Vault is Claimable {
    address private immutable _owner;
    uint256 public limit;

    constructor(uint256 _limit) public {
        _owner = msg.sender;
        limit = _limit;
    }

    function owner() public view override returns (address) {
        return _owner;
    }

    receive() external payable {}
}
`;

const TOKEN_0_7 = `// SPDX-License-Identifier: MIT
pragma solidity 0.7.6;

/// Created only to force a payment (${RUN}).
contract Sacrifice {
    constructor(address payable _recipient) payable {
        selfdestruct(_recipient);
    }
}

library AddressUtils {
    function safeSendValue(address payable _receiver, uint256 _value) internal {
        if (!_receiver.send(_value)) {
            new Sacrifice{value: _value}(_receiver);
        }
    }
}

contract BridgeToken {
    string public name;
    address public owner;

    constructor(string memory _name) {
        name = _name;
        owner = msg.sender;
    }

    function claimValues(address payable _to) public {
        require(msg.sender == owner);
        AddressUtils.safeSendValue(_to, address(this).balance);
    }

    receive() external payable {}
}
`;

const NAME_ARGS = encodeAbiParameters([{ type: 'string' }], [`bridged ${RUN}`]).slice(2);
const LIMIT_ARGS = encodeAbiParameters([{ type: 'uint256' }], [1000n]).slice(2);

async function sourceRecord(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  return env.result[0] as Record<string, string>;
}

/** The installed compiler really stops on the contract alone: the case tests what it means to. */
function expectCrashAlone(version: string, built: Built, file: string, name: string): void {
  const alone = { ...built.input, settings: { ...built.input.settings, outputSelection: { [file]: { [name]: ['evm.bytecode.object'] } } } };
  const errors = (compileForTest(solcPackageFor(version), alone).errors ?? []).filter((e) => e.severity === 'error');
  expect(errors.map((e) => e.message).join('\n')).toContain('Compiled contract not found');
}

describe('a contract that creates another, built by a compiler that cannot compile it alone', () => {
  it('0.4.26, created in a library function: a single file is a full match with its constructor arguments', async () => {
    const built = await build('0.4.26', standardInput({ 'BridgeToken.sol': TOKEN_0_4 }), 'BridgeToken.sol', 'BridgeToken');
    expectCrashAlone('0.4.26', built, 'BridgeToken.sol', 'BridgeToken');
    const { address } = await deployContract(built.abi, built.bytecode, [`bridged ${RUN}`], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'BridgeToken', TOKEN_0_4));
    expect(status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(address);
    expect(record).toMatchObject({ MatchKind: 'full', CreationMatch: 'full', RuntimeMatch: 'full', ConstructorArguments: NAME_ARGS, SourceCode: TOKEN_0_4 });
    expect(record.SwarmSource).toMatch(/^bzzr:\/\//);
  });

  it('0.5.17, a standard JSON input of three files (the library and the created contract in others): a full match', async () => {
    const input = standardInput(
      {
        'contracts/upgradeable_contracts/Sacrifice.sol': SACRIFICE_0_5,
        'contracts/libraries/Address.sol': ADDRESS_0_5.replace('"./Sacrifice.sol"', '"../upgradeable_contracts/Sacrifice.sol"'),
        'contracts/tokens/ERC677MultiBridgeToken.sol': TOKEN_0_5,
      },
      { optimizer: true, runs: 200 },
    );
    const file = 'contracts/tokens/ERC677MultiBridgeToken.sol';
    const built = await build('0.5.17', input, file, 'ERC677MultiBridgeToken');
    expectCrashAlone('0.5.17', built, file, 'ERC677MultiBridgeToken');
    const { address } = await deployContract(built.abi, built.bytecode, [`bridged ${RUN}`], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, built, `${file}:ERC677MultiBridgeToken`));
    expect(status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(address);
    expect(record).toMatchObject({ MatchKind: 'full', CreationMatch: 'full', ConstructorArguments: NAME_ARGS, ContractFileName: file });
  });

  it('0.6.12, created in an abstract base: a full match; a wrong optimizer setting is diagnosed, and the fix passes', async () => {
    const built = await build('0.6.12', standardInput({ 'Vault.sol': VAULT_0_6 }, { optimizer: true, runs: 200 }), 'Vault.sol', 'Vault');
    expectCrashAlone('0.6.12', built, 'Vault.sol', 'Vault');
    const { address } = await deployContract(built.abi, built.bytecode, [1000n], ACCOUNT);
    // Every setting the diagnosis tries is a compile of this contract: each must get past solc.
    const wrong = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Vault', VAULT_0_6, { optimizationUsed: '0' }));
    expect(wrong.status?.result).toMatch(/^Fail - Unable to verify\. /);
    expect(wrong.status?.result).toContain('with the optimizer enabled, 200 runs (you sent: disabled)');
    const doc = (await (await fetch(`${baseUrl}/receipt/${String(wrong.submit.result)}.json`)).json()) as { reasonCode: string };
    expect(doc.reasonCode).toBe('wrong_optimizer');

    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Vault', VAULT_0_6));
    expect(status?.result).toBe('Pass - Verified');
    expect(await sourceRecord(address)).toMatchObject({ MatchKind: 'full', CreationMatch: 'full', RuntimeMatch: 'full', ConstructorArguments: LIMIT_ARGS });
  });

  it('0.7.6, created in a library function (0.7.5 fixed only the abstract base): a full match', async () => {
    const built = await build('0.7.6', standardInput({ 'BridgeToken.sol': TOKEN_0_7 }), 'BridgeToken.sol', 'BridgeToken');
    expectCrashAlone('0.7.6', built, 'BridgeToken.sol', 'BridgeToken');
    const { address } = await deployContract(built.abi, built.bytecode, [`bridged ${RUN}`], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'BridgeToken', TOKEN_0_7));
    expect(status?.result).toBe('Pass - Verified');
    expect(await sourceRecord(address)).toMatchObject({ MatchKind: 'full', CreationMatch: 'full', ConstructorArguments: NAME_ARGS });
  });
});
