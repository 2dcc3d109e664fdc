import { type Abi, encodeAbiParameters, keccak256, toBytes } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex, LibraryLink, SingleFileSubmission, SourceSubmission, StandardJsonSubmission } from '../../src/core/types.js';
import { errorSentence } from '../../src/texts/index.js';
import { CONTRACT_OUTPUTS } from '../../src/verify/buildSolcInput.js';
import type { ContractCreation } from '../../src/verify/ports.js';
import type { SolcInput } from '../../src/verify/solcTypes.js';
import { type VerificationResult, type VerifyContractArgs, verifyContract } from '../../src/verify/verifyContract.js';
import { deployerAccount } from '../helpers/accounts.js';
import { type DeployedForVerify, deployForVerify, devnetClients } from '../helpers/chain.js';
import { rejection } from '../helpers/rejection.js';
import { compileForTest, inProcessCompiler } from '../helpers/solc.js';
import { standardJsonSubmission, submissionWith } from '../helpers/submissions.js';

// Deployer account on the shared anvil reserved for this file (others use their own).
const ACCOUNT = deployerAccount('verify/verifyContract');

const V0_8_28 = 'v0.8.28+commit.7893614a';
const V0_5_17 = 'v0.5.17+commit.d19bba13';
const V0_4_26 = 'v0.4.26+commit.4563c3fc';
const V0_4_11 = 'v0.4.11+commit.68ef5810';

const STORE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A bounded store with an owner fixed at deployment.
contract Store {
    bytes32 public constant TAG = 0xff00000000000000000000000000000000000000000000000000000000000000;
    uint256 public constant MASK = 0x00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00;
    uint256 public immutable limit;
    address public immutable owner;
    uint256 private value;

    event Labelled(string label);

    constructor(uint256 limit_, string memory label) {
        limit = limit_;
        owner = msg.sender;
        emit Labelled(label);
    }

    function set(uint256 v) external {
        require(v <= limit, "too big");
        value = v;
    }

    function get() external view returns (uint256, bytes32, uint256) {
        return (value, TAG, MASK);
    }
}

abstract contract Base {
    function f() external virtual returns (uint256);
}

contract Tiny {
    function one() external pure returns (uint256) { return 1; }
}
`;

const MATH_LIB = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library MathLib {
    function twice(uint256 a) external pure returns (uint256) {
        return a * 2;
    }
}

contract UsesLib {
    function f(uint256 a) external pure returns (uint256) {
        return MathLib.twice(a);
    }
}
`;

const OLD_LIB_0_4 = `pragma solidity ^0.4.24;

library OldLib {
    function inc(uint a) public pure returns (uint) { return a + 1; }
}

contract OldUser {
    uint public x;
    function bump() public { x = OldLib.inc(x); }
}
`;

const LIB_0_5 = `pragma solidity ^0.5.0;

library FiveLib {
    function inc(uint a) public pure returns (uint) { return a + 1; }
}

contract FiveUser {
    uint public x;
    function bump() public { x = FiveLib.inc(x); }
}
`;

const SIMPLE_0_4_11 = `pragma solidity ^0.4.11;

contract Counter {
    uint public count;
    function inc() { count += 1; }
}
`;

const STORE_ARGS = [
  { type: 'uint256', name: 'limit_' },
  { type: 'string', name: 'label' },
] as const;

/** The artifacts a developer's toolchain would produce: standard JSON, compiled in-process. */
interface Artifact {
  abi: Abi;
  creation: Hex;
  runtime: Hex;
}

function toolchainInput(file: string, content: string, settings: Record<string, unknown> = {}): SolcInput {
  return {
    language: 'Solidity',
    sources: { [file]: { content } },
    settings: {
      optimizer: { enabled: false, runs: 200 },
      ...settings,
      outputSelection: { '*': { '*': ['abi', 'metadata', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
}

function artifact(solcPackage: string, input: SolcInput, file: string, name: string): Artifact {
  const out = compileForTest(solcPackage, input);
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts![file]![name]!;
  return {
    abi: c.abi as Abi,
    creation: `0x${c.evm!.bytecode!.object}`,
    runtime: `0x${c.evm!.deployedBytecode!.object}`,
  };
}

/** Replaces every link placeholder (any style) in a hex code with an address, as deploy scripts do. */
function link(code: Hex, address: Address): Hex {
  return code.replace(/__[^\n]{36}__/g, address.slice(2)) as Hex;
}

type Deployed = DeployedForVerify;
const deploy = (initCode: Hex): Promise<Deployed> => deployForVerify(initCode, ACCOUNT);

function singleFile(overrides: Partial<SingleFileSubmission>): SourceSubmission {
  return submissionWith({ address: '0x0000000000000000000000000000000000000000', compilerVersion: V0_8_28, ...overrides });
}

function standardJson(input: SolcInput, contractName: string, overrides: Partial<Omit<StandardJsonSubmission, 'codeFormat'>> = {}): SourceSubmission {
  return standardJsonSubmission(input, contractName, { address: '0x0000000000000000000000000000000000000000', compilerVersion: V0_8_28, ...overrides });
}

const compiler = inProcessCompiler();

function verify(args: Omit<VerifyContractArgs, 'compiler'>): Promise<VerificationResult> {
  return verifyContract({ compiler, ...args });
}

describe('verifyContract with solc 0.8.28 (immutables, constructor arguments)', () => {
  const storeArgs = encodeAbiParameters(STORE_ARGS, [1000n, 'hello store']).slice(2);
  let store: Artifact;
  let deployed: Deployed;
  const storeSubmission = (overrides: Partial<SingleFileSubmission> = {}) =>
    singleFile({ sourceCode: STORE, contractName: 'Store', optimizationUsed: true, runs: 200, ...overrides });

  beforeAll(async () => {
    store = artifact('solc', toolchainInput('Store.sol', STORE, { optimizer: { enabled: true, runs: 200 } }), 'Store.sol', 'Store');
    deployed = await deploy(`${store.creation}${storeArgs}`);
  });

  it('is a full match for the exact source, reading immutables and constructor arguments from the chain', async () => {
    const result = await verify({ submission: storeSubmission(), runtimeCode: deployed.runtimeCode, creation: deployed.creation });
    expect(result).toMatchObject({
      matchKind: 'full',
      runtimeMatch: 'full',
      creationMatch: 'full',
      contractName: 'Store',
      sourcePath: 'Store.sol',
      constructorArguments: storeArgs,
      optimizationUsed: true,
      runs: 200,
      evmVersion: '',
      viaIR: false,
      libraries: {},
    });
    expect(result.swarmSource).toMatch(/^ipfs:\/\/Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(result.abi).toEqual(store.abi);
    expect(JSON.parse(result.metadata).settings.optimizer).toEqual({ enabled: true, runs: 200 });
    const owner = devnetClients(ACCOUNT).account;
    expect(Object.values(result.transformationValues.runtime.immutables ?? {}).sort()).toEqual(
      [`0x${1000n.toString(16).padStart(64, '0')}`, `0x${owner.slice(2).padStart(64, '0')}`].sort(),
    );
    expect(result.transformationValues.creation.constructorArguments).toBe(`0x${storeArgs}`);
    expect(result.compilerInput.settings.optimizer).toEqual({ enabled: true, runs: 200 });
  });

  it('accepts the same constructor arguments when the user gives them (any case, with or without 0x)', async () => {
    const result = await verify({
      submission: storeSubmission({ constructorArguments: `0x${storeArgs.toUpperCase()}` }),
      runtimeCode: deployed.runtimeCode,
      creation: deployed.creation,
    });
    expect(result.creationMatch).toBe('full');
  });

  it('rejects other constructor arguments than the creation transaction carried', async () => {
    const other = encodeAbiParameters(STORE_ARGS, [1001n, 'hello store']).slice(2);
    const error = await rejection(
      verify({ submission: storeSubmission({ constructorArguments: other }), runtimeCode: deployed.runtimeCode, creation: deployed.creation }),
    );
    expect(error.code).toBe('constructor_arguments_mismatch');
  });

  it('is a partial match when only a comment differs', async () => {
    const edited = STORE.replace('A bounded store', 'A store, bounded,');
    const result = await verify({
      submission: storeSubmission({ sourceCode: edited }),
      runtimeCode: deployed.runtimeCode,
      creation: deployed.creation,
    });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(result.transformations.runtime.filter((t) => t.reason === 'cborAuxdata')).toHaveLength(1);
    // The deployed metadata hash, not the recompiled one, is what the address points to.
    expect(result.swarmSource).toMatch(/^ipfs:\/\//);
    const recompiledTail = result.compiledRuntimeCode.slice(-106);
    expect(deployed.runtimeCode.endsWith(recompiledTail)).toBe(false);
  });

  it('does not match with other optimizer runs', async () => {
    const error = await rejection(verify({ submission: storeSubmission({ runs: 1_000_000 }), runtimeCode: deployed.runtimeCode, creation: deployed.creation }));
    expect(error.code).toBe('no_match');
    expect(errorSentence(error)).toBe('Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.');
  });

  it('does not match with another EVM version', async () => {
    const error = await rejection(
      verify({ submission: storeSubmission({ evmVersion: 'paris' }), runtimeCode: deployed.runtimeCode, creation: deployed.creation }),
    );
    expect(error.code).toBe('no_match');
  });

  it('says when the contract name is not in the output', async () => {
    const error = await rejection(
      verify({ submission: storeSubmission({ contractName: 'Stor' }), runtimeCode: deployed.runtimeCode, creation: deployed.creation }),
    );
    expect(error.code).toBe('contract_not_found_in_output');
    // A single file's path is made up from the contract name, so the contracts are named alone.
    expect(error.details['available']).toEqual(expect.arrayContaining(['Store', 'Tiny']));
  });

  it('never matches an abstract contract (empty code is a prefix of everything)', async () => {
    const error = await rejection(
      verify({ submission: storeSubmission({ contractName: 'Base' }), runtimeCode: deployed.runtimeCode, creation: deployed.creation }),
    );
    expect(error.code).toBe('abstract_contract');
  });

  it('reports the first compiler error in Etherscan form', async () => {
    const broken = STORE.replace('value = v;', 'value = v');
    const error = await rejection(
      verify({ submission: storeSubmission({ sourceCode: broken }), runtimeCode: deployed.runtimeCode, creation: deployed.creation }),
    );
    expect(error.code).toBe('compiler_error');
    expect(errorSentence(error)).toMatch(/^Solidity Compilation Error: ParserError: Expected ';' but got '}'/);
  });

  it('verifies the runtime code alone when the creation is unknown; the submitted arguments stay unproven', async () => {
    const result = await verify({ submission: storeSubmission({ constructorArguments: storeArgs }), runtimeCode: deployed.runtimeCode, creation: null });
    // Store's immutables were copied from the chain and nothing proves them: partial, though the metadata matches.
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'full', creationMatch: null, creationCompared: false, constructorArguments: null });
    expect(Object.keys(result.unprovenImmutables).length).toBeGreaterThan(0);
    expect(result.transformations.creation).toEqual([]);
  });

  it('refuses the creation match when garbage follows the constructor arguments', async () => {
    const withGarbage = await deploy(`${store.creation}${storeArgs}deadbeef`);
    expect(withGarbage.runtimeCode.length).toBe(deployed.runtimeCode.length);
    const result = await verify({ submission: storeSubmission(), runtimeCode: withGarbage.runtimeCode, creation: withGarbage.creation });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'full', creationMatch: null, creationCompared: true, constructorArguments: null });
  });

  it('does not let a contract whose creation code is a prefix claim another contract', async () => {
    // Tiny's creation code followed by Store's whole init code, at Store's runtime code:
    // the "arguments" are Store's code, which Tiny (no constructor inputs) cannot take.
    const tiny = artifact('solc', toolchainInput('Tiny.sol', STORE), 'Tiny.sol', 'Tiny');
    const creation: ContractCreation = { ...deployed.creation, creationCode: `${tiny.creation}${deployed.creation.creationCode.slice(2)}` };
    const error = await rejection(verify({ submission: singleFile({ sourceCode: STORE, contractName: 'Tiny' }), runtimeCode: deployed.runtimeCode, creation }));
    expect(error.code).toBe('no_match');
  });

  it('says when there is no code at the address', async () => {
    const error = await rejection(verify({ submission: storeSubmission(), runtimeCode: '0x', creation: null }));
    expect(error.code).toBe('contract_not_deployed');
  });

  it('is a partial match for bytecodeHash none (no metadata hash to prove the sources)', async () => {
    const input = toolchainInput('Store.sol', STORE, { optimizer: { enabled: true, runs: 200 }, metadata: { bytecodeHash: 'none' } });
    const none = artifact('solc', input, 'Store.sol', 'Store');
    const d = await deploy(`${none.creation}${storeArgs}`);
    const result = await verify({ submission: standardJson(input, 'Store.sol:Store'), runtimeCode: d.runtimeCode, creation: d.creation });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial', swarmSource: '' });
  });
});

describe('verifyContract with libraries (solc 0.8.28)', () => {
  const input = toolchainInput('MathLib.sol', MATH_LIB);
  let lib: Deployed;
  let user: Deployed;

  beforeAll(async () => {
    lib = await deploy(artifact('solc', input, 'MathLib.sol', 'MathLib').creation);
    user = await deploy(link(artifact('solc', input, 'MathLib.sol', 'UsesLib').creation, lib.address));
  });

  it('matches a library fully, reading its call protection address from the chain', async () => {
    const result = await verify({
      submission: singleFile({ sourceCode: MATH_LIB, contractName: 'MathLib' }),
      runtimeCode: lib.runtimeCode,
      creation: lib.creation,
    });
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    expect(result.transformationValues.runtime.callProtection).toBe(lib.address);
    expect(result.transformations.runtime).toContainEqual({ type: 'replace', reason: 'callProtection', offset: 1 });
  });

  it('matches a manually linked contract fully and records the library address', async () => {
    const result = await verify({ submission: standardJson(input, 'MathLib.sol:UsesLib'), runtimeCode: user.runtimeCode, creation: user.creation });
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    expect(result.libraries).toEqual({ 'MathLib.sol:MathLib': lib.address });
    const placeholder = `__$${keccak256(toBytes('MathLib.sol:MathLib')).slice(2, 36)}$__`;
    expect(result.compiledRuntimeCode).toContain(placeholder);
  });

  it('accepts the library address given in the form (a single file is named by the service, so the metadata differs)', async () => {
    const libraries: LibraryLink[] = [{ name: 'MathLib', address: lib.address }];
    const result = await verify({
      submission: singleFile({ sourceCode: MATH_LIB, contractName: 'UsesLib', libraries }),
      runtimeCode: user.runtimeCode,
      creation: user.creation,
    });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(result.libraries).toEqual({ 'UsesLib.sol:MathLib': lib.address });
  });

  it('compiles the input as it was built, linked at deployment, when the form also names the libraries: a full match', async () => {
    const libraries: LibraryLink[] = [{ name: 'MathLib', address: lib.address }];
    const result = await verify({
      submission: standardJson(input, 'MathLib.sol:UsesLib', { libraries }),
      runtimeCode: user.runtimeCode,
      creation: user.creation,
    });
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    expect(result.compilerInput.settings.libraries).toBeUndefined();
    expect(result.libraries).toEqual({ 'MathLib.sol:MathLib': lib.address });
    // The same when a tool put them into settings.libraries of the input it sends.
    const withSettings = { ...input, settings: { ...input.settings, libraries: { 'MathLib.sol': { MathLib: lib.address } } } };
    const again = await verify({ submission: standardJson(withSettings, 'MathLib.sol:UsesLib'), runtimeCode: user.runtimeCode, creation: user.creation });
    expect(again).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    expect(again.libraries).toEqual({ 'MathLib.sol:MathLib': lib.address });
  });

  it('says which library is wrong when the form gives another address', async () => {
    const wrong: Address = '0x1111111111111111111111111111111111111111';
    for (const submission of [
      singleFile({ sourceCode: MATH_LIB, contractName: 'UsesLib', libraries: [{ name: 'MathLib', address: wrong }] }),
      standardJson(input, 'MathLib.sol:UsesLib', { libraries: [{ name: 'MathLib', address: wrong }] }),
    ]) {
      const error = await rejection(verify({ submission, runtimeCode: user.runtimeCode, creation: user.creation }));
      expect(error.code).toBe('library_mismatch');
      expect(error.details).toMatchObject({ onchain: lib.address, submitted: wrong });
    }
  });
});

describe('verifyContract with old compilers', () => {
  it('0.4.26: old-style library placeholders, bzzr0 auxdata', async () => {
    const input = toolchainInput('OldUser.sol', OLD_LIB_0_4);
    const lib = await deploy(artifact('solc-0.4.26', input, 'OldUser.sol', 'OldLib').creation);
    const userArtifact = artifact('solc-0.4.26', input, 'OldUser.sol', 'OldUser');
    expect(userArtifact.creation).toContain('__OldUser.sol:OldLib__');
    const user = await deploy(link(userArtifact.creation, lib.address));

    const result = await verify({
      submission: singleFile({ sourceCode: OLD_LIB_0_4, contractName: 'OldUser', compilerVersion: V0_4_26 }),
      runtimeCode: user.runtimeCode,
      creation: user.creation,
    });
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    expect(result.libraries).toEqual({ 'OldUser.sol:OldLib': lib.address });
    expect(result.swarmSource).toMatch(/^bzzr:\/\/[0-9a-f]{64}$/);

    const libResult = await verify({
      submission: singleFile({ sourceCode: OLD_LIB_0_4, contractName: 'OldLib', compilerVersion: V0_4_26 }),
      runtimeCode: lib.runtimeCode,
      creation: lib.creation,
    });
    // Deployed from OldUser.sol, submitted as OldLib.sol: the metadata differs, the code does not.
    expect(libResult).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(libResult.transformationValues.runtime.callProtection).toBe(lib.address);

    const edited = await verify({
      submission: singleFile({ sourceCode: `${OLD_LIB_0_4}// edited\n`, contractName: 'OldUser', compilerVersion: V0_4_26 }),
      runtimeCode: user.runtimeCode,
      creation: user.creation,
    });
    expect(edited).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
  });

  it('0.5.17: hashed library placeholders, bzzr1 auxdata', async () => {
    const input = toolchainInput('FiveUser.sol', LIB_0_5);
    const lib = await deploy(artifact('solc-0.5.17', input, 'FiveUser.sol', 'FiveLib').creation);
    const user = await deploy(link(artifact('solc-0.5.17', input, 'FiveUser.sol', 'FiveUser').creation, lib.address));
    const result = await verify({
      submission: standardJson(input, 'FiveUser.sol:FiveUser', { compilerVersion: V0_5_17 }),
      runtimeCode: user.runtimeCode,
      creation: user.creation,
    });
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    expect(result.libraries).toEqual({ 'FiveUser.sol:FiveLib': lib.address });
    expect(result.swarmSource).toMatch(/^bzzr:\/\/[0-9a-f]{64}$/);
  });

  it('0.4.11: auxdata found at the tail (its legacy assembly lists none)', async () => {
    const input = toolchainInput('Counter.sol', SIMPLE_0_4_11);
    const counter = await deploy(artifact('solc-0.4.11', input, 'Counter.sol', 'Counter').creation);
    const full = await verify({
      submission: singleFile({ sourceCode: SIMPLE_0_4_11, contractName: 'Counter', compilerVersion: V0_4_11 }),
      runtimeCode: counter.runtimeCode,
      creation: counter.creation,
    });
    expect(full).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' });
    const partial = await verify({
      submission: singleFile({ sourceCode: `// edited\n${SIMPLE_0_4_11}`, contractName: 'Counter', compilerVersion: V0_4_11 }),
      runtimeCode: counter.runtimeCode,
      creation: counter.creation,
    });
    expect(partial).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
  });
});

/** A compiler that keeps what it was asked for: the output selection of every compile, in order. */
function recordingCompiler(): VerifyContractArgs['compiler'] & { selections: unknown[] } {
  const inner = inProcessCompiler();
  const selections: unknown[] = [];
  return {
    selections,
    compile: (version, input) => {
      selections.push(input.settings.outputSelection);
      return inner.compile(version, input);
    },
  };
}

const FACTORY_0_5 = `pragma solidity ^0.5.0;

contract Sacrifice {
    constructor(address payable _recipient) public payable {
        selfdestruct(_recipient);
    }
}

library AddressUtils {
    function safeSendValue(address payable _receiver, uint256 _value) internal {
        if (!_receiver.send(_value)) {
            (new Sacrifice).value(_value)(_receiver);
        }
    }
}

contract Token {
    uint256 public supply;

    constructor(uint256 _supply) public {
        supply = _supply;
    }

    function claim(address payable _to) public {
        AddressUtils.safeSendValue(_to, address(this).balance);
    }
}

contract Maker {
    function make(address payable _to) public payable returns (address) {
        return address((new Sacrifice).value(msg.value)(_to));
    }
}
`;

describe('verifyContract with a contract created in a library function (solc 0.5.17 cannot compile the creator alone)', () => {
  const input = toolchainInput('Token.sol', FACTORY_0_5);
  const supply = encodeAbiParameters([{ type: 'uint256' }], [21n]).slice(2);
  let token: Deployed;

  beforeAll(async () => {
    token = await deploy(`${artifact('solc-0.5.17', input, 'Token.sol', 'Token').creation}${supply}`);
  });

  it('asks solc for every contract once it says the created contract was not compiled: a full match', async () => {
    const compiler = recordingCompiler();
    const result = await verifyContract({
      compiler,
      submission: singleFile({ sourceCode: FACTORY_0_5, contractName: 'Token', compilerVersion: V0_5_17 }),
      runtimeCode: token.runtimeCode,
      creation: token.creation,
    });
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full', constructorArguments: supply });
    expect(compiler.selections).toEqual([
      { 'Token.sol': { Token: CONTRACT_OUTPUTS } },
      { '*': { '*': ['evm.bytecode.object'] }, 'Token.sol': { Token: CONTRACT_OUTPUTS } },
    ]);
  });

  it('compiles the edited sources (to place two auxdata) with every contract at once: the failing compile is paid once', async () => {
    const compiler = recordingCompiler();
    const result = await verifyContract({
      compiler,
      submission: singleFile({ sourceCode: `${FACTORY_0_5}// edited\n`, contractName: 'Token', compilerVersion: V0_5_17 }),
      runtimeCode: token.runtimeCode,
      creation: token.creation,
    });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial', constructorArguments: supply });
    // solc reports two auxdata (the token's and the created contract's): their places come from the edited sources.
    expect(result.compiled.runtime.auxdata.values).toHaveLength(2);
    expect(compiler.selections).toHaveLength(3);
    expect(compiler.selections.slice(1)).toEqual([
      { '*': { '*': ['evm.bytecode.object'] }, 'Token.sol': { Token: CONTRACT_OUTPUTS } },
      { '*': { '*': ['evm.bytecode.object'] }, 'Token.sol': { Token: CONTRACT_OUTPUTS } },
    ]);
  });

  it('keeps the one-contract selection for a contract solc compiles alone (it creates the other itself)', async () => {
    const maker = await deploy(artifact('solc-0.5.17', toolchainInput('Maker.sol', FACTORY_0_5), 'Maker.sol', 'Maker').creation);
    const compiler = recordingCompiler();
    const result = await verifyContract({
      compiler,
      submission: singleFile({ sourceCode: FACTORY_0_5, contractName: 'Maker', compilerVersion: V0_5_17 }),
      runtimeCode: maker.runtimeCode,
      creation: maker.creation,
    });
    expect(result).toMatchObject({ matchKind: 'full', creationMatch: 'full' });
    expect(compiler.selections).toEqual([{ 'Maker.sol': { Maker: CONTRACT_OUTPUTS } }]);
  });
});

describe('verifyContract with a code deployed without a metadata hash, submitted with the default settings', () => {
  const storeArgs = encodeAbiParameters(STORE_ARGS, [500n, 'no hash']).slice(2);

  for (const [label, metadata, changes] of [
    ['bytecodeHash none', { bytecodeHash: 'none' }, [{ setting: 'bytecodeHash', from: 'ipfs', to: 'none' }]],
    [
      'appendCBOR false',
      { appendCBOR: false },
      [
        { setting: 'appendCBOR', from: 'true', to: 'false' },
        { setting: 'bytecodeHash', from: 'ipfs', to: 'none' },
      ],
    ],
  ] as const) {
    it(`${label}: one more compile, with the code's settings, matches the creation code and proves the arguments`, async () => {
      const built = artifact('solc', toolchainInput('Store.sol', STORE, { optimizer: { enabled: true, runs: 200 }, metadata }), 'Store.sol', 'Store');
      const d = await deploy(`${built.creation}${storeArgs}`);
      const compiler = recordingCompiler();
      const submission = singleFile({ sourceCode: STORE, contractName: 'Store', optimizationUsed: true, runs: 200 });
      const result = await verifyContract({ compiler, submission, runtimeCode: d.runtimeCode, creation: d.creation });
      expect(result).toMatchObject({
        matchKind: 'partial',
        runtimeMatch: 'partial',
        creationMatch: 'partial',
        constructorArguments: storeArgs,
        swarmSource: '',
      });
      expect(result.metadataSettingsFromCode).toEqual(changes);
      expect(result.compilerInput.settings).toMatchObject({ optimizer: { enabled: true, runs: 200 }, metadata });
      expect(result.compiledCreationCode).toBe(built.creation);
      expect(compiler.selections).toHaveLength(2);

      // Without a creation code to match there is nothing more to prove: no compile more.
      const runtimeOnly = recordingCompiler();
      const alone = await verifyContract({ compiler: runtimeOnly, submission, runtimeCode: d.runtimeCode, creation: null });
      expect(alone).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: null, constructorArguments: null });
      expect(alone.metadataSettingsFromCode).toBeUndefined();
      expect(runtimeOnly.selections).toHaveLength(1);
    });
  }

  it('a code with a metadata hash costs no compile more when only its runtime code matches', async () => {
    const built = artifact('solc', toolchainInput('Store.sol', STORE, { optimizer: { enabled: true, runs: 200 } }), 'Store.sol', 'Store');
    const d = await deploy(`${built.creation}${storeArgs}`);
    // Another init code leaves the same runtime code: the creation code cannot match.
    const creation = { ...d.creation, creationCode: `${built.creation}${storeArgs}00` as Hex };
    const compiler = recordingCompiler();
    const result = await verifyContract({
      compiler,
      submission: singleFile({ sourceCode: STORE, contractName: 'Store', optimizationUsed: true, runs: 200 }),
      runtimeCode: d.runtimeCode,
      creation,
    });
    // Its metadata matches; its immutables, unproven without the creation code, make it partial.
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'full', creationMatch: null });
    expect(compiler.selections).toHaveLength(1);
  });
});
