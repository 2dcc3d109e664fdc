import type { ChainGeneration } from '../bytecodeDatabase/chainGeneration.js';
import { storedCompilations } from '../bytecodeDatabase/knownCompilations.js';
import type { CopyRecogniser } from '../bytecodeDatabase/recogniseCopies.js';
import { recordVerification } from '../bytecodeDatabase/recordVerification.js';
import { type AnySolproofError, type ErrorCode, errorFacts, isSolproofError } from '../core/errors.js';
import { type FailureResult, type SourcePassResult, storedError } from '../core/jobResults.js';
import { spdxLicense } from '../core/licenseFromSource.js';
import type { Logger } from '../core/log.js';
import type { ServiceMetrics } from '../core/metrics.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import { type Hex, isVyperSubmission, type SourceSubmission } from '../core/types.js';
import type { Store } from '../store/openStore.js';
import { returnQuota, takeQuota } from '../store/quotas.js';
import { leaseOf, type VerificationJob } from '../store/verificationJobs.js';
import { getStoredVerdict } from '../store/verifiedContracts.js';
import {
  type ChainReader,
  type Compiler,
  type ContractCreation,
  canBeImproved,
  type DiagnosisBudget,
  diagnoseFailure,
  diagnosisReasonCode,
  type KnownCompilations,
  type VerificationResult,
  verifyContract,
} from '../verify/index.js';
import { type CompilesAhead, type EarlyCompiler, earlyCompiler, firstCompile, lookupsOnce, stoppedBy } from './earlyCompile.js';
import { type JobHandler, type JobHandlerContext, type JobOutcome, retryDelay } from './queue.js';
import type { WorkGate } from './workGate.js';

export interface VerificationDeps {
  store: Store;
  chain: ChainReader;
  compiler: Compiler;
  /** Which chain the node serves now (deployments are recorded per chain generation). */
  generation: ChainGeneration;
  /** Compiles started when this process queued a job: the job takes its own instead of starting it. */
  ahead?: CompilesAhead | undefined;
  /** Finds the copies of a newly verified contract among the deployments already seen. */
  recogniser?: CopyRecogniser;
  logger: Logger;
  /** How long to wait before trying again when the node is down (default 5 s). */
  retryDelayMs?: number;
  /** Diagnoses failures (what to change to pass); without it a failure says only what failed. */
  diagnosis?: DiagnosisDeps | undefined;
  /** Runs a Vyper submission's job (source jobs of both languages come here). */
  vyper?: JobHandler | undefined;
}

export interface DiagnosisDeps {
  releases: ReleaseLookup;
  /** Whether a compiler is cached here or quick to get. */
  compilerAvailable: (longVersion: string) => Promise<boolean>;
  budget: DiagnosisBudget;
  /** Diagnoses per API key per UTC day (0: no daily limit); past it a failure is answered undiagnosed, saying why. */
  dailyLimit: number;
  /** Verifications hold it; a diagnosis compiles only when it is free. */
  gate: WorkGate;
  /** Counts diagnoses by outcome. */
  metrics?: Pick<ServiceMetrics, 'diagnosis'>;
}

/** Failures a search over settings can explain. */
// Not a runtime mismatch: the creation code matched, no setting explains a constructor that returned other code.
/**
 * A diagnosis that ends within this many compiles does not count against the key's daily
 * diagnoses: constructor arguments and libraries are proven with one, a contract name or the
 * optimizer with two, the commonest runs with four. What counts is a long search (up to
 * --diagnosis-compiles, 24 by default, and --diagnosis-seconds).
 */
export const CHEAP_DIAGNOSIS_COMPILES = 4;

const DIAGNOSABLE: ReadonlySet<ErrorCode> = new Set(['no_match', 'constructor_arguments_mismatch', 'library_mismatch', 'contract_not_found_in_output']);

/** A failure as the job keeps it: the code and facts (worded when the receipt is read). */
const failed = (document: FailureResult): JobOutcome => ({ state: 'fail', result: { outcome: 'failure', document } });

const passed = (document: SourcePassResult): JobOutcome => ({ state: 'pass', result: { outcome: 'source_pass', document } });

/**
 * The verification job: reads the chain, compiles, matches, and stores the verdict.
 * A node that cannot be reached puts the job back in the queue; it never becomes a verdict.
 */
export function createVerificationHandler(deps: VerificationDeps) {
  const retryDelayMs = deps.retryDelayMs ?? 5000;
  return async function runVerification(job: VerificationJob, context?: JobHandlerContext): Promise<JobOutcome> {
    if (job.request?.kind !== 'source') {
      return failed(job.requestError ?? { code: 'invalid_input', details: { problem: 'stored_request_unreadable', why: 'it is not a source verification' } });
    }
    const requested = job.request.submission;
    if (isVyperSubmission(requested)) {
      if (deps.vyper) return deps.vyper(job, context ?? { signal: new AbortController().signal });
      return failed({ code: 'invalid_input', details: { problem: 'stored_request_unreadable', why: 'this process verifies no Vyper' } });
    }
    let submission = requested;
    const dryRun = job.request.dryRun === true;
    const address = submission.address;
    const existing = dryRun ? null : await getStoredVerdict(deps.store.db, address);
    if (existing && !canBeImproved(existing)) {
      return { state: 'already_verified' };
    }
    let result: VerificationResult;
    let runtimeCode: Hex = '0x';
    let creation: ContractCreation | null = null;
    const t0 = performance.now();
    let chainMs = 0;
    const known = lookupsOnce(storedCompilations(deps.store.db));
    const compiler = earlyCompiler(deps.compiler, context?.signal);
    const ahead = deps.ahead?.take(job.receipt);
    if (ahead) compiler.adopt(ahead);
    try {
      // The submission as given compiles while the chain is read: neither waits for the other.
      const early = startEarlyCompile(compiler, submission, known, deps.diagnosis?.gate);
      const [code, found] = await Promise.all([
        deps.chain.getCode(address),
        // Where there is no code the creation is not looked for: its answer (or error) is dropped.
        deps.chain.findCreation(address).then(
          (c) => ({ ok: true as const, creation: c }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      ]);
      runtimeCode = code;
      if (runtimeCode === '0x') {
        return failed({ code: 'contract_not_deployed', details: { address } });
      }
      if (!found.ok) throw found.error;
      creation = found.creation;
      chainMs = performance.now() - t0;
      await early;
      const verifyWith = (sent: SourceSubmission) => {
        const verify = () => verifyContract({ compiler, submission: sent, runtimeCode, creation: found.creation, known });
        return deps.diagnosis ? deps.diagnosis.gate.hold(verify) : verify();
      };
      result = await verifyWith(submission);
      // A metadata hash that differs may be the line endings alone: a browser sends a pasted
      // source with CRLF, a build on Windows may have had them. The other ending is tried once,
      // and taken when the deployed metadata proves it (a full match).
      const other = hashDiffers(result) ? otherLineEndings(submission) : null;
      if (other) {
        const again = await verifyWith(other).catch(() => null);
        if (again?.matchKind === 'full') {
          deps.logger.info({ receipt: job.receipt, lineEndings: hasCrlf(other) ? 'crlf' : 'lf' }, "full match with the sources' other line endings");
          result = again;
          submission = other;
        }
      }
    } catch (error) {
      compiler.discard();
      // A compiler that crashes again on the same input will not stop crashing.
      if (isSolproofError(error, 'compiler_crashed') && job.attempts >= 2) return failed(errorFacts(error));
      // Run where only known compilations may be used: a worker with compilers takes it.
      if (isSolproofError(error, 'compile_required')) return { retry: true, delayMs: 0, error: storedError(error) };
      if (isSolproofError(error) && error.retryable) {
        deps.logger.warn({ receipt: job.receipt, code: error.code, details: error.details }, 'verification will be retried');
        return { retry: true, delayMs: retryDelay(retryDelayMs, job.attempts), error: storedError(error) };
      }
      if (isSolproofError(error)) {
        if (deps.diagnosis && DIAGNOSABLE.has(error.code) && runtimeCode !== '0x') {
          return diagnosedFailure(deps, deps.diagnosis, job, submission, runtimeCode, creation, error, context?.signal);
        }
        return failed(errorFacts(error));
      }
      throw error;
    }

    compiler.discard();
    const verifiedAt = performance.now();
    // A dry run stores nothing: no record, and no compilation that copies could be matched through.
    if (dryRun) {
      return passed({
        dryRun: true,
        matchKind: result.matchKind,
        creationMatch: result.creationMatch,
        runtimeMatch: result.runtimeMatch,
        ...(result.reusedCompilation ? { reusedCompilation: true as const } : {}),
        ...(result.metadataSettingsFromCode ? { metadataSettingsFromCode: result.metadataSettingsFromCode } : {}),
        ...(submission.codeFormat === 'solidity-single-file' ? { singleFile: true as const } : {}),
      });
    }
    const { outcome, compiledContractId } = await recordVerification(deps.store.db, {
      deployment: { address, generation: await deps.generation.current(), runtimeCode, creation },
      from: { submission, result, receipt: job.receipt },
      lease: leaseOf(job),
    });
    deps.logger.debug(
      {
        receipt: job.receipt,
        chainMs: Math.round(chainMs),
        verifyMs: Math.round(verifiedAt - t0 - chainMs),
        recordMs: Math.round(performance.now() - verifiedAt),
        // The compile began when the job was queued, not when it was claimed.
        compiledAhead: compiler.tookAdopted(),
      },
      'verification phases',
    );
    if (!result.reusedCompilation && deps.recogniser) {
      // Copies deployed before this contract was verified: verified now, in the background.
      const recogniser = deps.recogniser;
      void recogniser
        .recogniseDeploymentsOf([compiledContractId])
        .then((addresses) => {
          if (addresses.length > 0)
            deps.logger.info({ receipt: job.receipt, copies: addresses.length }, 'verified earlier copies of a newly verified contract');
        })
        .catch((error: unknown) => deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not look for earlier copies'));
    }
    if (outcome === 'not_better') return { state: 'already_verified' };
    return passed({
      matchKind: result.matchKind,
      creationMatch: result.creationMatch,
      runtimeMatch: result.runtimeMatch,
      ...(outcome === 'replaced' ? { replaced: true as const } : {}),
      // The compilation came from the bytecode database: nothing was compiled.
      ...(result.reusedCompilation ? { reusedCompilation: true as const } : {}),
      ...(result.flatteningRepairs ? { flatteningRepairs: result.flatteningRepairs } : {}),
      ...(result.metadataSettingsFromCode ? { metadataSettingsFromCode: result.metadataSettingsFromCode } : {}),
      ...(submission.codeFormat === 'solidity-single-file' ? { singleFile: true as const } : {}),
      ...licenseOverruled(submission, result),
    });
  };
}

/** The submission's licence when the contract file's SPDX line names another (which is the one published). */
function licenseOverruled(submission: SourceSubmission, result: VerificationResult): { licenseOverruled?: { chosen: number; published: number } } {
  const source = submission.codeFormat === 'solidity-single-file' ? submission.sourceCode : (result.compilerInput.sources[result.sourcePath]?.content ?? '');
  const published = spdxLicense(source);
  return submission.licenseType && published !== null && published !== submission.licenseType
    ? { licenseOverruled: { chosen: submission.licenseType, published } }
    : {};
}

/**
 * A failure with its diagnosis: the facts and, when the bounded search found one, the change
 * that makes the submission pass. A diagnosis counts against the key's daily diagnoses when it
 * starts; with those used up the failure says so instead. A diagnosis that itself fails leaves
 * the plain failure.
 */
async function diagnosedFailure(
  deps: VerificationDeps,
  diagnosis: DiagnosisDeps,
  job: VerificationJob,
  submission: SourceSubmission,
  runtimeCode: Hex,
  creation: ContractCreation | null,
  error: AnySolproofError,
  signal: AbortSignal | undefined,
): Promise<JobOutcome> {
  const receipt = job.receipt;
  try {
    // Every submission has a key; a job without one (none is written so) has no day to count against.
    if (job.apiKeyId !== null) {
      const quota = await takeQuota(deps.store.db, { keyId: job.apiKeyId, kind: 'diagnosis', limit: diagnosis.dailyLimit });
      if (!quota.ok) {
        deps.logger.info({ receipt, code: error.code }, "failed verification not diagnosed: the key's diagnoses for the day are used up");
        diagnosis.metrics?.diagnosis('skipped');
        return failed({
          ...errorFacts(error),
          diagnosisSkipped: { code: 'diagnosis_quota_reached', details: { limit: diagnosis.dailyLimit, resetsAt: quota.resetsAt.toISOString() } },
        });
      }
    }
    const found = await diagnoseFailure({
      compiler: stoppedBy(deps.compiler, signal),
      submission,
      runtimeCode,
      creation,
      failure: error,
      releases: diagnosis.releases,
      compilerAvailable: diagnosis.compilerAvailable,
      budget: diagnosis.budget,
      beforeCompile: (signal) => diagnosis.gate.idle(60_000, signal),
    });
    deps.logger.info(
      {
        receipt,
        code: error.code,
        fix: found.fix?.changes ?? null,
        compiles: found.compiles,
        compilesStopped: found.compilesStopped,
        limitReached: found.limitReached,
        ms: found.ms,
      },
      'diagnosed a failed verification',
    );
    diagnosis.metrics?.diagnosis(found.fix ? 'fix' : 'none');
    // A cheap diagnosis (the failure's own facts, the contract name, the optimizer, the commonest
    // runs) is given back: the daily limit counts the searches that cost compiles.
    if (job.apiKeyId !== null && found.compiles <= CHEAP_DIAGNOSIS_COMPILES) await returnQuota(deps.store.db, { keyId: job.apiKeyId, kind: 'diagnosis' });
    return failed({ ...errorFacts(error), reasonCode: diagnosisReasonCode(found), diagnosis: found });
  } catch (failure) {
    deps.logger.warn({ receipt, err: failure instanceof Error ? failure.message : String(failure) }, 'could not diagnose a failed verification');
    diagnosis.metrics?.diagnosis('error');
    return failed(errorFacts(error));
  }
}

/**
 * Starts compiling the submission's first input (the one verifyContract compiles first) unless
 * that compilation is already known; resolves once it has started (or was not started), never
 * rejects: a submission that cannot be built is worded by verifyContract.
 */
async function startEarlyCompile(compiler: EarlyCompiler, submission: SourceSubmission, known: KnownCompilations, gate?: WorkGate): Promise<void> {
  try {
    const compile = firstCompile(submission);
    if (!compile) return;
    const { built } = compile;
    if (await known.find(compile.version, built.input, built.sourcePath, built.contractName)) return;
    const ended = compiler.start(compile.version, compile.input);
    // Background work yields to this compile as to the verification it belongs to.
    if (gate) void gate.hold(() => ended);
  } catch {
    // verifyContract meets the same problem and says what it is.
  }
}

/** A partial match whose metadata hash differs from the deployed one (the sources' text may be all that differs). */
function hashDiffers(result: VerificationResult): boolean {
  if (result.matchKind === 'full' || result.flatteningRepairs) return false;
  return [...result.transformations.runtime, ...result.transformations.creation].some((t) => t.reason === 'cborAuxdata' && t.type === 'replace');
}

function sourcesOf(submission: SourceSubmission): string[] {
  return submission.codeFormat === 'solidity-single-file'
    ? [submission.sourceCode]
    : Object.values(submission.standardJson.sources).map((s) => s.content ?? '');
}

function hasCrlf(submission: SourceSubmission): boolean {
  return sourcesOf(submission).some((text) => text.includes('\r\n'));
}

/**
 * The submission with the other line endings: CRLF made LF when any source has CRLF; else, for
 * a single file (pasted or flattened from a Windows checkout), LF made CRLF. Null when there is
 * nothing to change (a standard JSON input without CRLF keeps the endings its build wrote).
 */
export function otherLineEndings(submission: SourceSubmission): SourceSubmission | null {
  const crlf = hasCrlf(submission);
  if (!crlf && (submission.codeFormat !== 'solidity-single-file' || !submission.sourceCode.includes('\n'))) return null;
  const convert = (text: string): string => (crlf ? text.replace(/\r\n/g, '\n') : text.replace(/\r?\n/g, '\r\n'));
  if (submission.codeFormat === 'solidity-single-file') return { ...submission, sourceCode: convert(submission.sourceCode) };
  const sources = Object.fromEntries(
    Object.entries(submission.standardJson.sources).map(([path, source]) => [
      path,
      source.content === undefined ? source : { ...source, content: convert(source.content) },
    ]),
  );
  return { ...submission, standardJson: { ...submission.standardJson, sources } };
}
