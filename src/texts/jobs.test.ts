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
  it('words wrong constructor arguments once, decoded with the constructor types, and suggests leaving the field empty', () => {
    const onchain = `${'0'.repeat(62)}07`;
    const mismatch = job({
      result: {
        code: 'constructor_arguments_mismatch',
        details: { submitted: `${'0'.repeat(62)}08`, onchain, decoded: [{ type: 'uint256', name: 'start', value: '7' }] },
      },
    });
    const text = verifyStatusText(mismatch, true).text;
    expect(text).toBe(
      `Fail - Unable to verify. Please check if the correct constructor argument was entered. The creation transaction carries 0x${onchain} (uint256 start = 7); ` +
        `you sent 0x${'0'.repeat(62)}08. Or leave the constructor arguments empty: the service reads them from the creation transaction.`,
    );
    expect(text.split(onchain)).toHaveLength(2);
  });

  it('names the contract name it could not find, and the ones the sources define', () => {
    const missing = job({
      result: {
        code: 'contract_not_found_in_output',
        details: { problem: 'not_in_output', contractName: 'Countr', sourcePath: 'C.sol', available: ['Counter', 'Lib'] },
      },
    });
    expect(verifyStatusText(missing, true).text).toBe(
      'Fail - Unable to verify. Unable to locate ContractName Countr, did you specify the correct Contract Name? These sources define Counter, Lib.',
    );
  });

  it('names the contracts of a single file alone: its file name was made up from the contract name asked for', () => {
    const missing = job({
      result: {
        code: 'contract_not_found_in_output',
        details: { problem: 'not_in_output', contractName: 'Ledgr', sourcePath: 'Ledgr.sol', available: ['Ledgr.sol:Ledger'], singleFile: true },
      },
    });
    expect(verifyStatusText(missing, true).text).toBe(
      'Fail - Unable to verify. Unable to locate ContractName Ledgr, did you specify the correct Contract Name? These sources define Ledger.',
    );
  });

  it("ends a failure with its receipt page's URL for clients that read reasons, and keeps hardhat-verify 2's bare text", () => {
    const failed = job({ result: { code: 'contract_not_deployed', details: { address: ADDRESS } } });
    const url = 'http://127.0.0.1:8080/receipt/abc';
    expect(verifyStatusText(failed, true, url).text).toBe(`Fail - Unable to verify. Unable to locate ContractCode at ${ADDRESS}. Diagnosis: ${url}`);
    expect(verifyStatusText(failed, false, url).text).toBe('Fail - Unable to verify');
  });

  it('a partial match passes as `Pass - Verified` and says why in the message; the receipt says it too', () => {
    const partial = job({ state: 'pass', result: { matchKind: 'partial', creationMatch: 'partial', runtimeMatch: 'partial' } });
    const status = verifyStatusText(partial, true);
    expect(status.text).toBe('Pass - Verified');
    expect(status.message).toMatch(/^OK - Partial match: the code matches but the metadata hash does not/);
    expect(receiptOutcomeText(partial)).toMatch(/^Pass - Verified \(partial match: the code matches but the metadata hash does not/);
    const repaired = job({
      state: 'pass',
      result: {
        matchKind: 'partial',
        creationMatch: 'partial',
        runtimeMatch: 'partial',
        flatteningRepairs: [{ line: 9, text: '// SPDX-License-Identifier: MIT', why: 'second_spdx_line' }],
      },
    });
    expect(verifyStatusText(repaired, true).message).toContain(
      'the flattened file compiled only with these lines removed: line 9 (second SPDX licence line: // SPDX-License-Identifier: MIT)',
    );
    const full = job({ state: 'pass', result: { matchKind: 'full', creationMatch: 'full', runtimeMatch: 'full' } });
    expect(verifyStatusText(full, true)).toEqual({ ok: true, text: 'Pass - Verified' });
  });

  it('words a failure from its code and facts, with the reason only for clients that read reasons', () => {
    const failed = job({ result: { code: 'contract_not_deployed', details: { address: ADDRESS } } });
    expect(verifyStatusText(failed, true)).toEqual({ ok: false, text: `Fail - Unable to verify. Unable to locate ContractCode at ${ADDRESS}` });
    expect(verifyStatusText(failed, false)).toEqual({ ok: false, text: 'Fail - Unable to verify' });
  });

  it("keeps Etherscan's reasons for the verdicts Etherscan names", () => {
    const mismatch = job({ result: { code: 'constructor_arguments_mismatch', details: { submitted: '01', onchain: '02' } } });
    expect(verifyStatusText(mismatch, true).text).toBe(
      'Fail - Unable to verify. Please check if the correct constructor argument was entered. The creation transaction carries 0x02; you sent 0x01. ' +
        'Or leave the constructor arguments empty: the service reads them from the creation transaction.',
    );
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
