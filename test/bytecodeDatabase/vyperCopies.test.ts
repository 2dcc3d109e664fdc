/**
 * Vyper in the bytecode database: a verified Vyper contract is recorded (its compilation under
 * the language Vyper, served as submitted), its compilation is reused instead of compiled
 * again, and copies of it are recognised as similar matches, found through the fingerprint of
 * their runtime code alone (the immutables after it left out, as the init code sizes them).
 * A real SQLite store, the suite's anvil, the real compilers.
 */

import { pino } from 'pino';
import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ChainGeneration } from '../../src/bytecodeDatabase/chainGeneration.js';
import { storedCompilations } from '../../src/bytecodeDatabase/knownCompilations.js';
import { CopyRecogniser } from '../../src/bytecodeDatabase/recogniseCopies.js';
import { recordVerification } from '../../src/bytecodeDatabase/recordVerification.js';
import { createRpcChainReader } from '../../src/chain/rpcChainReader.js';
import type { Hex, VyperInput, VyperJsonSubmission } from '../../src/core/types.js';
import { runVyperVerification } from '../../src/jobs/runVyperVerification.js';
import { recordDeployment } from '../../src/store/deployments.js';
import { getVerifiedContract } from '../../src/store/verifiedContracts.js';
import { publishedSourceCode } from '../../src/useCases/index.js';
import { codeFingerprint, deployedCodeFingerprint, verifyVyperContract } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { type DeployedForVerify, deployForVerify } from '../helpers/chain.js';
import { useTestStores } from '../helpers/dialects.js';
import { compileVyperForTest, testVyperCompiler, vyperAvailable, vyperInput } from '../helpers/vyper.js';

const ACCOUNT = deployerAccount('bytecodeDatabase/vyperCopies');
const ready = vyperAvailable();

const VAULT = (tag: string, decorator = '@deploy') => `# pragma version >=0.3.10
# SPDX-License-Identifier: MIT
# A vault with an owner and a cap fixed at deployment (${tag}).
OWNER: public(immutable(address))
CAP: public(immutable(uint256))
total: public(uint256)

${decorator}
def __init__(cap: uint256):
    OWNER = msg.sender
    CAP = cap

@external
def put(amount: uint256):
    assert self.total + amount <= CAP, "over the cap"
    self.total += amount
`;

const args = (cap: bigint) => encodeAbiParameters([{ type: 'uint256' }], [cap]).slice(2);

function submission(deployed: DeployedForVerify, version: string, input: VyperInput): VyperJsonSubmission {
  const { outputSelection: _o, ...settings } = input.settings;
  return {
    codeFormat: 'vyper-json',
    address: deployed.address,
    contractName: 'Vault',
    compilerVersion: version,
    constructorArguments: '',
    licenseType: 0,
    vyperJson: { ...input, settings },
  };
}

describe.skipIf(!ready)('Vyper contracts in the bytecode database', () => {
  const stores = useTestStores('sqlite');
  const chain = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
  let generation: ChainGeneration;
  let recogniser: CopyRecogniser;

  beforeAll(() => {
    generation = new ChainGeneration(stores.store.db, chain);
    recogniser = new CopyRecogniser({ db: stores.store.db, chain, generation, logger: pino({ level: 'silent' }) });
  });

  async function verifyAndRecord(deployed: DeployedForVerify, version: string, input: VyperInput, receipt: string) {
    const sent = submission(deployed, version, input);
    const result = await verifyVyperContract({
      compiler: testVyperCompiler(),
      submission: sent,
      runtimeCode: deployed.runtimeCode,
      creation: deployed.creation,
      known: storedCompilations(stores.store.db),
    });
    const recorded = await recordVerification(stores.store.db, {
      deployment: { address: deployed.address, generation: await generation.current(), runtimeCode: deployed.runtimeCode, creation: deployed.creation },
      from: { vyper: sent, result, receipt },
    });
    return { result, recorded };
  }

  it('0.4.3: recorded as Vyper, reused instead of compiled, and a copy is a full similar match through the integrity hash', async () => {
    // The deployed code carries its immutables (owner, cap) after the runtime code; the two
    // deployments differ there and in their constructor arguments.
    const input = vyperInput({ 'Vault.vy': VAULT('0.4.3') }, 'Vault.vy');
    const { bytecode } = await compileVyperForTest('0.4.3', input, 'Vault.vy');
    const original = await deployForVerify(`${bytecode}${args(100n)}` as Hex, ACCOUNT);
    const copy = await deployForVerify(`${bytecode}${args(7n)}` as Hex, ACCOUNT);
    expect(copy.runtimeCode).not.toBe(original.runtimeCode);
    expect(codeFingerprint(copy.runtimeCode.slice(2))).not.toBe(codeFingerprint(original.runtimeCode.slice(2)));
    expect(deployedCodeFingerprint(copy.runtimeCode.slice(2), copy.creation.creationCode.slice(2))).toBe(
      deployedCodeFingerprint(original.runtimeCode.slice(2), original.creation.creationCode.slice(2)),
    );

    const { result, recorded } = await verifyAndRecord(original, 'vyper:0.4.3', input, 'vyper-original');
    expect(result).toMatchObject({ matchKind: 'full', reusedCompilation: false });
    expect(recorded.outcome).toBe('inserted');
    const stored = await getVerifiedContract(stores.store.db, original.address);
    expect(stored).toMatchObject({
      compilerVersion: 'vyper:0.4.3+commit.bff19ea2',
      codeFormat: 'vyper-json',
      language: 'Vyper',
      contractName: 'Vault',
      sourcePath: 'Vault.vy',
      matchKind: 'full',
      licenseType: 3,
      optimizationUsed: true,
      runs: 0,
      constructorArguments: args(100n),
    });
    expect(stored?.sources).toEqual([{ path: 'Vault.vy', content: VAULT('0.4.3') }]);
    expect(JSON.parse(publishedSourceCode(stored!))).toMatchObject({ language: 'Vyper', sources: { 'Vault.vy': { content: VAULT('0.4.3') } } });

    // The same input again: found compiled, not compiled.
    const compilesBefore = testVyperCompiler().stats().compiles;
    const again = await verifyVyperContract({
      compiler: testVyperCompiler(),
      submission: submission(copy, 'vyper:0.4.3', input),
      runtimeCode: copy.runtimeCode,
      creation: copy.creation,
      known: storedCompilations(stores.store.db),
    });
    expect(again).toMatchObject({ matchKind: 'full', reusedCompilation: true, constructorArguments: args(7n) });
    expect(testVyperCompiler().stats().compiles).toBe(compilesBefore);

    // The copy, with nothing submitted: a similar match, full (its init code is the original's,
    // integrity hash included), its own immutables and arguments.
    expect(await recogniser.recognise(copy.address, { runtimeCode: copy.runtimeCode, creation: copy.creation })).toBe('verified');
    const similar = await getVerifiedContract(stores.store.db, copy.address);
    expect(similar).toMatchObject({
      method: 'similar',
      similarTo: original.address,
      matchKind: 'full',
      codeFormat: 'vyper-json',
      compilerVersion: 'vyper:0.4.3+commit.bff19ea2',
    });
    expect(similar?.constructorArguments).toBe(args(7n));
  });

  it('0.3.10: a copy deployed before the original was verified is found once it is, as a partial similar match', async () => {
    const input = vyperInput({ 'Vault.vy': VAULT('0.3.10', '@external') }, 'Vault.vy');
    const { bytecode } = await compileVyperForTest('0.3.10', input, 'Vault.vy');
    const copy = await deployForVerify(`${bytecode}${args(5n)}` as Hex, ACCOUNT);
    // The chain follower records what it sees, with the fingerprint the init code makes possible.
    await recordDeployment(stores.store.db, {
      address: copy.address,
      generation: await generation.current(),
      transactionHash: copy.creation.transactionHash,
      blockNumber: 1,
      creator: null,
      factory: null,
      creationCodeHash: null,
      runtimeCodeHash: `0x${'00'.repeat(32)}`,
      runtimeFingerprint: deployedCodeFingerprint(copy.runtimeCode.slice(2), copy.creation.creationCode.slice(2)),
    });
    const original = await deployForVerify(`${bytecode}${args(9n)}` as Hex, ACCOUNT);
    const { result, recorded } = await verifyAndRecord(original, 'vyper:0.3.10', input, 'vyper-0.3.10');
    expect(result.matchKind).toBe('partial');
    const found = await recogniser.recogniseDeploymentsOf([recorded.compiledContractId]);
    expect(found).toEqual([copy.address]);
    expect(await getVerifiedContract(stores.store.db, copy.address)).toMatchObject({
      method: 'similar',
      matchKind: 'partial',
      creationMatch: 'partial',
      codeFormat: 'vyper-json',
    });
  });
});

describe.skipIf(!ready)('the Vyper verification job', () => {
  const stores = useTestStores('sqlite');
  const chain = createRpcChainReader({ rpcUrl: inject('rpcUrl') });
  const logger = pino({ level: 'silent' });
  const deps = () => ({
    store: stores.store,
    chain,
    compiler: testVyperCompiler(),
    generation: new ChainGeneration(stores.store.db, chain),
    logger,
    diagnosis: {
      compilerAvailable: (long: string) =>
        testVyperCompiler()
          .resolve(long)
          .then(
            () => true,
            () => false,
          ),
      budget: { compiles: 6, ms: 120_000 },
      dailyLimit: 0,
    },
  });

  it('passes and records a verdict, a dry run publishes nothing, and a failure comes with its diagnosis', async () => {
    const input = vyperInput({ 'Vault.vy': VAULT('job') }, 'Vault.vy');
    const { bytecode } = await compileVyperForTest('0.4.3', input, 'Vault.vy');
    const deployed = await deployForVerify(`${bytecode}${args(3n)}` as Hex, ACCOUNT);
    const edited = vyperInput({ 'Vault.vy': VAULT('job').replace('# A vault', '# The vault') }, 'Vault.vy');

    const dry = await runVyperVerification(deps(), {
      receipt: 'dry',
      attempts: 1,
      apiKeyId: null,
      submission: submission(deployed, 'vyper:0.4.3', edited),
      dryRun: true,
    });
    expect(dry).toEqual({
      state: 'pass',
      result: {
        outcome: 'source_pass',
        document: { matchKind: 'partial', creationMatch: 'partial', runtimeMatch: 'partial', partialBecause: 'integrity_differs', dryRun: true },
      },
    });
    expect(await getVerifiedContract(stores.store.db, deployed.address)).toBeNull();

    const partial = await runVyperVerification(deps(), {
      receipt: 'partial',
      attempts: 1,
      apiKeyId: null,
      submission: submission(deployed, 'vyper:0.4.3', edited),
    });
    expect(partial).toMatchObject({ state: 'pass', result: { document: { matchKind: 'partial', partialBecause: 'integrity_differs' } } });
    // The exact sources replace the partial record with a full one.
    const full = await runVyperVerification(deps(), { receipt: 'full', attempts: 1, apiKeyId: null, submission: submission(deployed, 'vyper:0.4.3', input) });
    expect(full).toEqual({
      state: 'pass',
      result: { outcome: 'source_pass', document: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full', replaced: true } },
    });
    expect(await getVerifiedContract(stores.store.db, deployed.address)).toMatchObject({ matchKind: 'full', receipt: 'full' });
    expect(
      await runVyperVerification(deps(), { receipt: 'again', attempts: 1, apiKeyId: null, submission: submission(deployed, 'vyper:0.4.3', input) }),
    ).toEqual({
      state: 'already_verified',
    });

    const other = await deployForVerify(`${bytecode}${args(4n)}` as Hex, ACCOUNT);
    const wrong = await runVyperVerification(deps(), { receipt: 'wrong', attempts: 1, apiKeyId: null, submission: submission(other, 'vyper:0.4.1', input) });
    expect(wrong).toMatchObject({
      state: 'fail',
      result: {
        outcome: 'failure',
        document: {
          code: 'no_match',
          reasonCode: 'wrong_compiler_version',
          diagnosis: { language: 'Vyper', fix: { changes: [{ setting: 'compilerVersion', from: 'vyper:0.4.1', to: 'vyper:0.4.3' }], matchKind: 'full' } },
        },
      },
    });
  });

  it('a node that cannot be reached puts the job back in the queue', async () => {
    const down = createRpcChainReader({ rpcUrl: 'http://127.0.0.1:9', retryCount: 0, timeoutMs: 2000 });
    const input = vyperInput({ 'Vault.vy': VAULT('down') }, 'Vault.vy');
    const outcome = await runVyperVerification(
      { ...deps(), chain: down },
      {
        receipt: 'down',
        attempts: 1,
        apiKeyId: null,
        submission: { ...submission({ address: `0x${'12'.repeat(20)}` } as DeployedForVerify, 'vyper:0.4.3', input) },
      },
    );
    expect(outcome).toMatchObject({ retry: true });
  });
});
