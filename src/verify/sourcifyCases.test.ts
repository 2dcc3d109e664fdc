import { describe, expect, it } from 'vitest';
import { rejection } from '../../test/helpers/rejection.js';
import { inProcessCompiler } from '../../test/helpers/solc.js';
import { BEYOND_SOURCIFY, expectedVerification, IN_SCOPE_CASES, loadSourcifyCase, matchKindOf, type SourcifyMatch } from '../../test/helpers/sourcifyCases.js';
import { standardJsonSubmission } from '../../test/helpers/submissions.js';
import { errorSentence } from '../texts/index.js';
import type { TransformationValues } from './transformations.js';
import { verifyContract } from './verifyContract.js';

const CASES = IN_SCOPE_CASES;
const kind = (m: SourcifyMatch) => matchKindOf(m) || null;

/** Sourcify writes empty value maps ({cborAuxdata: {}}) where nothing was recorded. */
function normalise(values: TransformationValues | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => typeof v === 'string' || Object.keys(v as object).length > 0));
}

describe('Sourcify verification cases', () => {
  const compiler = inProcessCompiler();

  it.each(CASES)("%s gives Sourcify's verdict (or proves more, see BEYOND_SOURCIFY)", async (name) => {
    const fixture = loadSourcifyCase(name);
    const submission = standardJsonSubmission(fixture.input.stdJsonInput, fixture.input.contractIdentifier, {
      address: '0x00000000000000000000000000000000000000aa',
      compilerVersion: `v${fixture.input.compilerVersion}`,
    });
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
    const expected = expectedVerification(name, fixture);
    expect({ runtime: result.runtimeMatch, creation: result.creationMatch }).toEqual({
      runtime: kind(expected.runtimeMatch),
      creation: kind(expected.creationMatch),
    });
    expect(result.matchKind).toBe(expected.runtimeMatch === 'exact_match' || expected.creationMatch === 'exact_match' ? 'full' : 'partial');
    expect(normalise(result.transformationValues.runtime)).toEqual(normalise(expected.runtimeValues));
    expect(normalise(result.transformationValues.creation)).toEqual(normalise(expected.creationValues));
    expect(result.transformations.runtime).toEqual(expected.runtimeTransformations ?? []);
    expect(result.transformations.creation).toEqual(expected.creationTransformations ?? []);
  });

  it('refuses the Yul case: only Solidity is verified (Yul can emit any bytes)', async () => {
    const fixture = loadSourcifyCase('yul');
    const submission = standardJsonSubmission(fixture.input.stdJsonInput, fixture.input.contractIdentifier, {
      compilerVersion: `v${fixture.input.compilerVersion}`,
    });
    const calls = compiler.calls;
    const error = await rejection(verifyContract({ compiler, submission, runtimeCode: fixture.onchain.deployedBytecode, creation: null }));
    expect(error.code).toBe('invalid_standard_json');
    expect(errorSentence(error)).toMatch(/^Only Solidity sources are verified here/);
    expect(compiler.calls).toBe(calls);
  });

  it('compiles once per case, a second time only to locate several auxdata for a partial match or to match a creation code without a metadata hash', () => {
    // partial_match_double_auxdata alone needs the edited-sources compile (which the cache
    // may already hold from another case's input); each case beyond Sourcify's verdict, one
    // compile with the deployed code's metadata settings.
    expect(compiler.calls).toBeGreaterThanOrEqual(CASES.length);
    expect(compiler.calls).toBeLessThanOrEqual(CASES.length + 1 + Object.keys(BEYOND_SOURCIFY).length);
  });
});
