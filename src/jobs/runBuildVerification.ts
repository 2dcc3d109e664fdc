import type { CopyRecogniser } from '../bytecodeDatabase/recogniseCopies.js';
import { recordBuild } from '../bytecodeDatabase/recordVerification.js';
import { errorFacts, isSolproofError } from '../core/errors.js';
import { type BuildPassResult, type FailureResult, storedError } from '../core/jobResults.js';
import type { Logger } from '../core/log.js';
import type { Address } from '../core/types.js';
import type { CompiledUnit } from '../store/compilations.js';
import type { Store } from '../store/openStore.js';
import { leaseOf, type VerificationJob } from '../store/verificationJobs.js';
import {
  CONTRACT_OUTPUTS,
  type Compiler,
  checkStandardJsonInput,
  compiledContractOf,
  compileSettings,
  type SolcInput,
  type SolcOutput,
} from '../verify/index.js';
import { type JobHandlerContext, type JobOutcome, retryDelay } from './queue.js';

export interface BuildVerificationDeps {
  store: Store;
  compiler: Compiler;
  recogniser: CopyRecogniser;
  logger: Logger;
  retryDelayMs?: number;
  /**
   * Resolves once every contract deployed so far is a recorded deployment (the chain follower
   * has reached the head), so a contract deployed just before the build is one of its matches.
   */
  deploymentsRecorded?: () => Promise<unknown>;
}

const failed = (document: FailureResult): JobOutcome => ({ state: 'fail', result: { outcome: 'failure', document } });

/**
 * The whole-build job: compiles the build once (every contract), keeps each contract with
 * code as a known compilation, and verifies every recorded deployment that is one of them
 * (later ones are verified as the chain follower finds them). The result lists the contracts
 * and the addresses verified.
 */
export function createBuildVerificationHandler(deps: BuildVerificationDeps) {
  const retryDelayMs = deps.retryDelayMs ?? 5000;
  return async function runBuildVerification(job: VerificationJob, context?: JobHandlerContext): Promise<JobOutcome> {
    if (job.request?.kind !== 'build') {
      return failed(job.requestError ?? { code: 'invalid_input', details: { problem: 'stored_request_unreadable', why: 'it is not a build' } });
    }
    const { compilerVersion, input: given, format } = job.request.build;
    let input: SolcInput;
    try {
      const checked = checkStandardJsonInput(given);
      input = {
        language: checked.language,
        sources: checked.sources,
        settings: { ...compileSettings(checked.settings), outputSelection: { '*': { '*': [...CONTRACT_OUTPUTS] } } },
      };
    } catch (error) {
      if (isSolproofError(error)) return failed(errorFacts(error));
      throw error;
    }
    let output: SolcOutput;
    try {
      output = await deps.compiler.compile(compilerVersion, input, context?.signal);
    } catch (error) {
      if (isSolproofError(error) && error.retryable) {
        deps.logger.warn({ receipt: job.receipt, code: error.code, details: error.details }, 'build verification will be retried');
        return { retry: true, delayMs: retryDelay(retryDelayMs, job.attempts), error: storedError(error) };
      }
      if (isSolproofError(error)) return failed(errorFacts(error));
      throw error;
    }
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length > 0) return failed({ code: 'compiler_error', details: { errors: errors.slice(0, 20) } });
    const units: CompiledUnit[] = [];
    for (const [path, byName] of Object.entries(output.contracts ?? {})) {
      for (const [name, contract] of Object.entries(byName)) {
        const compiled = compiledContractOf(contract);
        // Interfaces and abstract contracts compile to no code: nothing can be a copy of them.
        if (compiled.runtime.code !== '' && compiled.creation.code !== '') units.push({ path, name, compiled });
      }
    }
    if (units.length === 0) return failed({ code: 'no_contract_in_build', details: {} });

    const contractIds = await recordBuild(deps.store.db, {
      receipt: job.receipt,
      compilerVersion,
      input,
      units,
      submitted: given,
      format,
      lease: leaseOf(job),
    });
    await deps.deploymentsRecorded?.();
    const addresses = await deps.recogniser.recogniseDeploymentsOf(contractIds);
    const verified = await describe(deps.store, addresses);
    deps.logger.info({ receipt: job.receipt, contracts: units.length, verified: verified.length }, 'build verified');
    return {
      state: 'pass',
      result: { outcome: 'build_pass', document: { contracts: units.map((u) => ({ path: u.path, name: u.name })), verified } },
    };
  };
}

async function describe(store: Store, addresses: Address[]): Promise<BuildPassResult['verified']> {
  if (addresses.length === 0) return [];
  const rows = await store.db
    .selectFrom('verifiedContracts')
    .select(['address', 'contractName', 'sourcePath', 'matchKind'])
    .where(
      'address',
      'in',
      addresses.map((a) => a.toLowerCase()),
    )
    .orderBy('address')
    .execute();
  return rows.map((row) => ({ ...row, matchKind: row.matchKind === 'full' ? 'full' : 'partial' }));
}
