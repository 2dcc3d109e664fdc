import { encodeAbiParameters, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseVersionNumbers } from '../../src/core/compilerVersion.js';
import type { SingleFileSubmission } from '../../src/core/types.js';
import { tailAuxdata } from '../../src/verify/auxdata.js';
import { buildSolcInput } from '../../src/verify/buildSolcInput.js';
import { compiledContractOf } from '../../src/verify/compiledContract.js';
import { leanInput, provenOwnAuxdata } from '../../src/verify/leanCompile.js';
import { ipfsHashOfMetadata } from '../../src/verify/metadataHash.js';
import type { SolcContractOutput, SolcInput } from '../../src/verify/solcTypes.js';
import { type VerifyContractArgs, verifyContract } from '../../src/verify/verifyContract.js';
import { deployerAccount } from '../helpers/accounts.js';
import { type DeployedForVerify, deployForVerify } from '../helpers/chain.js';
import { rejection } from '../helpers/rejection.js';
import { compileForTest, inProcessCompiler, solcPackageFor } from '../helpers/solc.js';
import { submissionWith } from '../helpers/submissions.js';

// Deployer account on the shared anvil reserved for this file.
const ACCOUNT = deployerAccount('verify/leanCompile');
const V0_8_28 = 'v0.8.28+commit.7893614a';

/** A long constructor string is kept as data after the runtime: the creation code does not end with the auxdata. */
const STORE = `// SPDX-License-Identifier: MIT
pragma solidity >=0.6.0;

contract Store {
    string public label;
    uint256 public immutable limit;

    constructor(uint256 limit_) public {
        limit = limit_;
        label = "a label longer than thirty-two bytes, kept as data after the runtime code";
    }

    function set(string calldata l) external { label = l; }
}
`;

const FACTORY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Child {
    uint256 public n;
    constructor(uint256 n_) { n = n_; }
}

contract Factory {
    event Made(address child);
    function make(uint256 n) external returns (address c) {
        c = address(new Child(n));
        emit Made(c);
    }
}
`;

/** An auxdata look-alike (with an IPFS hash) planted by the sources in the runtime code. */
const planted = (hash: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Planted {
    function mark() external pure returns (bytes memory) {
        return hex"a2646970667358221220${hash}64736f6c634300081c0033";
    }
}
`;

function submission(overrides: Partial<SingleFileSubmission>): SingleFileSubmission {
  return submissionWith({ address: '0x0000000000000000000000000000000000000000', compilerVersion: V0_8_28, ...overrides });
}

function contractOutput(version: string, input: SolcInput, file: string, name: string): SolcContractOutput {
  const out = compileForTest(solcPackageFor(version), input);
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return out.contracts![file]![name]!;
}

/** A compiler that keeps the output selection of every compile, in order. */
function recordingCompiler(): VerifyContractArgs['compiler'] & { asked: string[][] } {
  const inner = inProcessCompiler();
  const asked: string[][] = [];
  return {
    asked,
    compile: (version, input) => {
      asked.push(Object.values(input.settings.outputSelection ?? {}).flatMap((byName) => Object.values(byName).flat()));
      return inner.compile(version, input);
    },
  };
}

type Deployed = DeployedForVerify;
const deploy = (initCode: Hex): Promise<Deployed> => deployForVerify(initCode, ACCOUNT);

describe('the IPFS hash of a metadata text, as solc writes it into the auxdata', () => {
  const versions = ['0.6.12', '0.7.6', '0.8.7', '0.8.18', '0.8.28', '0.8.29'];
  for (const version of versions) {
    it(`solc ${version}: sources by hash, and by literal content with non-ASCII text`, () => {
      for (const useLiteralContent of [false, true]) {
        const input: SolcInput = {
          language: 'Solidity',
          sources: { 'Store.sol': { content: `${STORE}// ünïcode ✓\n` } },
          settings: { metadata: { useLiteralContent }, outputSelection: { '*': { '*': ['metadata', 'evm.deployedBytecode.object'] } } },
        };
        const c = contractOutput(version, input, 'Store.sol', 'Store');
        expect(tailAuxdata(c.evm!.deployedBytecode!.object)?.decoded.ipfs).toBe(ipfsHashOfMetadata(c.metadata!));
      }
    });
  }

  it('is not computed for a text solc splits into several blocks', () => {
    expect(ipfsHashOfMetadata('x'.repeat(256 * 1024))).toMatch(/^1220[0-9a-f]{64}$/);
    expect(ipfsHashOfMetadata('x'.repeat(256 * 1024 + 1))).toBeNull();
  });
});

describe('compiling without the legacy assembly', () => {
  const built = buildSolcInput(submission({ sourceCode: STORE, contractName: 'Store' }));
  const version = parseVersionNumbers('0.8.28');

  it('proves and locates the one auxdata exactly as the legacy assembly does', () => {
    const lean = leanInput(version, built);
    expect(lean).not.toBeNull();
    expect(JSON.stringify(lean!.settings.outputSelection)).not.toContain('legacyAssembly');
    const full = compiledContractOf(contractOutput('0.8.28', built.input, built.sourcePath, 'Store'));
    const leanOutput = compiledContractOf(contractOutput('0.8.28', lean!, built.sourcePath, 'Store'));
    // The assembly is a report: the codes are the same without it.
    expect(leanOutput.runtime.code).toBe(full.runtime.code);
    expect(leanOutput.creation.code).toBe(full.creation.code);
    expect(leanOutput.runtime.auxdata.values).toBeNull();

    const proven = provenOwnAuxdata(leanOutput)!;
    expect(proven.runtime.auxdata.values).toEqual(full.runtime.auxdata.values);
    expect(proven.creation.auxdata.values).toEqual(full.creation.auxdata.values);
    const [value] = full.runtime.auxdata.values!;
    for (const part of ['runtime', 'creation'] as const) {
      const [position] = proven[part].auxdata.positions!;
      expect(proven[part].code.slice(position!.offset * 2, (position!.offset + position!.length) * 2)).toBe(value);
    }
    // The constructor's string follows the runtime: the creation code does not end with the auxdata.
    expect(proven.creation.code.endsWith(value!)).toBe(false);
  });

  it('keeps the assembly where the code cannot prove its auxdata alone', () => {
    const factory = buildSolcInput(submission({ sourceCode: FACTORY, contractName: 'Factory' }));
    expect(leanInput(version, factory)).toBeNull();
    const withSettings = (metadata: Record<string, unknown>) => ({ ...built, input: { ...built.input, settings: { ...built.input.settings, metadata } } });
    expect(leanInput(version, withSettings({ bytecodeHash: 'none' }))).toBeNull();
    expect(leanInput(version, withSettings({ bytecodeHash: 'bzzr1' }))).toBeNull();
    expect(leanInput(version, withSettings({ appendCBOR: false }))).toBeNull();
    expect(leanInput(version, withSettings({ bytecodeHash: 'ipfs' }))).not.toBeNull();
    expect(leanInput(parseVersionNumbers('0.5.17'), built)).toBeNull();
    expect(leanInput(null, built)).toBeNull();
  });

  it('proves nothing when the code holds another IPFS auxdata, or when the metadata is not the one hashed', () => {
    const p = buildSolcInput(submission({ sourceCode: planted('11'.repeat(32)), contractName: 'Planted' }));
    const lean = leanInput(version, p)!;
    expect(provenOwnAuxdata(compiledContractOf(contractOutput('0.8.28', lean, p.sourcePath, 'Planted')))).toBeNull();
    const store = compiledContractOf(contractOutput('0.8.28', leanInput(version, built)!, built.sourcePath, 'Store'));
    expect(provenOwnAuxdata({ ...store, metadata: `${store.metadata} ` })).toBeNull();
  });
});

describe('verifyContract compiles once without the assembly, and only then', () => {
  const limit = encodeAbiParameters([{ type: 'uint256' }], [7n]).slice(2);
  let store: Deployed;
  let factory: Deployed;
  let plantedX: Deployed;

  beforeAll(async () => {
    const deployedFrom = async (source: string, name: string, args = '') => {
      const b = buildSolcInput(submission({ sourceCode: source, contractName: name }));
      return deploy(`0x${contractOutput('0.8.28', b.input, b.sourcePath, name).evm!.bytecode!.object}${args}` as Hex);
    };
    store = await deployedFrom(STORE, 'Store', limit);
    factory = await deployedFrom(FACTORY, 'Factory');
    plantedX = await deployedFrom(planted('11'.repeat(32)), 'Planted');
  });

  it('a full and a partial match of a one-auxdata contract: one compile each, without the assembly', async () => {
    for (const [sourceCode, kind] of [
      [STORE, 'full'],
      [`${STORE}// edited\n`, 'partial'],
    ] as const) {
      const compiler = recordingCompiler();
      const result = await verifyContract({ compiler, submission: submission({ sourceCode, contractName: 'Store' }), ...store });
      expect(result).toMatchObject({ matchKind: kind, runtimeMatch: kind, creationMatch: kind, constructorArguments: limit });
      expect(compiler.asked).toHaveLength(1);
      expect(compiler.asked[0]).not.toContain('evm.legacyAssembly');
      // What the bytecode database keeps: the auxdata located, as the assembly would have.
      expect(result.compiled.runtime.auxdata.positions).toHaveLength(1);
      expect(result.compiled.creation.auxdata.positions).toHaveLength(1);
    }
  });

  it('a factory asks for the assembly, and its partial match locates both auxdata', async () => {
    const compiler = recordingCompiler();
    const result = await verifyContract({ compiler, submission: submission({ sourceCode: `${FACTORY}// edited\n`, contractName: 'Factory' }), ...factory });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(compiler.asked.every((outputs) => outputs.includes('evm.legacyAssembly'))).toBe(true);
    expect(result.compiled.runtime.auxdata.positions).toHaveLength(2);
  });

  it('a planted auxdata look-alike is code: other bytes there are no match, the same bytes a full one', async () => {
    const compiler = recordingCompiler();
    const same = await verifyContract({ compiler, submission: submission({ sourceCode: planted('11'.repeat(32)), contractName: 'Planted' }), ...plantedX });
    expect(same).toMatchObject({ matchKind: 'full' });
    // Compiled again with the assembly once the code showed a second IPFS mark.
    expect(compiler.asked.map((outputs) => outputs.includes('evm.legacyAssembly'))).toEqual([false, true]);
    const other = await rejection(
      verifyContract({ compiler: inProcessCompiler(), submission: submission({ sourceCode: planted('22'.repeat(32)), contractName: 'Planted' }), ...plantedX }),
    );
    expect(other).toMatchObject({ code: 'no_match' });
  });
});
