import { expect, it } from 'vitest';
import { describeOnDialects, useTestStores } from '../../test/helpers/dialects.js';
import { sourceJob } from '../../test/helpers/jobs.js';
import { standardJsonSubmission, submissionWith } from '../../test/helpers/submissions.js';
import type { Address, Hex, SingleFileSubmission, SourceSubmission } from '../core/types.js';
import { compiledContractLayouts } from '../store/compilations.js';
import type { CopyTemplate } from '../store/copyTemplates.js';
import { claimNextJob, insertJob, LeaseLostError, leaseOf } from '../store/verificationJobs.js';
import { getVerifiedContract, listReplacedVerifications } from '../store/verifiedContracts.js';
import { publishedSourceCode } from '../useCases/index.js';
import type { CompiledContract, CopyMatch, VerificationResult } from '../verify/index.js';
import { recordVerification, type SeenDeployment } from './recordVerification.js';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;
const GENERATION = `0x${'ab'.repeat(32)}`;
const SOURCE = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.26;\ncontract Box { uint256 public value; }\n';
const CODE = '6080604052348015600e575f80fd5b50600436106026575f3560e01c';
const COMPILED: CompiledContract = {
  abi: [],
  metadata: '{"compiler":{"version":"0.8.26+commit.8a97fa7a"}}',
  creation: { code: `6080604052${CODE}`, linkReferences: {}, auxdata: { values: [] } },
  runtime: { code: CODE, linkReferences: {}, immutableReferences: {}, auxdata: { values: [] } },
};
const SETTINGS = { optimizer: { enabled: false, runs: 200 } };

/** A submission's verdict: a full match of Box compiled from `content`, changed by `over`. */
function verdictOf(content: string, over: Partial<VerificationResult> = {}): VerificationResult {
  return {
    matchKind: 'full',
    runtimeMatch: 'full',
    creationMatch: 'full',
    unprovenImmutables: {},
    creationCompared: true,
    contractName: 'Box',
    sourcePath: 'Box.sol',
    compilerVersion: '0.8.26+commit.8a97fa7a',
    compilerInput: { language: 'Solidity', sources: { 'Box.sol': { content } }, settings: { ...SETTINGS, outputSelection: { '*': { '*': ['abi'] } } } },
    abi: [],
    metadata: COMPILED.metadata,
    constructorArguments: '',
    libraries: { 'Box.sol:MathLib': addr(0xabc).toUpperCase().replace('0X', '0x') as Address },
    evmVersion: '',
    optimizationUsed: false,
    runs: 200,
    viaIR: false,
    swarmSource: '',
    compiledRuntimeCode: `0x${CODE}`,
    compiledCreationCode: `0x${COMPILED.creation.code}`,
    compiled: COMPILED,
    reusedCompilation: false,
    transformations: { runtime: [{ type: 'replace', reason: 'library', offset: 3, id: 'Box.sol:MathLib' }], creation: [] },
    transformationValues: { runtime: { libraries: { 'Box.sol:MathLib': addr(0xabc) } }, creation: {} },
    ...over,
  };
}

const deployment = (address: Address, runtimeCode: Hex = `0x${CODE}`): SeenDeployment => ({
  address,
  generation: GENERATION,
  runtimeCode,
  creation: { creationCode: `0x${COMPILED.creation.code}`, transactionHash: `0x${'cd'.repeat(32)}`, blockNumber: 7n, creator: addr(0xeee), byFactory: false },
});

const single = (address: Address, over: Partial<SingleFileSubmission> = {}): SourceSubmission =>
  submissionWith({ address, sourceCode: SOURCE, contractName: 'Box', compilerVersion: 'v0.8.26+commit.8a97fa7a', licenseType: 1, ...over });

describeOnDialects('recording a verification', (dialect) => {
  const stores = useTestStores(dialect);
  const count = async (table: 'compilations' | 'inputDocuments' | 'deployments' | 'verifiedContracts') =>
    Number(
      (
        await stores.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a job whose lease was lost writes nothing; the one that took it over writes the record', async () => {
    const address = addr(77);
    const job = await insertJob(stores.store.db, { request: sourceJob(address), now: 1_000 });
    const slow = await claimNextJob(stores.store.db, { owner: 'slow', leaseMs: 1_000, now: 1_000 });
    // The slow runner's lease lapsed and another runner took the job over.
    const fast = await claimNextJob(stores.other.db, { owner: 'fast', leaseMs: 1_000, now: 5_000 });
    expect(fast?.receipt).toBe(job.receipt);
    const before = await Promise.all((['compilations', 'inputDocuments', 'deployments', 'verifiedContracts'] as const).map(count));
    const from = { submission: single(address), result: verdictOf(SOURCE), receipt: job.receipt };
    await expect(recordVerification(stores.store.db, { deployment: deployment(address), from, lease: leaseOf(slow!) })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await Promise.all((['compilations', 'inputDocuments', 'deployments', 'verifiedContracts'] as const).map(count))).toEqual(before);
    expect(await getVerifiedContract(stores.store.db, address)).toBeNull();
    expect((await recordVerification(stores.other.db, { deployment: deployment(address), from, lease: leaseOf(fast!) })).outcome).toBe('inserted');
  });

  it("writes a submission's compilation, input, deployment and record, read back as served", async () => {
    const address = addr(1);
    const recorded = await recordVerification(stores.store.db, {
      deployment: deployment(address),
      from: { submission: single(address), result: verdictOf(SOURCE), receipt: 'r'.repeat(50) },
    });
    expect(recorded.outcome).toBe('inserted');
    const served = await getVerifiedContract(stores.other.db, address);
    expect(served).toMatchObject({
      compiledContractId: recorded.compiledContractId,
      sources: [{ path: 'Box.sol', content: SOURCE }],
      codeFormat: 'solidity-single-file',
      compilerVersion: 'v0.8.26+commit.8a97fa7a',
      // The source's own SPDX line, not the submitted None.
      licenseType: 3,
      libraries: [{ name: 'MathLib', address: addr(0xabc) }],
      transformations: {
        applied: { runtime: [{ type: 'replace', reason: 'library', offset: 3, id: 'Box.sol:MathLib' }], creation: [] },
        values: { runtime: { libraries: { 'Box.sol:MathLib': addr(0xabc) } }, creation: {} },
      },
      method: 'submitted',
      receipt: 'r'.repeat(50),
      deployment: { transactionHash: `0x${'cd'.repeat(32)}`, blockNumber: 7, creator: addr(0xeee), factory: null },
    });
  });

  it('stores a flattened file repaired to compile as compiled, standard JSON as parsed, and metadata settings from the code as the standard JSON that matched', async () => {
    const repaired = SOURCE.replace('pragma solidity ^0.8.26;', '');
    const flattened = addr(2);
    await recordVerification(stores.store.db, {
      deployment: deployment(flattened),
      from: {
        submission: single(flattened),
        result: verdictOf(repaired, { matchKind: 'partial', flatteningRepairs: [{ line: 2, text: 'pragma solidity ^0.8.26;', why: 'missing_import' }] }),
        receipt: 'a'.repeat(50),
      },
    });
    expect((await getVerifiedContract(stores.store.db, flattened))?.sources).toEqual([{ path: 'Box.sol', content: repaired }]);

    const input = { language: 'Solidity', sources: { 'Box.sol': { content: SOURCE } }, settings: SETTINGS };
    const json = addr(3);
    await recordVerification(stores.store.db, {
      deployment: deployment(json),
      from: { submission: standardJsonSubmission(input, 'Box.sol:Box', { address: json }), result: verdictOf(SOURCE), receipt: 'b'.repeat(50) },
    });
    expect(await getVerifiedContract(stores.store.db, json)).toMatchObject({
      codeFormat: 'solidity-standard-json-input',
      language: 'Solidity',
      sources: [{ path: 'Box.sol', content: SOURCE }],
      settings: SETTINGS,
    });
    expect(publishedSourceCode((await getVerifiedContract(stores.store.db, json))!)).toBe(JSON.stringify(input));

    const fromCode = addr(4);
    const changes = [{ setting: 'bytecodeHash', from: '', to: 'none' }];
    const compiledSettings = { ...SETTINGS, metadata: { bytecodeHash: 'none' as const } };
    await recordVerification(stores.store.db, {
      deployment: deployment(fromCode),
      from: {
        submission: single(fromCode),
        result: verdictOf(SOURCE, {
          metadataSettingsFromCode: changes as NonNullable<VerificationResult['metadataSettingsFromCode']>,
          compilerInput: {
            language: 'Solidity',
            sources: { 'Box.sol': { content: SOURCE } },
            settings: { ...compiledSettings, outputSelection: { '*': { '*': ['abi'] } } },
          },
        }),
        receipt: 'c'.repeat(50),
      },
    });
    const published = await getVerifiedContract(stores.store.db, fromCode);
    expect(published).toMatchObject({ codeFormat: 'solidity-standard-json-input' });
    expect(publishedSourceCode(published!)).toBe(
      JSON.stringify({ language: 'Solidity', sources: { 'Box.sol': { content: SOURCE } }, settings: compiledSettings }),
    );
  });

  it('replaces a record only by a strictly better verdict, or by one of the code the address holds now', async () => {
    const address = addr(5);
    const from = (result: VerificationResult, receipt: string) => ({ submission: single(address), result, receipt });
    const partial = verdictOf(SOURCE, { matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial' });
    expect((await recordVerification(stores.store.db, { deployment: deployment(address), from: from(partial, 'd'.repeat(50)) })).outcome).toBe('inserted');
    expect((await recordVerification(stores.store.db, { deployment: deployment(address), from: from(partial, 'e'.repeat(50)) })).outcome).toBe('not_better');
    expect((await recordVerification(stores.other.db, { deployment: deployment(address), from: from(verdictOf(SOURCE), 'f'.repeat(50)) })).outcome).toBe(
      'replaced',
    );

    // A copy, weaker than the full record, matched on the other code the address holds now.
    const { compiledContractId } = await recordVerification(stores.store.db, {
      deployment: deployment(address),
      from: from(verdictOf(SOURCE), 'g'.repeat(50)),
    });
    const compilationId = (
      await stores.store.db.selectFrom('compiledContracts').select('compilationId').where('id', '=', compiledContractId).executeTakeFirstOrThrow()
    ).compilationId;
    const inputDocumentId = (
      await stores.store.db.selectFrom('verifiedContracts').select('inputDocumentId').where('address', '=', address).executeTakeFirstOrThrow()
    ).inputDocumentId;
    const template: CopyTemplate = {
      inputDocumentId,
      codeFormat: 'solidity-single-file',
      compilerVersion: 'v0.8.26+commit.8a97fa7a',
      licenseType: null,
      contractName: 'Box',
      sourcePath: 'Box.sol',
      method: 'build',
      similarTo: null,
      receipt: 'h'.repeat(50),
    };
    const {
      compiledRuntimeCode: _r,
      compiledCreationCode: _c,
      ...match
    } = verdictOf(SOURCE, { matchKind: 'partial', runtimeMatch: 'partial', creationMatch: null, libraries: {} });
    const copy: CopyMatch = { ...match, libraries: {} };
    const otherCode = `0x${CODE}00` as Hex;
    const recorded = await recordVerification(stores.store.db, {
      deployment: deployment(address, otherCode),
      from: { compiledContractId, compilationId, match: copy, template },
    });
    expect(recorded.outcome).toBe('replaced');
    // The licence of a build's contract is read from its source.
    expect(await getVerifiedContract(stores.store.db, address)).toMatchObject({
      method: 'build',
      matchKind: 'partial',
      licenseType: 3,
      receipt: 'h'.repeat(50),
    });
    expect((await listReplacedVerifications(stores.store.db, address)).map((r) => r.reason).sort()).toEqual(['code_changed', 'replaced']);
  });

  it('writes nothing when the record cannot be written: one transaction', async () => {
    const before = await Promise.all([count('compilations'), count('inputDocuments'), count('deployments'), count('verifiedContracts')]);
    const address = addr(6);
    const other = 'contract Other {}\n';
    const bad = verdictOf(other, { matchKind: 'unknown' as VerificationResult['matchKind'] });
    await expect(
      recordVerification(stores.store.db, {
        deployment: deployment(address, '0x60016001'),
        from: { submission: single(address, { sourceCode: other }), result: bad, receipt: 'i'.repeat(50) },
      }),
    ).rejects.toThrow();
    expect(await Promise.all([count('compilations'), count('inputDocuments'), count('deployments'), count('verifiedContracts')])).toEqual(before);
    // The store is usable afterwards.
    expect(
      (
        await recordVerification(stores.store.db, {
          deployment: deployment(address),
          from: { submission: single(address), result: verdictOf(SOURCE), receipt: 'j'.repeat(50) },
        })
      ).outcome,
    ).toBe('inserted');
  });

  it("keeps solc's storage layouts with the compiled contract: a compile fills in a contract stored without them, a reuse never takes them away", async () => {
    const source = `${SOURCE}// layouts\n`;
    const layout = {
      storage: [{ astId: 3, contract: 'Box.sol:Box', label: 'value', offset: 0, slot: '0', type: 't_uint256' }],
      types: { t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' } },
    };
    const transient = { storage: [], types: null };
    // Stored before layouts were kept (or read back from the store: not read).
    const first = addr(40);
    const { compiledContractId } = await recordVerification(stores.store.db, {
      deployment: deployment(first),
      from: { submission: single(first, { sourceCode: source }), result: verdictOf(source), receipt: 'k'.repeat(50) },
    });
    expect(await compiledContractLayouts(stores.store.db, compiledContractId)).toEqual({ storageLayout: null, transientStorageLayout: null });
    // A compile of the same input gives them: kept.
    const compiled = { ...COMPILED, storageLayout: layout, transientStorageLayout: transient };
    const second = addr(41);
    await recordVerification(stores.store.db, {
      deployment: deployment(second),
      from: { submission: single(second, { sourceCode: source }), result: verdictOf(source, { compiled }), receipt: 'l'.repeat(50) },
    });
    expect(await compiledContractLayouts(stores.other.db, compiledContractId)).toEqual({ storageLayout: layout, transientStorageLayout: transient });
    // A reused compilation carries none: what is kept stays.
    const third = addr(42);
    await recordVerification(stores.store.db, {
      deployment: deployment(third),
      from: { submission: single(third, { sourceCode: source }), result: verdictOf(source, { reusedCompilation: true }), receipt: 'm'.repeat(50) },
    });
    expect(await compiledContractLayouts(stores.store.db, compiledContractId)).toEqual({ storageLayout: layout, transientStorageLayout: transient });
    expect(await compiledContractLayouts(stores.store.db, 'no such id')).toBeNull();
  });
});
