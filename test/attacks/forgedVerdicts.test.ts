/**
 * The attack review's ways to get a verdict that lies, reproduced against the real service
 * on anvil: each attack's input is built as the attacker would, checked to do what the
 * attacker wants (it really compiles to, or deploys, the code it claims), and then refused.
 */
import { encodeAbiParameters, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, failureWithReceipt, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, deployRaw, devnetClients } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { compileForTest } from '../helpers/solc.js';

const ACCOUNT = deployerAccount('attacks/forgedVerdicts');
const { apiUrl, apiKey, baseUrl } = sharedService();

/** Init code that returns `runtime` as the contract's code, whatever it is. */
function initCodeReturning(runtime: Hex): Hex {
  const body = runtime.slice(2);
  const length = (body.length / 2).toString(16).padStart(4, '0');
  // PUSH2 len, DUP1, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 0, RETURN; then the code.
  return `0x61${length}80600c6000396000f3${body}`;
}

async function record(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  return env.result[0] as Record<string, string>;
}

async function page(address: string): Promise<string> {
  return (await fetch(`${baseUrl}/address/${address}`)).text();
}

const VAULT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The victim: a vault whose owner has not verified it yet.
contract Vault {
    mapping(address => uint256) public balances;
    function deposit() external payable { balances[msg.sender] += msg.value; }
    function withdraw(uint256 amount) external {
        balances[msg.sender] -= amount;
        payable(msg.sender).transfer(amount);
    }
}
`;

describe('attack 1: a Yul object that is verbatim of the deployed code', () => {
  let vault: Built;
  let address: string;
  let runtime: Hex;

  beforeAll(async () => {
    vault = await build('0.8.28', standardInput({ 'Vault.sol': VAULT }, { optimizer: true }), 'Vault.sol', 'Vault');
    ({ address } = await deployContract(vault.abi, vault.bytecode, [], ACCOUNT));
    runtime = (await devnetClients(ACCOUNT).publicClient.getCode({ address: address as Hex }))!;
  });

  it("compiles to the victim's exact runtime code, CBOR tail included, and is refused as not Solidity; the owner then verifies", async () => {
    const yul = `object "Forged" {
  code { datacopy(0, dataoffset("runtime"), datasize("runtime")) return(0, datasize("runtime")) }
  object "runtime" { code { verbatim_0i_0o(hex"${runtime.slice(2)}") } }
}`;
    const input = {
      language: 'Yul',
      sources: { 'Forged.yul': { content: yul } },
      settings: { outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } } },
    };
    // The attacker's input really reproduces the deployed code, byte for byte.
    const compiled = compileForTest('solc', input as never).contracts?.['Forged.yul']?.['Forged']?.evm?.deployedBytecode?.object;
    expect(`0x${compiled}`).toBe(runtime);

    const { submit } = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: address,
      sourceCode: JSON.stringify(input),
      codeformat: 'solidity-standard-json-input',
      contractname: 'Forged.yul:Forged',
      compilerversion: vault.compilerVersion,
      licenseType: '3',
    });
    expect(submit).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Invalid parameter sourceCode: only Solidity sources are verified here: the standard JSON input must have "language": "Solidity" (got "Yul")',
    });
    expect((await record(address)).SourceCode).toBe('');

    // The real owner is not locked out.
    const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, vault, 'Vault.sol:Vault'));
    expect(status?.result).toBe('Pass - Verified');
    expect((await record(address)).MatchKind).toBe('full');
  });
});

const INITIALIZABLE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

abstract contract Initializable {
    constructor(bytes memory setup) {
        if (setup.length > 0) {
            assembly { return(add(setup, 32), mload(setup)) }
        }
    }
}
`;

const SAVINGS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Initializable.sol";

/// Looks innocent: a savings box.
contract Savings is Initializable {
    mapping(address => uint256) public balances;
    constructor(bytes memory setup) Initializable(setup) {}
    function deposit() external payable { balances[msg.sender] += msg.value; }
    function withdraw(uint256 amount) external {
        balances[msg.sender] -= amount;
        payable(msg.sender).transfer(amount);
    }
}
`;

const DRAINER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Drainer {
    function deposit() external payable {}
    function withdraw(uint256) external { payable(tx.origin).transfer(address(this).balance); }
    function balances(address) external pure returns (uint256) { return 0; }
}
`;

describe('attack 2: a constructor that returns other runtime code than the contract compiles to', () => {
  it('is a failure that says so; the address stays unverified', async () => {
    const input = standardInput({ 'Initializable.sol': INITIALIZABLE, 'Savings.sol': SAVINGS }, { optimizer: true });
    const savings = await build('0.8.28', input, 'Savings.sol', 'Savings');
    const drainer = await build('0.8.28', standardInput({ 'Drainer.sol': DRAINER }, { optimizer: true }), 'Drainer.sol', 'Drainer');
    const drainerRuntime = `0x${drainer.output.contracts!['Drainer.sol']!['Drainer']!.evm!.deployedBytecode!.object}` as Hex;
    const { address } = await deployContract(savings.abi, savings.bytecode, [drainerRuntime], ACCOUNT);
    // What the address runs is the drainer, not the savings box.
    expect(await devnetClients(ACCOUNT).publicClient.getCode({ address: address as Hex })).toBe(drainerRuntime);

    const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, savings, 'Savings.sol:Savings'));
    expect(status).toEqual({
      status: '0',
      message: 'NOTOK',
      result: failureWithReceipt(
        'Fail - Unable to verify. The creation code matches these sources, but the code deployed at the address does not: the constructor returned other code than the contract compiles to.',
      ),
    });
    expect(await apiGet(apiUrl, { module: 'contract', action: 'getabi', address, apikey: apiKey })).toMatchObject({
      status: '0',
      result: 'Contract source code not verified',
    });
    expect(await page(address)).toContain('Not verified');
  });
});

const CAPPED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Capped {
    uint256 public immutable cap;
    constructor(uint256 cap_) { cap = cap_; }
}
`;

describe('attack 3: constructor arguments nothing checked', () => {
  it("verifies the runtime code, but never serves the submitted arguments as the contract's", async () => {
    const capped = await build('0.8.28', standardInput({ 'Capped.sol': CAPPED }), 'Capped.sol', 'Capped');
    const realArgs = encodeAbiParameters([{ type: 'uint256' }], [10n ** 30n]).slice(2);
    const claimed = encodeAbiParameters([{ type: 'uint256' }], [1000n]).slice(2);
    // Bytes after the arguments: the creation code cannot match, so only the runtime code is compared.
    const { address } = await deployRaw(`${capped.bytecode}${realArgs}deadbeef`, ACCOUNT);
    const { publicClient } = devnetClients(ACCOUNT);
    expect(await publicClient.readContract({ address: address as Hex, abi: capped.abi, functionName: 'cap' })).toBe(10n ** 30n);

    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, capped, 'Capped', CAPPED, { constructorArguements: claimed }));
    expect(status?.result).toBe('Pass - Verified');
    const r = await record(address);
    // The immutable cap was copied from the chain and no matched creation code proves it: partial.
    expect(r.MatchKind).toBe('partial');
    // The runtime code's bytes match, but its immutable is not proven: the runtime match says so too.
    expect(r.RuntimeMatch).toBe('partial');
    expect(r.CreationMatch).toBe('');
    expect(r.ConstructorArguments).toBe('');
    const html = await page(address);
    expect(html).toContain('one immutable value was taken from the chain');
    expect(html).toContain(`0x${(10n ** 30n).toString(16).padStart(64, '0')}`);
    expect(html).toContain('Unknown: the creation code was found but did not match');
    expect(html).toContain('creation code: compared, did not match');
    // The claimed value is shown nowhere as the contract's argument.
    expect(html).not.toMatch(/cap_ <span class="muted">\(uint256\)<\/span>: 1000/);
  });
});

const TINY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Tiny {
    function one() external pure returns (uint256) { return 1; }
}
`;

describe('attack 9: kilobytes of bytes appended after the code as "auxdata"', () => {
  it('accepts only the shape of auxdata solc writes', async () => {
    const tiny = await build('0.8.28', standardInput({ 'Tiny.sol': TINY }), 'Tiny.sol', 'Tiny');
    const runtime = tiny.output.contracts!['Tiny.sol']!['Tiny']!.evm!.deployedBytecode!.object;
    // The code without its own auxdata (the last 2 bytes give the CBOR length).
    const code = runtime.slice(0, runtime.length - (parseInt(runtime.slice(-4), 16) + 2) * 2);
    const withTail = (map: string): Hex => initCodeReturning(`0x${code}${map}${(map.length / 2).toString(16).padStart(4, '0')}`);
    const solcKey = `64${Buffer.from('solc').toString('hex')}`;

    // A CBOR map with solc's version key and 2 KB of anything under another key.
    const stuffedMap = `a2${solcKey}4300081c61${Buffer.from('x').toString('hex')}590800${'ab'.repeat(2048)}`;
    const stuffed = await deployRaw(withTail(stuffedMap), ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(stuffed.address, tiny, 'Tiny.sol:Tiny'));
    expect(status).toMatchObject({ status: '0', message: 'NOTOK' });
    // Etherscan's reason, then the diagnosis: where the stuffed code departs from the compiled one.
    expect(status?.result).toMatch(
      /^Fail - Unable to verify\. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode\. The deployed runtime code is \d+ bytes, yours \d+; they first differ at byte \d+/,
    );
    expect(status?.result).not.toContain('It matches');

    // The same code with the tail solc writes for bytecodeHash none, { solc: 0.8.28 }: the honest partial match.
    const honest = await deployRaw(withTail(`a1${solcKey}4300081c`), ACCOUNT);
    const passed = await verifyAndWait(apiUrl, apiKey, standardJsonFields(honest.address, tiny, 'Tiny.sol:Tiny'));
    expect(passed.status?.result).toBe('Pass - Verified');
    expect((await record(honest.address)).MatchKind).toBe('partial');
  });
});
