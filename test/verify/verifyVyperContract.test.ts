import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SolproofError } from '../../src/core/errors.js';
import type { Hex, VyperJsonSubmission, VyperSingleFileSubmission, VyperSubmission } from '../../src/core/types.js';
import { errorSentence, vyperDiagnosisSentences, vyperPartialText } from '../../src/texts/index.js';
import { diagnoseVyperFailure, type VyperVerificationResult, verifyVyperContract } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { type DeployedForVerify, deployForVerify } from '../helpers/chain.js';
import { rejection } from '../helpers/rejection.js';
import { CAPPED, compileVyperForTest, IGREETER_03, IGREETER_VYI, testVyperCompiler, vyperAvailable, vyperInput } from '../helpers/vyper.js';

const ACCOUNT = deployerAccount('verify/verifyVyperContract');
const ready = vyperAvailable();

/** A counter capped at a limit fixed at deployment: immutables, constructor arguments, a module and an interface file (0.4). */
const COUNTER_04 = `# pragma version >=0.4.0
# A counter capped at a limit fixed at deployment.
import capped
import IGreeter

OWNER: public(immutable(address))
LIMIT: public(immutable(uint256))
greeter: public(IGreeter)
count: public(uint256)

@deploy
def __init__(limit: uint256, greeter: address):
    OWNER = msg.sender
    LIMIT = limit
    self.greeter = IGreeter(greeter)

@external
def bump(by: uint256) -> uint256:
    self.count = capped.add_capped(self.count, by, LIMIT)
    return self.count

@external
@view
def hello() -> String[32]:
    return staticcall self.greeter.greet()
`;

/** The same counter for 0.3.x: the interface comes through the input's `interfaces`. */
const COUNTER_03 = `# @version ^0.3.7
# A counter capped at a limit fixed at deployment.
import IGreeter as IGreeter

OWNER: public(immutable(address))
LIMIT: public(immutable(uint256))
greeter: public(IGreeter)
count: public(uint256)

@external
def __init__(limit: uint256, greeter: address):
    OWNER = msg.sender
    LIMIT = limit
    self.greeter = IGreeter(greeter)

@external
def bump(by: uint256) -> uint256:
    self.count = min(self.count + by, LIMIT)
    return self.count

@external
@view
def hello() -> String[32]:
    return self.greeter.greet()
`;

/** No immutables, no constructor: compiles with every release from 0.2.5 on. */
const PLAIN = `# @version >=0.2.5
stored: public(uint256)

@external
def put(v: uint256):
    self.stored = v
`;

const GREETER = '0x00000000000000000000000000000000000000aa';
const ARGS = encodeAbiParameters(
  [
    { name: 'limit', type: 'uint256' },
    { name: 'greeter', type: 'address' },
  ],
  [1000n, GREETER],
).slice(2);

function json04(counter = COUNTER_04, settings = {}) {
  return vyperInput(
    { 'contracts/Counter.vy': counter, 'contracts/capped.vy': CAPPED, 'contracts/IGreeter.vyi': IGREETER_VYI },
    'contracts/Counter.vy',
    settings,
  );
}

function json03(counter = COUNTER_03) {
  return vyperInput({ 'Counter.vy': counter }, 'Counter.vy', {}, { 'IGreeter.vy': IGREETER_03 });
}

function jsonSubmission(deployed: DeployedForVerify, compilerVersion: string, input: ReturnType<typeof vyperInput>, contractName: string): VyperJsonSubmission {
  const { outputSelection: _o, ...settings } = input.settings;
  return {
    codeFormat: 'vyper-json',
    address: deployed.address,
    contractName,
    compilerVersion,
    constructorArguments: '',
    licenseType: 0,
    vyperJson: { ...input, settings },
  };
}

function singleFile(
  deployed: DeployedForVerify,
  compilerVersion: string,
  sourceCode: string,
  contractName: string,
  optimizationUsed = true,
): VyperSingleFileSubmission {
  return {
    codeFormat: 'vyper-single-file',
    address: deployed.address,
    contractName,
    compilerVersion,
    constructorArguments: '',
    licenseType: 0,
    sourceCode,
    optimizationUsed,
    evmVersion: '',
  };
}

async function verify(submission: VyperSubmission, deployed: DeployedForVerify, options: { runtimeOnly?: boolean } = {}): Promise<VyperVerificationResult> {
  return verifyVyperContract({
    compiler: testVyperCompiler(),
    submission,
    runtimeCode: deployed.runtimeCode,
    creation: options.runtimeOnly ? null : deployed.creation,
  });
}

async function deploy(version: string, input: ReturnType<typeof vyperInput>, path: string, args = ''): Promise<DeployedForVerify> {
  const { bytecode } = await compileVyperForTest(version, input, path);
  return deployForVerify(`${bytecode}${args}` as Hex, ACCOUNT);
}

describe.skipIf(!ready)('verifyVyperContract against anvil, with the real Vyper compilers', () => {
  let counter043: DeployedForVerify;
  beforeAll(async () => {
    counter043 = await deploy('0.4.3', json04(), 'contracts/Counter.vy', ARGS);
  });

  it('0.4.3: a module, an interface file, immutables and constructor arguments verify as a full match, proven by the integrity hash', async () => {
    const result = await verify(jsonSubmission(counter043, 'vyper:0.4.3', json04(), 'contracts/Counter.vy:Counter'), counter043);
    expect(result).toMatchObject({
      matchKind: 'full',
      runtimeMatch: 'full',
      creationMatch: 'full',
      compilerVersion: '0.4.3+commit.bff19ea2',
      contractName: 'Counter',
    });
    expect(result.auxdataEra).toBe('integrity');
    expect(result.integrity.proven).toBe(true);
    expect(result.integrity.compiled).toMatch(/^[0-9a-f]{64}$/);
    expect(result.integrity.onchain).toBe(result.integrity.compiled);
    expect(result.constructorArguments).toBe(ARGS);
    const runtimeLength = (result.compiledRuntimeCode.length - 2) / 2;
    expect(result.transformations.runtime).toEqual([{ type: 'insert', reason: 'immutable', offset: runtimeLength, id: '0' }]);
    // The immutables as the constructor wrote them: the owner (the deployer) and the limit.
    const immutables = result.transformationValues.runtime.immutables!['0']!;
    expect(immutables.length).toBe(2 + 64 * 2);
    expect(BigInt(`0x${immutables.slice(66)}`)).toBe(1000n);
    const creationLength = (result.compiledCreationCode.length - 2) / 2;
    expect(result.transformations.creation).toEqual([{ type: 'insert', reason: 'constructorArguments', offset: creationLength }]);
    expect(result.transformationValues.creation.constructorArguments).toBe(`0x${ARGS}`);
  });

  it('0.4.3: a changed comment changes only the integrity hash: a partial match whose auxdata is replaced', async () => {
    const edited = COUNTER_04.replace('# A counter capped', '# A counter, capped');
    const result = await verify(jsonSubmission(counter043, 'vyper:0.4.3', json04(edited), 'Counter'), counter043);
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
    expect(result.integrity.proven).toBe(false);
    expect(result.integrity.compiled).not.toBe(result.integrity.onchain);
    expect(result.transformations.creation.map((t) => `${t.type}:${t.reason}`)).toEqual(['replace:cborAuxdata', 'insert:constructorArguments']);
    const replaced = result.transformationValues.creation.cborAuxdata!['1']!;
    expect(replaced).toContain(result.integrity.onchain!);
    // The partial match says why: the sources differ from the deployed ones, and how to do better.
    expect(result.partialBecause).toBe('integrity_differs');
    expect(vyperPartialText(result.partialBecause!)).toMatch(
      /^A partial match: the code is the same, but the integrity hash .* Submit the exact sources for a full match\.$/,
    );
  });

  it('0.4.3: the code alone (no creation found) is a partial match: nothing proves the sources or the immutables', async () => {
    const result = await verify(jsonSubmission(counter043, 'vyper:0.4.3', json04(), 'Counter'), counter043, { runtimeOnly: true });
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: null, creationCompared: false });
    expect(Object.keys(result.unprovenImmutables)).toEqual(['0']);
  });

  it('0.4.3: constructor arguments that differ from the creation transaction are refused, with the deployed ones decoded', async () => {
    const submission = { ...jsonSubmission(counter043, 'vyper:0.4.3', json04(), 'Counter'), constructorArguments: ARGS.replace(/3e8/, '3e9') };
    const error = await rejection(verify(submission, counter043));
    expect(error).toMatchObject({ code: 'constructor_arguments_mismatch' });
    expect(JSON.stringify(error.details)).toContain('"value":"1000"');
  });

  it('a name no source has is refused, naming it', async () => {
    const error = await rejection(verify(jsonSubmission(counter043, 'vyper:0.4.3', json04(), 'Countr'), counter043));
    expect(error).toMatchObject({ code: 'contract_not_found_in_output', details: { problem: 'not_declared', contractName: 'Countr' } });
  });

  it('a compile error is a Vyper compilation error', async () => {
    const error = await rejection(
      verify(jsonSubmission(counter043, 'vyper:0.4.3', json04(COUNTER_04.replace('def bump', 'def bump(')), 'Counter'), counter043),
    );
    expect(error).toMatchObject({ code: 'compiler_error', details: { language: 'Vyper' } });
    expect(errorSentence(error)).toMatch(/^Vyper Compilation Error: /);
  });

  it('another Vyper release is no match', async () => {
    const error = await rejection(verify(jsonSubmission(counter043, 'vyper:0.4.1', json04(), 'Counter'), counter043));
    expect(error).toMatchObject({ code: 'no_match' });
  });

  it('a solc version for Vyper sources is refused, saying which compiler it names', async () => {
    const error = await rejection(verify(jsonSubmission(counter043, 'v0.8.26+commit.8a97fa7a', json04(), 'Counter'), counter043));
    expect(error).toMatchObject({ code: 'invalid_input', details: { problem: 'solc_version_for_vyper' } });
  });

  it('0.4.1: a single file verifies as a full match', async () => {
    const input = vyperInput({ 'Plain.vy': PLAIN }, 'Plain.vy', { optimize: 'gas' });
    const deployed = await deploy('0.4.1', input, 'Plain.vy');
    const result = await verify(singleFile(deployed, 'vyper:0.4.1', PLAIN, 'Plain'), deployed);
    expect(result).toMatchObject({ matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full', optimize: 'gas', sourcePath: 'Plain.vy' });
    expect(result.transformations).toEqual({ runtime: [], creation: [] });
  });

  it('0.4.1: the optimisation turned off for a contract built with it is no match', async () => {
    const input = vyperInput({ 'Plain.vy': PLAIN }, 'Plain.vy');
    const deployed = await deploy('0.4.1', input, 'Plain.vy');
    const error = await rejection(verify(singleFile(deployed, 'vyper:0.4.1', PLAIN, 'Plain', false), deployed));
    expect(error.code).toMatch(/^(no_match|runtime_mismatch)$/);
  });

  it('0.4.0: the same counter is a partial match at best: its auxdata carries no hash of the sources', async () => {
    const deployed = await deploy('0.4.0', json04(), 'contracts/Counter.vy', ARGS);
    const result = await verify(jsonSubmission(deployed, 'vyper:0.4.0', json04(), 'contracts/Counter.vy:Counter'), deployed);
    expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial', auxdataEra: 'array' });
    expect(result.transformations.runtime.map((t) => t.reason)).toEqual(['immutable']);
    expect(result.transformations.creation.map((t) => t.reason)).toEqual(['constructorArguments']);
    // A comment is not in the code: the same verdict.
    const edited = await verify(jsonSubmission(deployed, 'vyper:0.4.0', json04(COUNTER_04.replace('# A counter', '# The counter')), 'Counter'), deployed);
    expect(edited.matchKind).toBe('partial');
  });

  it('0.3.10: an interface of the input and immutables, the immutables sized by the init code', async () => {
    const deployed = await deploy('0.3.10', json03(), 'Counter.vy', ARGS);
    const result = await verify(jsonSubmission(deployed, 'v0.3.10+commit.91361694', json03(), 'Counter'), deployed);
    expect(result).toMatchObject({ matchKind: 'partial', creationMatch: 'partial', auxdataEra: 'array', constructorArguments: ARGS });
    expect(result.transformations.runtime).toEqual([{ type: 'insert', reason: 'immutable', offset: (result.compiledRuntimeCode.length - 2) / 2, id: '0' }]);
  });

  it('0.3.7: the runtime code ends with the version and its length, the immutables after it', async () => {
    const deployed = await deploy('0.3.7', json03(), 'Counter.vy', ARGS);
    const result = await verify(jsonSubmission(deployed, 'vyper:0.3.7', json03(), 'Counter'), deployed);
    expect(result).toMatchObject({ matchKind: 'partial', creationMatch: 'partial', auxdataEra: 'version_length' });
    expect(result.compiledRuntimeCode.endsWith('a165767970657283000307000b')).toBe(true);
    expect(result.transformations.runtime.map((t) => t.reason)).toEqual(['immutable']);
  });

  it('0.3.4 (the version alone) and 0.3.1 (no auxdata) match partially', async () => {
    for (const [version, era] of [
      ['0.3.4', 'version'],
      ['0.3.1', 'none'],
    ] as const) {
      const input = vyperInput({ 'Plain.vy': PLAIN }, 'Plain.vy');
      const deployed = await deploy(version, input, 'Plain.vy');
      const result = await verify(singleFile(deployed, `vyper:${version}`, PLAIN, 'Plain'), deployed);
      expect(result, version).toMatchObject({ matchKind: 'partial', creationMatch: 'partial', auxdataEra: era });
    }
  });
});

/** A greeting that copies memory (MCOPY from cancun): its code depends on the EVM version. */
const GREET = `# pragma version >=0.4.0
greeting: public(String[64])

@external
def greet(name: String[32]) -> String[64]:
    x: String[32] = name
    y: String[32] = x
    return concat("hi ", y)
`;

describe.skipIf(!ready)('diagnosing a Vyper failure: the change that makes it pass', () => {
  const diagnose = async (submission: VyperSubmission, deployed: DeployedForVerify) => {
    const failure = await rejection(verify(submission, deployed));
    const diagnosis = await diagnoseVyperFailure({
      compiler: testVyperCompiler(),
      submission,
      runtimeCode: deployed.runtimeCode,
      creation: deployed.creation,
      failure: failure as SolproofError,
      compilerAvailable: (long) =>
        testVyperCompiler()
          .resolve(long)
          .then(
            () => true,
            () => false,
          ),
      budget: { compiles: 12, ms: 300_000 },
    });
    return { failure, diagnosis, text: vyperDiagnosisSentences(diagnosis) };
  };

  it('the wrong version: the one the deployed auxdata names', async () => {
    const input = vyperInput({ 'Greet.vy': GREET }, 'Greet.vy');
    const deployed = await deploy('0.4.1', input, 'Greet.vy');
    const { diagnosis, text } = await diagnose(singleFile(deployed, 'vyper:0.4.3', GREET, 'Greet'), deployed);
    expect(diagnosis.facts).toMatchObject({ version: '0.4.1', era: 'integrity' });
    expect(diagnosis.fix).toEqual({ changes: [{ setting: 'compilerVersion', from: 'vyper:0.4.3', to: 'vyper:0.4.1' }], matchKind: 'full' });
    expect(text).toBe(
      'The deployed code was compiled with Vyper 0.4.1 (read from its auxdata); you asked for vyper:0.4.3. It matches (a full match) with compiler vyper:0.4.1 (you sent: vyper:0.4.3).',
    );
  });

  it('the wrong optimisation mode, and the wrong EVM version', async () => {
    const unoptimised = await deploy('0.4.3', vyperInput({ 'Greet.vy': GREET }, 'Greet.vy', { optimize: 'none' }), 'Greet.vy');
    const byMode = await diagnose(jsonSubmission(unoptimised, 'vyper:0.4.3', vyperInput({ 'Greet.vy': GREET }, 'Greet.vy'), 'Greet'), unoptimised);
    expect(byMode.diagnosis.fix).toEqual({ changes: [{ setting: 'optimize', from: '', to: 'none' }], matchKind: 'full' });
    expect(byMode.text).toBe('It matches (a full match) with optimisation "none" (you sent: the compiler default).');

    const shanghai = await deploy('0.4.3', vyperInput({ 'Greet.vy': GREET }, 'Greet.vy', { evmVersion: 'shanghai' }), 'Greet.vy');
    const byEvm = await diagnose(jsonSubmission(shanghai, 'vyper:0.4.3', vyperInput({ 'Greet.vy': GREET }, 'Greet.vy'), 'Greet'), shanghai);
    expect(byEvm.diagnosis.fix).toEqual({ changes: [{ setting: 'evmVersion', from: '', to: 'shanghai' }], matchKind: 'full' });
  });

  it('sources that are not those deployed: no setting found, said so', async () => {
    const deployed = await deploy('0.4.3', vyperInput({ 'Greet.vy': GREET }, 'Greet.vy'), 'Greet.vy');
    const other = GREET.replace('"hi "', '"hello "');
    const { diagnosis, text } = await diagnose(singleFile(deployed, 'vyper:0.4.3', other, 'Greet'), deployed);
    expect(diagnosis.fix).toBeNull();
    expect(text).toMatch(/^No setting tried made it match \(\d+ tried, \d+ compiles(, budget spent)?\)\.$/);
  });

  it('the wrong name: the contract of the sources that is deployed there', async () => {
    const input = vyperInput({ 'Greet.vy': GREET, 'Plain.vy': PLAIN.replace('>=0.2.5', '>=0.4.0') }, 'Greet.vy');
    const deployed = await deploy('0.4.3', input, 'Greet.vy');
    const { failure, diagnosis } = await diagnose(jsonSubmission(deployed, 'vyper:0.4.3', input, 'Plain.vy:Plain'), deployed);
    expect(failure.code).toBe('no_match');
    expect(diagnosis.fix).toEqual({ changes: [{ setting: 'contractName', from: 'Plain.vy:Plain', to: 'Greet.vy:Greet' }], matchKind: 'full' });
    const unnamed = await diagnose(jsonSubmission(deployed, 'vyper:0.4.3', input, 'Greeter'), deployed);
    expect(unnamed.failure.code).toBe('contract_not_found_in_output');
    expect(unnamed.diagnosis.fix).toEqual({ changes: [{ setting: 'contractName', from: 'Greeter', to: 'Greet.vy:Greet' }], matchKind: 'full' });
    expect(unnamed.text).toBe(
      'Greeter is not the contract deployed here; Greet.vy:Greet of your sources compiles to the deployed code. With that name it is a full match.',
    );
  });
});
