/**
 * A Vyper verification job, as runVerification.ts runs a Solidity one: read the chain, compile
 * (or find the compilation known), match, diagnose a failure, record the verdict, and look for
 * earlier copies of the contract. What the job keeps is codes and facts; the texts are worded
 * when the receipt is read. A node that cannot be reached, or a compiler that could not be
 * downloaded, puts the job back in the queue; it never becomes a verdict.
 */
import type { ChainGeneration } from '../bytecodeDatabase/chainGeneration.js';
import { storedCompilations } from '../bytecodeDatabase/knownCompilations.js';
import type { CopyRecogniser } from '../bytecodeDatabase/recogniseCopies.js';
import { recordVerification } from '../bytecodeDatabase/recordVerification.js';
import { type ErrorCode, errorFacts, isSolproofError } from '../core/errors.js';
import { type FailureResult, type SourcePassResult, storedError } from '../core/jobResults.js';
import type { Logger } from '../core/log.js';
import { type Hex, isVyperSubmission, type VyperSubmission } from '../core/types.js';
import type { VyperReleaseLookup } from '../core/vyperVersion.js';
import type { Store } from '../store/openStore.js';
import { takeQuota } from '../store/quotas.js';
import { getStoredVerdict } from '../store/verifiedContracts.js';
import {
  type ChainReader,
  type ContractCreation,
  canBeImproved,
  type DiagnosisBudget,
  diagnoseVyperFailure,
  diagnosisReasonCode,
  type VyperCompiler,
  type VyperVerificationResult,
  verifyVyperContract,
} from '../verify/index.js';
import { type JobHandler, type JobOutcome, retryDelay } from './queue.js';
import type { WorkGate } from './workGate.js';

export interface VyperVerificationDeps {
  store: Store;
  chain: ChainReader;
  compiler: VyperCompiler;
  generation: ChainGeneration;
  /** Finds the copies of a newly verified contract among the deployments already seen. */
  recogniser?: CopyRecogniser;
  logger: Logger;
  /** How long to wait before trying again when the node or a compiler source is down (default 5 s). */
  retryDelayMs?: number;
  /** The Vyper releases and their commits (default: the shipped table). */
  releases?: VyperReleaseLookup;
  /** Diagnoses failures; without it a failure says only what failed. */
  diagnosis?: {
    compilerAvailable: (longVersion: string) => Promise<boolean>;
    budget: DiagnosisBudget;
    /** Diagnoses per API key per UTC day (0: no daily limit). */
    dailyLimit: number;
    /** Verifications hold it; a diagnosis runs when it is free. */
    gate?: WorkGate;
  };
}

/** A queued Vyper verification. */
export interface VyperJob {
  receipt: string;
  attempts: number;
  apiKeyId: string | null;
  submission: VyperSubmission;
  /** Verify and diagnose, publish nothing. */
  dryRun?: boolean;
}

/** Failures a search over settings can explain. */
const DIAGNOSABLE: ReadonlySet<ErrorCode> = new Set(['no_match', 'runtime_mismatch', 'contract_not_found_in_output']);

const failed = (document: FailureResult): JobOutcome => ({ state: 'fail', result: { outcome: 'failure', document } });
const passed = (document: SourcePassResult): JobOutcome => ({ state: 'pass', result: { outcome: 'source_pass', document } });

/** The handler of a queued Vyper source job (the source handler hands it Vyper submissions). */
export function createVyperVerificationHandler(deps: VyperVerificationDeps): JobHandler {
  return (job) => {
    const request = job.request;
    if (request?.kind !== 'source' || !isVyperSubmission(request.submission)) {
      return Promise.resolve(
        failed(job.requestError ?? { code: 'invalid_input', details: { problem: 'stored_request_unreadable', why: 'it is not a Vyper source verification' } }),
      );
    }
    return runVyperVerification(deps, {
      receipt: job.receipt,
      attempts: job.attempts,
      apiKeyId: job.apiKeyId,
      submission: request.submission,
      ...(request.dryRun ? { dryRun: true } : {}),
    });
  };
}

/** Runs one Vyper verification job. */
export async function runVyperVerification(deps: VyperVerificationDeps, job: VyperJob): Promise<JobOutcome> {
  const { submission } = job;
  const address = submission.address;
  const existing = job.dryRun ? null : await getStoredVerdict(deps.store.db, address);
  if (existing && !canBeImproved(existing)) return { state: 'already_verified' };
  let runtimeCode: Hex = '0x';
  let creation: ContractCreation | null = null;
  let result: VyperVerificationResult;
  try {
    [runtimeCode, creation] = await Promise.all([deps.chain.getCode(address), deps.chain.findCreation(address)]);
    if (runtimeCode === '0x') return failed({ code: 'contract_not_deployed', details: { address } });
    const verify = () =>
      verifyVyperContract({
        compiler: deps.compiler,
        submission,
        runtimeCode,
        creation,
        known: storedCompilations(deps.store.db),
        ...(deps.releases ? { releases: deps.releases } : {}),
      });
    result = deps.diagnosis?.gate ? await deps.diagnosis.gate.hold(verify) : await verify();
  } catch (error) {
    if (isSolproofError(error, 'compiler_crashed') && job.attempts >= 2) return failed(errorFacts(error));
    if (isSolproofError(error) && error.retryable) {
      deps.logger.warn({ receipt: job.receipt, code: error.code, details: error.details }, 'vyper verification will be retried');
      return { retry: true, delayMs: retryDelay(deps.retryDelayMs ?? 5000, job.attempts), error: storedError(error) };
    }
    if (!isSolproofError(error)) throw error;
    if (deps.diagnosis && DIAGNOSABLE.has(error.code) && runtimeCode !== '0x') {
      return diagnosed(deps, deps.diagnosis, job, runtimeCode, creation, error);
    }
    return failed(errorFacts(error));
  }
  const document: SourcePassResult = {
    matchKind: result.matchKind,
    creationMatch: result.creationMatch,
    runtimeMatch: result.runtimeMatch,
    ...(result.partialBecause ? { partialBecause: result.partialBecause } : {}),
    ...(result.reusedCompilation ? { reusedCompilation: true as const } : {}),
  };
  if (job.dryRun) return passed({ ...document, dryRun: true });
  const { outcome, compiledContractId } = await recordVerification(deps.store.db, {
    deployment: { address, generation: await deps.generation.current(), runtimeCode, creation },
    from: { vyper: submission, result, receipt: job.receipt },
  });
  if (!result.reusedCompilation && deps.recogniser) {
    const recogniser = deps.recogniser;
    void recogniser
      .recogniseDeploymentsOf([compiledContractId])
      .then((addresses) => {
        if (addresses.length > 0) deps.logger.info({ receipt: job.receipt, copies: addresses.length }, 'verified earlier copies of a newly verified contract');
      })
      .catch((error: unknown) => deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not look for earlier copies'));
  }
  if (outcome === 'not_better') return { state: 'already_verified' };
  return passed({ ...document, ...(outcome === 'replaced' ? { replaced: true as const } : {}) });
}

/** A failure with its diagnosis (counted against the key's daily diagnoses); a diagnosis that fails leaves the plain failure. */
async function diagnosed(
  deps: VyperVerificationDeps,
  diagnosis: NonNullable<VyperVerificationDeps['diagnosis']>,
  job: VyperJob,
  runtimeCode: Hex,
  creation: ContractCreation | null,
  error: Parameters<typeof errorFacts>[0],
): Promise<JobOutcome> {
  try {
    if (job.apiKeyId !== null) {
      const quota = await takeQuota(deps.store.db, { keyId: job.apiKeyId, kind: 'diagnosis', limit: diagnosis.dailyLimit });
      if (!quota.ok) {
        return failed({
          ...errorFacts(error),
          diagnosisSkipped: { code: 'diagnosis_quota_reached', details: { limit: diagnosis.dailyLimit, resetsAt: quota.resetsAt.toISOString() } },
        });
      }
    }
    const found = await diagnoseVyperFailure({
      compiler: deps.compiler,
      submission: job.submission,
      runtimeCode,
      creation,
      failure: error,
      compilerAvailable: diagnosis.compilerAvailable,
      budget: diagnosis.budget,
      ...(deps.releases ? { releases: deps.releases } : {}),
    });
    deps.logger.info(
      { receipt: job.receipt, code: error.code, fix: found.fix?.changes ?? null, compiles: found.compiles, ms: found.ms },
      'diagnosed a failed vyper verification',
    );
    return failed({ ...errorFacts(error), reasonCode: diagnosisReasonCode(found), diagnosis: found });
  } catch (failure) {
    deps.logger.warn(
      { receipt: job.receipt, err: failure instanceof Error ? failure.message : String(failure) },
      'could not diagnose a failed vyper verification',
    );
    return failed(errorFacts(error));
  }
}
