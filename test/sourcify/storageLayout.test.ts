import { getAddress } from 'viem';
import { describe, expect, inject, it } from 'vitest';
import type { SolcInput } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { verifyAndWait as etherscanVerifyAndWait, sharedService } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { compileForTest, solcPackageFor } from '../helpers/solc.js';
import { sourcifyGet, verifyAndWait } from './helpers.js';

/*
 * The storage layouts of a verified contract, served by Sourcify's v2 lookup as solc produces
 * them: an upgradeable contract in OpenZeppelin's style (a gap, packed variables, a namespaced
 * struct, a transient variable), a contract that moves its storage (`layout at`), and old
 * compilers, which give none and are answered null.
 */

const ACCOUNT = deployerAccount('sourcify/storageLayout');
const { apiUrl, baseUrl, apiKey } = sharedService();
const CHAIN_ID = inject('chainId');

/** A contract of its own per test (its edition): no test's contract is a copy of another's. */
const edition = (n: number) => Date.now() * 10 + n;

function upgradeableSources(n: number): Record<string, string> {
  return {
    'contracts/proxy/Initializable.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

abstract contract Initializable {
    /// @custom:storage-location erc7201:openzeppelin.storage.Initializable
    struct InitializableStorage {
        uint64 _initialized;
        bool _initializing;
    }

    // keccak256(abi.encode(uint256(keccak256("openzeppelin.storage.Initializable")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant INITIALIZABLE_STORAGE = 0xf0c57e16840df040f15088dc2f81fe391c3923bec73e23a9662efc9c229c6a00;

    error InvalidInitialization();

    modifier initializer() {
        InitializableStorage storage $ = _getInitializableStorage();
        if ($._initialized != 0) revert InvalidInitialization();
        $._initialized = 1;
        $._initializing = true;
        _;
        $._initializing = false;
    }

    function _getInitializableStorage() private pure returns (InitializableStorage storage $) {
        assembly {
            $.slot := INITIALIZABLE_STORAGE
        }
    }
}
`,
    'contracts/access/OwnableUpgradeable.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Initializable} from "../proxy/Initializable.sol";

abstract contract OwnableUpgradeable is Initializable {
    address private _owner;
    bool private _paused;
    uint256[49] private __gap;

    function __Ownable_init(address owner_) internal {
        _owner = owner_;
    }

    function owner() public view returns (address) {
        return _owner;
    }
}
`,
    'contracts/Treasury.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OwnableUpgradeable} from "./access/OwnableUpgradeable.sol";

contract TreasuryV1 is OwnableUpgradeable {
    uint256 public constant EDITION = ${n};

    struct Position {
        uint128 amount;
        uint64 openedAt;
        bool closed;
        address[] signers;
    }

    enum Phase { Open, Locked, Closed }

    mapping(address => uint256) public balances;
    mapping(address => mapping(uint256 => Position)) internal positions;
    Position[] internal history;
    Phase public phase;
    uint16 public feeBps;
    address public feeTo;
    bytes32 public root;
    string public name;
    bytes internal blob;
    uint256 transient private entered;

    function initialize(address owner_, string calldata name_) external initializer {
        __Ownable_init(owner_);
        name = name_;
    }

    function deposit() external payable {
        require(entered == 0, "reentered");
        entered = 1;
        balances[msg.sender] += msg.value;
        entered = 0;
    }
}
`,
  };
}

const TREASURY = 'contracts/Treasury.sol';

/** The layouts solc gives a contract of `input`, compiled again here with nothing asked but them. */
function solcLayouts(version: string, input: SolcInput, file: string, name: string): { storageLayout: unknown; transientStorageLayout: unknown } {
  const output = compileForTest(solcPackageFor(version), {
    ...input,
    settings: { ...input.settings, outputSelection: { [file]: { [name]: ['storageLayout', 'transientStorageLayout'] } } },
  });
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  const contract = (output.contracts?.[file]?.[name] ?? output.contracts?.['']?.[name]) as Record<string, unknown> | undefined;
  return { storageLayout: contract?.['storageLayout'] ?? null, transientStorageLayout: contract?.['transientStorageLayout'] ?? null };
}

async function deployAndVerify(built: Built, identifier: string): Promise<string> {
  const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
  const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, getAddress(address), {
    stdJsonInput: built.input,
    compilerVersion: built.compilerVersion.replace(/^v/, ''),
    contractIdentifier: identifier,
  });
  expect(submit.status, JSON.stringify(submit.body)).toBe(202);
  expect(job!.body.contract?.match, JSON.stringify(job!.body)).toBe('exact_match');
  return address.toLowerCase();
}

async function layoutJson(address: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/address/${address}/storage-layout.json`);
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
}

describe('storage layouts served as solc produces them', () => {
  it("an upgradeable contract's layouts: Sourcify's v2 lookup answers what solc gives for the same input", async () => {
    const input = standardInput(upgradeableSources(edition(1)), { optimizer: true, runs: 200 });
    const built = await build('0.8.28', input, TREASURY, 'TreasuryV1');
    const address = await deployAndVerify(built, `${TREASURY}:TreasuryV1`);
    const expected = solcLayouts('0.8.28', input, TREASURY, 'TreasuryV1');
    // What the test compares is a real layout: the gap, the packing, the transient variable.
    const labels = (expected.storageLayout as { storage: { label: string; slot: string; offset: number }[] }).storage;
    expect(labels.map((e) => e.label)).toEqual([
      '_owner',
      '_paused',
      '__gap',
      'balances',
      'positions',
      'history',
      'phase',
      'feeBps',
      'feeTo',
      'root',
      'name',
      'blob',
    ]);
    expect(labels.find((e) => e.label === '_paused')).toMatchObject({ slot: '0', offset: 20 });
    expect(labels.find((e) => e.label === 'balances')).toMatchObject({ slot: '50' });
    expect((expected.transientStorageLayout as { storage: { label: string }[] }).storage.map((e) => e.label)).toEqual(['entered']);

    const answer = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=storageLayout,transientStorageLayout`);
    expect(answer.status).toBe(200);
    expect(answer.body.storageLayout).toEqual(expected.storageLayout);
    expect(answer.body.transientStorageLayout).toEqual(expected.transientStorageLayout);
    // Everything asked for at once carries them too; one of them alone, only that one.
    const all = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=all`);
    expect(all.status).toBe(200);
    expect({ storageLayout: all.body.storageLayout, transientStorageLayout: all.body.transientStorageLayout }).toEqual(expected);
    const one = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=storageLayout`);
    expect(one.body.storageLayout).toEqual(expected.storageLayout);
    expect(one.body).not.toHaveProperty('transientStorageLayout');
    const omitted = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?omit=storageLayout`);
    expect(omitted.body).not.toHaveProperty('storageLayout');
    expect(omitted.body.transientStorageLayout).toEqual(expected.transientStorageLayout);

    // The contract page's JSON download: the same layouts, no note.
    const page = await layoutJson(address);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      address,
      contractName: 'TreasuryV1',
      fullyQualifiedName: `${TREASURY}:TreasuryV1`,
      compilerVersion: built.compilerVersion,
      ...expected,
    });
    // The contract page's Storage tab lists them, with their values (test/web/storageValues.test.ts).
    const html = await (await fetch(`${baseUrl}/address/${address}`)).text();
    expect(html).toContain('href="#storage"');
    expect(html).toContain(
      '<tr data-name="__gap"><td class="mono">1</td><td class="mono">0</td><td class="mono">uint256[49]</td><td class="mono depth-0">__gap</td>',
    );
    expect(html).toContain(
      '<td class="mono">mapping(address =&gt; uint256)</td><td class="mono depth-0">balances</td><td class="mono storage-value">mapping <form class="lookup"',
    );
    expect(html).toContain('data-namespace="openzeppelin.storage.Initializable"');
    expect(html).toContain('Transient storage layout');

    // A copy of the contract (verified on the way, as a similar match) serves the same layouts.
    const { address: copy } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const copied = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${copy}?fields=storageLayout,transientStorageLayout`);
    expect(copied.status).toBe(200);
    expect({ storageLayout: copied.body.storageLayout, transientStorageLayout: copied.body.transientStorageLayout }).toEqual(expected);
  });

  it('a contract that moves its storage (`layout at`, solc 0.8.29): the slots solc gives, from the base slot', async () => {
    const file = 'contracts/Moved.sol';
    const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.29;

contract Moved layout at 0x1234 {
    uint256 public constant EDITION = ${edition(2)};
    uint128 public a;
    uint128 public b;
    mapping(uint256 => address) public owners;

    function set(uint128 a_) external { a = a_; }
}
`;
    const input = standardInput({ [file]: source });
    const built = await build('0.8.29', input, file, 'Moved');
    const address = await deployAndVerify(built, `${file}:Moved`);
    const expected = solcLayouts('0.8.29', input, file, 'Moved');
    expect((expected.storageLayout as { storage: { slot: string }[] }).storage.map((e) => e.slot)).toEqual(['4660', '4660', '4661']);
    const answer = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=storageLayout,transientStorageLayout`);
    expect({ storageLayout: answer.body.storageLayout, transientStorageLayout: answer.body.transientStorageLayout }).toEqual(expected);
  });

  it('older compilers: solc 0.5.17 has no transient layout and 0.4.26 none at all, answered null with the reason on the page JSON', async () => {
    const old = `pragma solidity >=0.4.24 <0.6.0;

contract Registry {
    uint256 public constant EDITION = ${edition(3)};
    address public owner;
    mapping(bytes32 => address) public entries;

    constructor() public { owner = msg.sender; }

    function set(bytes32 key, address value) public { entries[key] = value; }
}
`;
    const file = 'Registry.sol';
    for (const version of ['0.5.17', '0.4.26'] as const) {
      const input = standardInput({ [file]: old });
      const built = await build(version, input, file, 'Registry');
      const { address: deployed } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
      const address = deployed.toLowerCase();
      // Through the Etherscan API: one record whichever door verified it.
      const { status } = await etherscanVerifyAndWait(apiUrl, apiKey, standardJsonFields(address, built, `${file}:Registry`));
      expect(status?.result, JSON.stringify(status)).toBe('Pass - Verified');
      const expected = solcLayouts(version, input, file, 'Registry');

      const answer = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=storageLayout,transientStorageLayout`);
      expect(answer.status).toBe(200);
      expect(answer.body.storageLayout).toEqual(expected.storageLayout);
      expect(answer.body.transientStorageLayout).toBeNull();
      expect((await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=all`)).status).toBe(200);

      const page = await layoutJson(address);
      expect(page.status).toBe(200);
      if (version === '0.5.17') {
        expect(expected.storageLayout).not.toBeNull();
        expect(page.body).toMatchObject({
          storageLayout: expected.storageLayout,
          transientStorageLayout: null,
          notes: { transientStorageLayout: 'not available: solc before 0.8.27' },
        });
      } else {
        expect(expected.storageLayout).toBeNull();
        expect(page.body).toMatchObject({
          storageLayout: null,
          transientStorageLayout: null,
          notes: { storageLayout: 'not available: solc before 0.5.13', transientStorageLayout: 'not available: solc before 0.8.27' },
        });
        expect(await (await fetch(`${baseUrl}/address/${address}`)).text()).toContain('No storage layout (not available: solc before 0.5.13).');
      }
    }
  });

  it('an address that is not verified has no layout JSON: 404', async () => {
    const missing = await layoutJson(`0x${'5a'.repeat(20)}`);
    expect(missing.status).toBe(404);
  });
});
