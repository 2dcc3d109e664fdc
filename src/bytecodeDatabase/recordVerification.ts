/**
 * Writes what a verification proved into the bytecode database: the compilation (once),
 * the submitted input (once), the deployment found at the address, and the verified
 * contract linking them, under the better-match rule.
 */
import type { Kysely } from 'kysely';
import { keccak256 } from 'viem';
import type { Address, CodeFormat, Hex, LibraryLink, VerificationMethod } from '../core/types.js';
import type { Database } from '../store/database.js';
import { recordDeployment } from '../store/deployments.js';
import { saveInputDocument, type InputDocument } from '../store/inputDocuments.js';
import { storedTransformations } from '../store/matchFacts.js';
import { saveVerifiedContract, type SaveOutcome } from '../store/verifiedContracts.js';
import { codeFingerprint, isBetterVerdict, type ContractCreation, type VerdictStrength } from '../verify/index.js';
import type { Transformation, TransformationValues } from '../verify/index.js';

/** The libraries a code links, by the bare name Etherscan shows. */
export function libraryLinks(libraries: Record<string, Address>): LibraryLink[] {
  return Object.entries(libraries).map(([name, address]) => ({
    name: name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name,
    address: address.toLowerCase() as Address,
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

/** Records the deployment; returns its id. */
export async function recordSeenDeployment(db: Kysely<Database>, seen: SeenDeployment): Promise<string> {
  return recordDeployment(db, {
    address: seen.address,
    generation: seen.generation,
    transactionHash: seen.creation?.transactionHash ?? null,
    blockNumber: seen.creation ? Number(seen.creation.blockNumber) : null,
    // `creator` is the transaction's sender; a factory's creation names the factory instead, so
    // it stays unknown here until a creation lookup reads the transaction.
    creator: seen.creation && !seen.creation.byFactory ? seen.creation.creator : null,
    factory: seen.factory ?? (seen.creation?.byFactory ? seen.creation.creator : null),
    creationCodeHash: seen.creation ? keccak256(seen.creation.creationCode) : null,
    runtimeCodeHash: keccak256(seen.runtimeCode),
    runtimeFingerprint: codeFingerprint(seen.runtimeCode.slice(2)),
  });
}

/** The verdict and what the matcher read for one address. */
export interface MatchedContract extends VerdictStrength {
  creationCompared: boolean;
  constructorArguments: string | null;
  libraries: LibraryLink[];
  transformations: { runtime: Transformation[]; creation: Transformation[] };
  transformationValues: { runtime: TransformationValues; creation: TransformationValues };
  swarmSource: string;
}

export interface RecordVerificationArgs {
  deployment: SeenDeployment;
  compiledContractId: string;
  /** The submitted input (stored once), or the id of one already stored (a copy shares its original's). */
  input: InputDocument | { id: string };
  contractName: string;
  sourcePath: string;
  /** Long form with `v`. */
  compilerVersion: string;
  codeFormat: CodeFormat;
  licenseType: number;
  match: MatchedContract;
  method: VerificationMethod;
  similarTo: Address | null;
  receipt: string | null;
}

/** Stores a verified contract (replacing a weaker record of the address). */
export async function recordVerification(db: Kysely<Database>, args: RecordVerificationArgs): Promise<SaveOutcome> {
  const inputDocumentId = 'id' in args.input ? args.input.id : await saveInputDocument(db, args.input);
  const deploymentId = await recordSeenDeployment(db, args.deployment);
  const { match } = args;
  const verdict: VerdictStrength = { ...match, method: args.method };
  return saveVerifiedContract(
    db,
    {
      address: args.deployment.address,
      compiledContractId: args.compiledContractId,
      inputDocumentId,
      deploymentId,
      contractName: args.contractName,
      sourcePath: args.sourcePath,
      compilerVersion: args.compilerVersion,
      codeFormat: args.codeFormat,
      constructorArguments: match.constructorArguments,
      libraries: match.libraries,
      licenseType: args.licenseType,
      matchKind: match.matchKind,
      creationMatch: match.creationMatch,
      creationCompared: match.creationCompared,
      runtimeMatch: match.runtimeMatch,
      transformations: storedTransformations(match),
      swarmSource: match.swarmSource,
      method: args.method,
      similarTo: args.similarTo,
      receipt: args.receipt,
    },
    (stored) => isBetterVerdict(verdict, stored),
  );
}
