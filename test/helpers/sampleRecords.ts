/**
 * Verified records made without verifying, for the tests and benchmarks that fill a store: built
 * from the types a verification writes, so what they store is what a verification stores.
 */
import type { Address, CodeFormat, Hex } from '../../src/core/types.js';
import { noTransformations, type StoredTransformations } from '../../src/store/matchFacts.js';
import type { NewVerifiedContract } from '../../src/store/verifiedContracts.js';

/** What a sample record is of: its documents, already stored, and what it names. */
export interface SampleRecordOf {
  address: Address;
  compiledContractId: string;
  inputDocumentId: string;
  contractName: string;
  sourcePath: string;
  /** Long form with `v`. */
  compilerVersion: string;
  codeFormat: CodeFormat;
  licenseType: number;
  /**
   * The constructor arguments the creation code carried (hex without 0x) after the compiled
   * creation code of `creationCodeBytes` bytes; none when absent.
   */
  constructorArguments?: { hex: string; creationCodeBytes: number };
}

/**
 * A full match, by submission, of the creation and the runtime code of `of`, with `overrides`
 * applied: its transformations are the constructor arguments appended to the creation code, as
 * the matcher records them, or none.
 */
export function sampleRecord(of: SampleRecordOf, overrides: Partial<NewVerifiedContract> = {}): NewVerifiedContract {
  const { constructorArguments, ...names } = of;
  return {
    ...names,
    deploymentId: null,
    constructorArguments: constructorArguments?.hex ?? '',
    libraries: [],
    matchKind: 'full',
    creationMatch: 'full',
    creationCompared: true,
    runtimeMatch: 'full',
    transformations: constructorArguments ? appendedArguments(constructorArguments.hex, constructorArguments.creationCodeBytes) : noTransformations(),
    swarmSource: '',
    method: 'submitted',
    similarTo: null,
    receipt: null,
    ...overrides,
  };
}

function appendedArguments(hex: string, offset: number): StoredTransformations {
  if (hex === '') return noTransformations();
  return {
    applied: { runtime: [], creation: [{ type: 'insert', reason: 'constructorArguments', offset }] },
    values: { runtime: {}, creation: { constructorArguments: `0x${hex}` as Hex } },
  };
}
