import { storedCompilations } from '../bytecodeDatabase/knownCompilations.js';
import { withoutV } from '../core/compilerVersion.js';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { SourceSubmission } from '../core/types.js';
import type { Store } from '../store/openStore.js';
import { claimJob, finishJob, releaseJob } from '../store/verificationJobs.js';
import { type Compiler, submissionInputs } from '../verify/index.js';
import type { JobHandler } from './queue.js';

/** A compiler that never compiles: for runs that may only use compilations already stored. */
export const NO_COMPILER: Compiler = {
  compile: async () => {
    throw new SolproofError('compile_required', {}, { retryable: true });
  },
};

export interface KnownCompilationRunnerOptions {
  store: Store;
  /** The verification handler, built with NO_COMPILER. */
  handler: JobHandler;
  owner: string;
  logger: Logger;
}

/**
 * Runs a just-queued verification at once, in the process that received it, when the
 * submission was compiled before (same compiler, same input): no compiler is needed, so the
 * receipt is final by the time the client first asks. Anything else, failures included (they
 * are diagnosed, which needs a compiler), is left to the workers.
 */
export function createKnownCompilationRunner(options: KnownCompilationRunnerOptions) {
  const known = storedCompilations(options.store.db);
  return async function runIfKnown(receipt: string, submission: SourceSubmission): Promise<boolean> {
    const version = withoutV(submission.compilerVersion.trim());
    let inputs: ReturnType<typeof submissionInputs>;
    try {
      inputs = submissionInputs(submission);
    } catch {
      return false; // the worker words the error
    }
    const first = inputs[0];
    if (!first || !(await known.find(version, first.input, first.sourcePath, first.contractName))) return false;
    const { db } = options.store;
    const job = await claimJob(db, receipt, { owner: options.owner, leaseMs: 60_000 });
    if (!job) return false;
    try {
      const outcome = await options.handler(job, { signal: new AbortController().signal });
      // A failure is left to the workers too: they diagnose it (the search needs a compiler).
      if ('retry' in outcome || outcome.state === 'fail') {
        await releaseJob(db, receipt, options.owner);
        return false;
      }
      await finishJob(db, receipt, { ...outcome, owner: options.owner });
      return true;
    } catch (error) {
      options.logger.warn(
        { receipt, err: error instanceof Error ? error.message : String(error) },
        'a known compilation could not be verified at once; left to the workers',
      );
      await releaseJob(db, receipt, options.owner).catch(() => undefined);
      return false;
    }
  };
}
