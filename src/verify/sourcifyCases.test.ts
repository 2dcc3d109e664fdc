import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inProcessCompiler } from '../../test/helpers/solc.js';
import type { Hex, SourceSubmission } from '../core/types.js';
import type { Transformation, TransformationValues } from './transformations.js';
import { verifyContract } from './verifyContract.js';

/** Sourcify's server verification cases: the 15 in scope (solc 0.8.18 to 0.8.28) and yul. */
const FIXTURES = '/work/shared/fixtures/sourcify-cases';
const CASES = [
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
  // Beyond the seed's scope, but the compiler is installed: Yul source.
  'yul',
];

interface SourcifyCase {
  onchain: { creationBytecode: Hex; deployedBytecode: Hex };
  input: { compilerVersion: string; contractIdentifier: string; stdJsonInput: unknown };
  verification: {
    creationMatch: 'exact_match' | 'match' | null;
    runtimeMatch: 'exact_match' | 'match' | null;
    creationValues: TransformationValues | null;
    runtimeValues: TransformationValues | null;
    creationTransformations: Transformation[] | null;
    runtimeTransformations: Transformation[] | null;
  };
}

const kind = (m: 'exact_match' | 'match' | null) => (m === 'exact_match' ? 'full' : m === 'match' ? 'partial' : null);

/** Sourcify writes empty value maps ({cborAuxdata: {}}) where nothing was recorded. */
function normalise(values: TransformationValues | null): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values ?? {}).filter(([, v]) => typeof v === 'string' || Object.keys(v as object).length > 0),
  );
}

describe('Sourcify verification cases', () => {
  const compiler = inProcessCompiler();

  it.each(CASES)('%s gives the same verdict as Sourcify', async (name) => {
    const fixture = JSON.parse(readFileSync(`${FIXTURES}/${name}.json`, 'utf8')) as SourcifyCase;
    const submission: SourceSubmission = {
      address: '0x00000000000000000000000000000000000000aa',
      codeFormat: 'solidity-standard-json-input',
      sourceCode: JSON.stringify(fixture.input.stdJsonInput),
      contractName: fixture.input.contractIdentifier,
      compilerVersion: `v${fixture.input.compilerVersion}`,
      optimizationUsed: false,
      runs: 200,
      constructorArguments: '',
      evmVersion: '',
      licenseType: 3,
      libraries: [],
      viaIR: false,
    };
    const result = await verifyContract({
      compiler,
      submission,
      runtimeCode: fixture.onchain.deployedBytecode,
      creation: {
        creationCode: fixture.onchain.creationBytecode,
        transactionHash: `0x${'11'.repeat(32)}`,
        blockNumber: 1n,
        creator: '0x00000000000000000000000000000000000000bb',
        byFactory: false,
      },
    });
    const expected = fixture.verification;
    expect({ runtime: result.runtimeMatch, creation: result.creationMatch }).toEqual({
      runtime: kind(expected.runtimeMatch),
      creation: kind(expected.creationMatch),
    });
    expect(result.matchKind).toBe(
      expected.runtimeMatch === 'exact_match' || expected.creationMatch === 'exact_match' ? 'full' : 'partial',
    );
    expect(normalise(result.transformationValues.runtime)).toEqual(normalise(expected.runtimeValues));
    expect(normalise(result.transformationValues.creation)).toEqual(normalise(expected.creationValues));
    expect(result.transformations.runtime).toEqual(expected.runtimeTransformations ?? []);
    expect(result.transformations.creation).toEqual(expected.creationTransformations ?? []);
  });

  it('compiles once per case, a second time only to locate several auxdata for a partial match', () => {
    // partial_match_double_auxdata alone needs the edited-sources compile (which the cache
    // may already hold from another case's input).
    expect(compiler.calls).toBeGreaterThanOrEqual(CASES.length);
    expect(compiler.calls).toBeLessThanOrEqual(CASES.length + 1);
  });
});
