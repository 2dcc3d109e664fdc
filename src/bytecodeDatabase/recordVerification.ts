/**
 * The one writer of what a verification proved. A verdict goes into the bytecode database in
 * one order, in one write transaction: the compilation (once), the input document the contract
 * is served from (once), the deployment found at the address, and the verified contract
 * linking them, under the better-match rule. A whole build's compilation and input are
 * written here too; its contracts' verdicts are then recorded as copies of them.
 */

import type { Kysely } from 'kysely';
import { withV } from '../core/compilerVersion.js';
import { knownAddress } from '../core/hex.js';
import { keccakOfHex } from '../core/keccak.js';
import { licenseFromSource, publishedLicense, publishedVyperLicense } from '../core/licenseFromSource.js';
import type { Address, Hex, LibraryLink, SourceSubmission, VyperSubmission } from '../core/types.js';
import { saveBuild } from '../store/builds.js';
import { type CompiledUnit, type CompilerInput, compilationSources, saveCompilation } from '../store/compilations.js';
import type { CopyTemplate } from '../store/copyTemplates.js';
import type { Database } from '../store/database.js';
import { recordDeployment } from '../store/deployments.js';
import { type InputDocument, saveInputDocument } from '../store/inputDocuments.js';
import { storedTransformations } from '../store/matchFacts.js';
import { writeTransaction } from '../store/transactions.js';
import { assertLease, type JobLease } from '../store/verificationJobs.js';
import { type NewVerifiedContract, type SaveOutcome, writeVerifiedContract } from '../store/verifiedContracts.js';
import {
  type BuildFormat,
  type ContractCreation,
  type CopyMatch,
  deployedCodeFingerprint,
  isBetterVerdict,
  type SolcInput,
  type VerdictStrength,
  type VerificationResult,
  type VyperVerificationResult,
} from '../verify/index.js';

/** The libraries a code links, by the bare name Etherscan shows. */
function libraryLinks(libraries: Record<string, Address>): LibraryLink[] {
  return Object.entries(libraries).map(([name, address]) => ({
    name: name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name,
    address: knownAddress(address),
  }));
}

/** A deployment as the matcher saw it. */
export interface SeenDeployment {
  address: Address;
  generation: string;
  runtimeCode: Hex;
  creation: ContractCreation | null;
  /** The factory that created it, when known. */
  factory?: Address | null;
}

/** What a verdict was reached from: a submission that was compiled (or found compiled) and matched, or a copy of a stored compiled contract. */
export type VerifiedFrom =
  | {
      submission: SourceSubmission;
      /** How it matched, with the compilation it matched through. */
      result: VerificationResult;
      receipt: string;
    }
  | {
      /** A Vyper submission, compiled (or found compiled) and matched. */
      vyper: VyperSubmission;
      result: VyperVerificationResult;
      receipt: string;
    }
  | {
      /** The stored compiled contract it is a copy of, and that contract's compilation. */
      compiledContractId: string;
      compilationId: string;
      match: CopyMatch;
      /** The documents and names of the contract it copies. */
      template: CopyTemplate;
    };

export interface RecordVerificationArgs {
  deployment: SeenDeployment;
  from: VerifiedFrom;
  /** The job's lease, when a job writes it: nothing is written once the lease is lost (LeaseLostError). */
  lease?: JobLease | undefined;
}

/** What recording did, and the compiled contract the record links. */
export interface RecordedVerification {
  outcome: SaveOutcome;
  compiledContractId: string;
}

/**
 * Records a verified contract: a better verdict replaces a weaker record of the address, and so
 * does one of the code the address holds now over a record of code it no longer holds. The
 * compilation, the input document and the deployment are kept whatever the outcome (copies are
 * matched through the compilation).
 */
export async function recordVerification(db: Kysely<Database>, args: RecordVerificationArgs): Promise<RecordedVerification> {
  const { compiled, input, record, verdict } = await whatToRecord(db, args.from);
  return writeTransaction(db, async (trx) => {
    if (args.lease) await assertLease(trx, args.lease);
    const compiledContractId =
      'id' in compiled ? compiled.id : (await saveCompilation(trx, compiled.compilerVersion, compiled.input, [compiled.unit])).contractIds[0]!;
    const inputDocumentId = 'id' in input ? input.id : await saveInputDocument(trx, input);
    const deploymentId = await recordSeenDeployment(trx, args.deployment);
    const outcome = await writeVerifiedContract(
      trx,
      { ...record, address: args.deployment.address, compiledContractId, inputDocumentId, deploymentId },
      (stored) => isBetterVerdict({ ...verdict, compiledContractId }, stored),
    );
    return { outcome, compiledContractId };
  });
}

/** The parts of a record, and the documents it is made from (stored ones by id). */
interface RecordParts {
  compiled: { compilerVersion: string; input: CompilerInput; unit: CompiledUnit } | { id: string };
  input: InputDocument | { id: string };
  record: Omit<NewVerifiedContract, 'address' | 'compiledContractId' | 'inputDocumentId' | 'deploymentId'>;
  verdict: VerdictStrength;
}

/** What the matcher proved and read: the same for a submission and a copy. */
type Match = Pick<
  CopyMatch,
  | 'matchKind'
  | 'runtimeMatch'
  | 'creationMatch'
  | 'creationCompared'
  | 'constructorArguments'
  | 'libraries'
  | 'transformations'
  | 'transformationValues'
  | 'swarmSource'
>;

function matchFields(
  match: Match,
): Pick<
  NewVerifiedContract,
  'matchKind' | 'runtimeMatch' | 'creationMatch' | 'creationCompared' | 'constructorArguments' | 'libraries' | 'transformations' | 'swarmSource'
> {
  return {
    matchKind: match.matchKind,
    runtimeMatch: match.runtimeMatch,
    creationMatch: match.creationMatch,
    creationCompared: match.creationCompared,
    constructorArguments: match.constructorArguments,
    libraries: libraryLinks(match.libraries),
    transformations: storedTransformations(match),
    swarmSource: match.swarmSource,
  };
}

/** Reads what a record needs before the write transaction starts (a copy's licence may need its sources). */
async function whatToRecord(db: Kysely<Database>, from: VerifiedFrom): Promise<RecordParts> {
  if ('vyper' in from) return vyperRecordParts(from.vyper, from.result, from.receipt);
  if ('submission' in from) {
    const { submission, result } = from;
    const compiledSource = result.compilerInput.sources[result.sourcePath]?.content;
    // Compiled with metadata settings the submission did not have: served as the standard JSON
    // input that matched (a single file cannot carry them), so a reader can build the code again.
    const fromCode = result.metadataSettingsFromCode !== undefined;
    // Served as getsourcecode's SourceCode: for standard JSON the input as it was parsed,
    // so that duplicate keys cannot show a reader another source than the one compiled.
    const input: InputDocument = fromCode
      ? { kind: 'standard-json', input: compiledInput(result) }
      : submission.codeFormat === 'solidity-standard-json-input'
        ? { kind: 'standard-json', input: submission.standardJson as unknown as Record<string, unknown> }
        : // A flattened file repaired to compile is served as compiled (its dropped lines blank).
          { kind: 'single-file', content: result.flatteningRepairs ? (compiledSource ?? submission.sourceCode) : submission.sourceCode };
    const licenseSource = submission.codeFormat === 'solidity-single-file' ? submission.sourceCode : (compiledSource ?? '');
    return {
      compiled: {
        compilerVersion: result.compilerVersion,
        input: result.compilerInput,
        unit: { path: result.sourcePath, name: result.contractName, compiled: result.compiled },
      },
      input,
      record: {
        ...matchFields(result),
        contractName: result.contractName,
        sourcePath: result.sourcePath,
        compilerVersion: submission.compilerVersion,
        codeFormat: fromCode ? 'solidity-standard-json-input' : submission.codeFormat,
        licenseType: publishedLicense(licenseSource, submission.licenseType),
        method: 'submitted',
        similarTo: null,
        receipt: from.receipt,
      },
      verdict: { ...result, method: 'submitted' },
    };
  }
  const { template, match } = from;
  const licenseType =
    template.licenseType ?? licenseFromSource((await compilationSources(db, from.compilationId)).find((s) => s.path === template.sourcePath)?.content ?? '');
  return {
    compiled: { id: from.compiledContractId },
    input: { id: template.inputDocumentId },
    record: {
      ...matchFields(match),
      contractName: template.contractName,
      sourcePath: template.sourcePath,
      compilerVersion: template.compilerVersion,
      codeFormat: template.codeFormat,
      licenseType,
      method: template.method,
      similarTo: template.similarTo,
      receipt: template.receipt,
    },
    verdict: { ...match, method: template.method },
  };
}

/**
 * A Vyper verdict: its compilation under the compiler's long version (`0.4.3+commit.bff19ea2`,
 * the compilation's language telling it from solc's), served as submitted (the `vyper-json`
 * input, or the `.vy` file), its compiler as Etherscan names it with the commit kept
 * (`vyper:0.4.3+commit.bff19ea2`), its licence from the file's `# SPDX-License-Identifier:`.
 */
function vyperRecordParts(submission: VyperSubmission, result: VyperVerificationResult, receipt: string): RecordParts {
  const source = submission.codeFormat === 'vyper-single-file' ? submission.sourceCode : (result.compilerInput.sources[result.sourcePath]?.content ?? '');
  return {
    compiled: {
      compilerVersion: result.compilerVersion,
      input: result.compilerInput,
      unit: { path: result.sourcePath, name: result.contractName, compiled: result.compiled },
    },
    input:
      submission.codeFormat === 'vyper-json'
        ? { kind: 'standard-json', input: submission.vyperJson as unknown as Record<string, unknown> }
        : { kind: 'single-file', content: submission.sourceCode },
    record: {
      ...matchFields(result),
      contractName: result.contractName,
      sourcePath: result.sourcePath,
      compilerVersion: `vyper:${result.compilerVersion}`,
      codeFormat: submission.codeFormat,
      licenseType: publishedVyperLicense(source, submission.licenseType),
      method: 'submitted',
      similarTo: null,
      receipt,
    },
    verdict: { ...result, method: 'submitted' },
  };
}

/** The standard JSON input that was compiled, without the service's output selection. */
function compiledInput(result: VerificationResult): Record<string, unknown> {
  const { outputSelection: _outputSelection, ...settings } = result.compilerInput.settings;
  return { language: result.compilerInput.language, sources: result.compilerInput.sources, settings };
}

/** Records the deployment; returns its id. */
async function recordSeenDeployment(db: Kysely<Database>, seen: SeenDeployment): Promise<string> {
  return recordDeployment(db, {
    address: seen.address,
    generation: seen.generation,
    transactionHash: seen.creation?.transactionHash ?? null,
    blockNumber: seen.creation ? Number(seen.creation.blockNumber) : null,
    // `creator` is the transaction's sender; a factory's creation names the factory instead, so
    // it stays unknown here until a creation lookup reads the transaction.
    creator: seen.creation && !seen.creation.byFactory ? seen.creation.creator : null,
    factory: seen.factory ?? (seen.creation?.byFactory ? seen.creation.creator : null),
    creationCodeHash: seen.creation ? keccakOfHex(seen.creation.creationCode) : null,
    runtimeCodeHash: keccakOfHex(seen.runtimeCode),
    runtimeFingerprint: deployedCodeFingerprint(seen.runtimeCode.slice(2), seen.creation ? seen.creation.creationCode.slice(2) : null),
  });
}

/** A whole build as it was compiled. */
export interface CompiledBuild {
  receipt: string;
  /** Long version without `v`. */
  compilerVersion: string;
  /** The input that was compiled (with the service's output selection). */
  input: SolcInput;
  /** Its contracts that compile to code. */
  units: readonly CompiledUnit[];
  /** The standard JSON input as it was submitted, served as its contracts' SourceCode. */
  submitted: Record<string, unknown>;
  format: BuildFormat;
  /** The job's lease: nothing is written once it is lost (LeaseLostError). */
  lease?: JobLease | undefined;
}

/**
 * Records a whole build, in the same order and one write transaction: its compilation, its
 * input document, and the build that names them. Returns its contracts' ids, in order: the
 * deployments that are copies of them are recorded by recordVerification as they are found.
 */
export async function recordBuild(db: Kysely<Database>, build: CompiledBuild): Promise<string[]> {
  return writeTransaction(db, async (trx) => {
    if (build.lease) await assertLease(trx, build.lease);
    const { compilationId, contractIds } = await saveCompilation(trx, build.compilerVersion, build.input, build.units);
    const inputDocumentId = await saveInputDocument(trx, { kind: 'standard-json', input: build.submitted });
    await saveBuild(trx, { receipt: build.receipt, compilationId, inputDocumentId, compilerVersion: withV(build.compilerVersion), format: build.format });
    return contractIds;
  });
}
