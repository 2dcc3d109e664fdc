import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hex } from '../../src/core/types.js';
import type { Transformation, TransformationValues } from '../../src/verify/index.js';

/** Sourcify's own verification cases (its server's test data, kept in test/fixtures): an outside conformance suite for the verdicts. */
const SOURCIFY_CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'sourcify-cases');

export type SourcifyMatch = 'exact_match' | 'match' | null;

export interface SourcifyCase {
  onchain: { creationBytecode: Hex; deployedBytecode: Hex };
  input: { compilerVersion: string; contractIdentifier: string; stdJsonInput: unknown };
  verification: {
    creationMatch: SourcifyMatch;
    runtimeMatch: SourcifyMatch;
    creationValues: TransformationValues | null;
    runtimeValues: TransformationValues | null;
    creationTransformations: Transformation[] | null;
    runtimeTransformations: Transformation[] | null;
  };
  /** What Sourcify stored of the compiler's output (the parts the tests read). */
  output: { compilationArtifacts: { storageLayout: unknown; transientStorageLayout: unknown } };
}

/** The cases in the service's scope: solc 0.8.18 to 0.8.28, Solidity. */
export const IN_SCOPE_CASES = [
  'constructor_arguments',
  'full_match',
  'full_match_double_auxdata',
  'immutables',
  'libraries_linked_by_compiler',
  'libraries_manually_linked',
  'metadata_hash_absent',
  'multi_source_solidity',
  'onchain_append_cbor_false_compiled_bytecode_hash_none',
  'onchain_append_cbor_false_compiled_standard',
  'onchain_bytecode_hash_none_compiled_standard',
  'partial_match',
  'partial_match_2',
  'partial_match_double_auxdata',
  'transient_storage_layout',
] as const;

export function loadSourcifyCase(name: string): SourcifyCase {
  return JSON.parse(readFileSync(join(SOURCIFY_CASES_DIR, `${name}.json`), 'utf8')) as SourcifyCase;
}

/** Sourcify's word for a match in the service's words (`full`, `partial`, or '' for none). */
export function matchKindOf(match: SourcifyMatch): '' | 'full' | 'partial' {
  return match === 'exact_match' ? 'full' : match === 'match' ? 'partial' : '';
}

/**
 * Where the service proves more than Sourcify: a deployed code without a metadata hash shows the
 * metadata settings it was built with, and compiled with them its creation code matches too
 * (Sourcify matches the runtime code alone, its auxdata deleted or replaced). Nothing needs
 * transforming then; the served input carries the settings that matched.
 */
export const BEYOND_SOURCIFY: Readonly<Record<string, { metadata: Record<string, unknown> }>> = {
  onchain_append_cbor_false_compiled_bytecode_hash_none: { metadata: { bytecodeHash: 'none', appendCBOR: false } },
  onchain_append_cbor_false_compiled_standard: { metadata: { bytecodeHash: 'none', appendCBOR: false } },
  onchain_bytecode_hash_none_compiled_standard: { metadata: { bytecodeHash: 'none' } },
};

/** The verdict the service gives a case: Sourcify's, or more where BEYOND_SOURCIFY says. */
export function expectedVerification(name: string, fixture: SourcifyCase): SourcifyCase['verification'] {
  if (!BEYOND_SOURCIFY[name]) return fixture.verification;
  return {
    ...fixture.verification,
    creationMatch: 'match',
    creationValues: {},
    runtimeValues: {},
    creationTransformations: [],
    runtimeTransformations: [],
  };
}

/** The standard JSON input getsourcecode serves for a case: as submitted, or as compiled with the code's metadata settings. */
export function expectedServedInput(name: string, fixture: SourcifyCase): unknown {
  const beyond = BEYOND_SOURCIFY[name];
  if (!beyond) return fixture.input.stdJsonInput;
  const input = fixture.input.stdJsonInput as { language: string; sources: unknown; settings: Record<string, unknown> };
  const { outputSelection: _outputSelection, ...settings } = input.settings;
  return { language: input.language, sources: input.sources, settings: { ...settings, metadata: beyond.metadata } };
}
