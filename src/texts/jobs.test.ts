import { describe, expect, it } from 'vitest';
import { SolproofError } from '../core/errors.js';
import { storedError } from '../core/jobResults.js';
import type { JobKind } from '../store/database.js';
import { decodeJobResult } from '../store/jobResult.js';
import { searchLimitText } from './diagnosis.js';
import { TEXT } from './etherscan.js';
import { buildStatusText, type JobView, proxyStatusText, receiptOutcomeText, verifyStatusText } from './jobs.js';

const ADDRESS = '0x00000000000000000000000000000000000000aa';
/** A job whose `result` is the document it stored, read back as the store reads it. */
const job = ({ result, ...over }: Partial<Omit<JobView, 'result'>> & { result?: unknown }): JobView => {
  const kind = (over.kind ?? 'source') as JobKind;
  return {
    kind,
    state: 'fail',
    address: ADDRESS,
    resultText: null,
    lastError: null,
    ...over,
    result: decodeJobResult(kind, result === undefined ? null : JSON.stringify(result)),
  };
};

describe('how a job reads', () => {
  it('words a failure from its code and facts, with the reason only for clients that read reasons', () => {
    const failed = job({ result: { code: 'contract_not_deployed', details: { address: ADDRESS } } });
    expect(verifyStatusText(failed, true)).toEqual({ ok: false, text: `Fail - Unable to verify. Unable to locate ContractCode at ${ADDRESS}` });
    expect(verifyStatusText(failed, false)).toEqual({ ok: false, text: 'Fail - Unable to verify' });
  });

  it("keeps Etherscan's reasons for the verdicts Etherscan names", () => {
    const mismatch = job({ result: { code: 'constructor_arguments_mismatch', details: { submitted: '01', onchain: '02' } } });
    expect(verifyStatusText(mismatch, true).text).toBe('Fail - Unable to verify. Please check if the correct constructor argument was entered.');
    const compileError = job({
      result: { code: 'compiler_error', details: { errors: [{ severity: 'error', message: 'x', formattedMessage: 'ParserError: Expected ";"\n' }] } },
    });
    expect(verifyStatusText(compileError, true).text).toBe('Fail - Unable to verify. Solidity Compilation Error: ParserError: Expected ";"');
  });

  it('answers a job finished before texts were worded at read time with the text it kept', () => {
    const old = job({
      resultText: 'Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.',
      result: { code: 'no_match', details: { message: 'older facts' } },
    });
    expect(verifyStatusText(old, true).text).toBe(
      'Fail - Unable to verify. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.',
    );
    expect(proxyStatusText(job({ kind: 'proxy', state: 'pass', resultText: 'found it' }))).toEqual({ ok: true, text: 'found it' });
  });

  it('answers the jobs of earlier releases with the texts they kept, whatever document they kept beside them', () => {
    const pass = { resultText: 'Pass - Verified', state: 'pass' };
    expect(verifyStatusText(job({ ...pass, result: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' } }), true)).toEqual({
      ok: true,
      text: 'Pass - Verified',
    });
    // A creation-only match of the first release, and its dry run.
    expect(verifyStatusText(job({ ...pass, result: { matchKind: 'partial', creationMatch: 'partial', runtimeMatch: null } }), true).text).toBe(
      'Pass - Verified',
    );
    expect(
      verifyStatusText(
        job({ state: 'pass', resultText: TEXT.passDryRun, result: { dryRun: true, matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' } }),
        false,
      ).text,
    ).toBe(TEXT.passDryRun);
    const unreadable = 'The stored request is not a source verification';
    expect(verifyStatusText(job({ resultText: unreadable, result: { error: unreadable } }), true).text).toBe(`Fail - Unable to verify. ${unreadable}`);
    expect(receiptOutcomeText(job({ resultText: unreadable, result: {} }))).toBe(unreadable);
    const compileError = 'Solidity Compilation Error: ParserError: Expected ";"';
    expect(buildStatusText(job({ kind: 'build', resultText: compileError, result: { errors: [{ severity: 'error', message: 'Expected ";"' }] } })).text).toBe(
      compileError,
    );
    expect(proxyStatusText(job({ kind: 'proxy', resultText: TEXT.proxyNotDetected, result: { reason: 'no_implementation', candidates: [] } }))).toEqual({
      ok: false,
      text: TEXT.proxyNotDetected,
    });
  });

  it("says a failure was not diagnosed because the key's daily diagnoses are used up, and when they reset", () => {
    const stored = {
      code: 'no_match',
      details: { compiledRuntimeLength: 10, onchainRuntimeLength: 12 },
      diagnosisSkipped: { code: 'diagnosis_quota_reached', details: { limit: 1, resetsAt: '2026-11-23T00:00:00.000Z' } },
    };
    const skipped = job({ result: stored });
    expect(verifyStatusText(skipped, true).text).toBe(
      'Fail - Unable to verify. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode. ' +
        "No diagnosis was run: this API key's daily limit of 1 diagnosis is used up; it resets at 2026-11-23T00:00:00Z.",
    );
    expect(verifyStatusText(skipped, false).text).toBe('Fail - Unable to verify');
    const many = { ...stored, diagnosisSkipped: { code: 'diagnosis_quota_reached', details: { limit: 20, resetsAt: '2026-11-23T00:00:00.000Z' } } };
    expect(receiptOutcomeText(job({ result: many }))).toMatch(
      / No diagnosis was run: this API key's daily limit of 20 diagnoses is used up; it resets at 2026-11-23T00:00:00Z\.$/,
    );
  });

  it('names the daily limit of dry runs, like the other daily limits', () => {
    const resetsAt = new Date('2026-11-23T00:00:00.000Z');
    expect(TEXT.dailyQuotaReached('dry_run', 2, resetsAt)).toBe('Daily limit of 2 dry runs reached for this API key; it resets at 2026-11-23T00:00:00Z');
    expect(TEXT.dailyQuotaReached('verify', 100, resetsAt)).toBe(
      'Daily limit of 100 source code verifications reached for this API key; it resets at 2026-11-23T00:00:00Z',
    );
  });

  it('says why a diagnosis stopped before trying every setting', () => {
    expect(searchLimitText({ budgetSpent: false, limitReached: null, compilesStopped: 0 })).toBeNull();
    expect(searchLimitText({ budgetSpent: true, limitReached: 'compiles', compilesStopped: 0 })).toBe('budget spent');
    // A diagnosis stored before the limits were told apart.
    expect(searchLimitText({ budgetSpent: true })).toBe('budget spent');
    expect(searchLimitText({ budgetSpent: true, limitReached: 'time', compilesStopped: 1 })).toBe('stopped at its time limit, 1 compile cut short');
  });

  it('tells a dry run from a published pass', () => {
    expect(verifyStatusText(job({ state: 'pass', result: { dryRun: true, matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' } }), false)).toEqual({
      ok: true,
      text: 'Pass - Verified (dry run: nothing was published)',
    });
    expect(verifyStatusText(job({ state: 'pass', result: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' } }), false)).toEqual({
      ok: true,
      text: 'Pass - Verified',
    });
  });

  it('words a job whose attempts ran out with the last error it was retried for', () => {
    const lastError = storedError(new SolproofError('chain_unavailable', { method: 'eth_getCode', reason: 'rpc', nodeMessage: 'boom' }, { retryable: true }));
    const exhausted = job({ lastError, result: { error: { code: 'attempts_exhausted', message: lastError } } });
    expect(verifyStatusText(exhausted, true).text).toBe(
      'Fail - Unable to verify. The verification could not be completed. The network node could not be used: it answered eth_getCode with an error. Try again later.',
    );
    expect(receiptOutcomeText(exhausted)).toBe(
      'The verification could not be completed. The network node could not be used: it answered eth_getCode with an error. Try again later.',
    );
  });

  it('words proxy results from the implementation found or the reason none was', () => {
    const found = job({
      kind: 'proxy',
      state: 'pass',
      result: { implementation: '0x00000000000000000000000000000000000000BB', pattern: 'eip1967', blockNumber: 3 },
    });
    expect(proxyStatusText(found)).toEqual({
      ok: true,
      text: `The proxy's (${ADDRESS}) implementation contract is found at 0x00000000000000000000000000000000000000bb and is successfully updated.`,
    });
    const differs = job({
      kind: 'proxy',
      result: { reason: 'expected_implementation_differs', expectedImplementation: '0x01', candidates: [{ implementation: '0x02' }] },
    });
    expect(proxyStatusText(differs).text).toBe('The implementation contract found at 0x02 differs from the expected implementation 0x01.');
    expect(proxyStatusText(job({ kind: 'proxy', result: { reason: 'no_implementation' } })).text).toBe(
      'A corresponding implementation contract was unfortunately not detected for the proxy address.',
    );
  });

  it('words build failures: the input, the compiler, or a build without code', () => {
    expect(buildStatusText(job({ kind: 'build', result: { code: 'no_contract_in_build', details: {} } })).text).toBe(
      'Fail - Unable to verify. the build holds no contract that compiles to code',
    );
    expect(buildStatusText(job({ kind: 'build', result: { code: 'compile_timeout', details: { timeoutMs: 1500 } } })).text).toBe(
      'Solidity Compilation Error: Compilation exceeded the time limit of 1.5 s',
    );
    expect(buildStatusText(job({ kind: 'build', state: 'pass', result: { contracts: [], verified: [] } }))).toEqual({ ok: true, text: 'Pass - Verified' });
  });
});
