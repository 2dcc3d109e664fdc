import { withoutV } from '../core/compilerVersion.js';
import type { Logger } from '../core/log.js';
import type { SourceSubmission } from '../core/types.js';
import {
  type BuiltSolcInput,
  type Compiler,
  type KnownCompilations,
  type SolcInput,
  type SolcOutput,
  solcInputToCompile,
  submissionInputs,
} from '../verify/index.js';

/** A source verification job just queued. */
export interface QueuedSource {
  receipt: string;
  submission: SourceSubmission;
}

/** A compile under way, to be handed to the verification that needs it. */
export interface StartedCompile {
  version: string;
  input: SolcInput;
  output: Promise<SolcOutput>;
  controller: AbortController;
}

/**
 * The compile a verification of `submission` starts with (`built`, its first input, and the
 * `input` sent to solc for it), or null when it cannot be built.
 */
export function firstCompile(submission: SourceSubmission): { version: string; input: SolcInput; built: BuiltSolcInput } | null {
  try {
    const built = submissionInputs(submission)[0];
    if (!built) return null;
    const version = withoutV(submission.compilerVersion.trim());
    return { version, input: solcInputToCompile(version, built), built };
  } catch {
    // The verification meets the same problem and says what it is.
    return null;
  }
}

/**
 * A compiler that can start one compile before it is asked for it: the job starts compiling
 * the submission as given while it still reads the chain, and the verification that asks for
 * that same compile (same version, same input) gets the one already under way. Any other
 * compile goes to the compiler as usual. A compile started early that nobody asks for is
 * stopped by `discard()`.
 */
export interface EarlyCompiler extends Compiler {
  /** Starts compiling `input` now (or keeps the adopted compile of it); resolves when that compile ends, however it ends. */
  start(version: string, input: SolcInput): Promise<void>;
  /** Takes a compile started before the job ran (see compilesAhead) as its early compile. */
  adopt(started: StartedCompile): void;
  /** Stops the early compile if nobody took it. */
  discard(): void;
  /** Whether a verification took the adopted compile (started when the job was queued). */
  tookAdopted(): boolean;
}

/** Seen by whoever takes it; an early compile nobody takes must not be an unhandled rejection. */
const ended = (output: Promise<SolcOutput>): Promise<void> =>
  output.then(
    () => undefined,
    () => undefined,
  );

// Inputs are built the same way each time, so the same input gives the same text.
const keyOf = (version: string, input: SolcInput): string => `${version}\n${JSON.stringify(input)}`;

/** Both signals, either of which stops a compile. */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

/** `compiler`, every compile of which also stops when `signal` fires (a job's: its lease lost, or put back in the queue). */
export function stoppedBy(compiler: Compiler, signal: AbortSignal | undefined): Compiler {
  if (!signal) return compiler;
  return { compile: (version, input, callerSignal) => compiler.compile(version, input, eitherSignal(signal, callerSignal)) };
}

/** The job's `signal` stops the early compile, and every other compile it asks for. */
export function earlyCompiler(compiler: Compiler, signal?: AbortSignal): EarlyCompiler {
  let early: { key: string; output: Promise<SolcOutput>; controller: AbortController; adopted?: true } | null = null;
  let tookAdopted = false;
  return {
    start(version, input) {
      const key = keyOf(version, input);
      if (early?.key === key) return ended(early.output);
      early?.controller.abort(new Error('early compile not needed'));
      const controller = new AbortController();
      const stop = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', stop, { once: true });
      const output = compiler.compile(version, input, controller.signal).finally(() => signal?.removeEventListener('abort', stop));
      early = { key, output, controller };
      return ended(output);
    },
    adopt(started) {
      early?.controller.abort(new Error('early compile not needed'));
      early = { key: keyOf(started.version, started.input), output: started.output, controller: started.controller, adopted: true };
      // The job's signal stops it as it stops the job's own compiles.
      const stop = () => started.controller.abort(signal?.reason);
      signal?.addEventListener('abort', stop, { once: true });
      void ended(started.output).then(() => signal?.removeEventListener('abort', stop));
    },
    compile(version, input, callerSignal) {
      if (early && early.key === keyOf(version, input)) {
        const taken = early.output;
        tookAdopted ||= early.adopted === true;
        early = null;
        return taken;
      }
      return compiler.compile(version, input, eitherSignal(signal, callerSignal));
    },
    discard() {
      early?.controller.abort(new Error('early compile not needed'));
      early = null;
    },
    tookAdopted: () => tookAdopted,
  };
}

/**
 * The known compilations, each lookup made once per job: the job looks up the submission's
 * first input before compiling it early, and verifyContract looks the same input up again.
 */
export function lookupsOnce(known: KnownCompilations): KnownCompilations {
  const found = new Map<string, ReturnType<KnownCompilations['find']>>();
  return {
    find(version, input, sourcePath, contractName) {
      const key = `${version}\n${sourcePath}\n${contractName}\n${JSON.stringify(input)}`;
      let lookup = found.get(key);
      if (!lookup) {
        lookup = known.find(version, input, sourcePath, contractName);
        found.set(key, lookup);
      }
      return lookup;
    },
  };
}

/**
 * Compiles started when a job is queued, in the process whose runner will take it: the job
 * adopts the compile under way instead of starting it after its claim. A compile is started
 * only when the runner has room for the job and the job's key is within its share (its running
 * jobs, across every runner, and the compiles started ahead for it here, below the share): a
 * key never holds more compiles than its share through compiles started ahead. A compile whose
 * job the runner did not take in the round of claims that followed (another runner took it, or
 * the runner filled up with other jobs) is stopped at once, not finished and then done again.
 */
export interface CompilesAhead {
  /**
   * Starts compiling the submission's first input for its job when that is allowed (above).
   * Resolves once decided: the runner is woken after it, so that its claims see the compile.
   */
  start(queued: QueuedSource): Promise<void>;
  /** The compile started for `receipt`, once. */
  take(receipt: string): StartedCompile | null;
  /**
   * After a round of claims: stops and drops the compiles started before `lookedAt` (the
   * round's last look at the queue) whose jobs are not among `running`, this runner's jobs.
   */
  keepOnly(running: ReadonlySet<string>, lookedAt: number): void;
}

export interface CompilesAheadOptions {
  /** Whether this process's runner has a free slot (and its compiler nothing waiting). */
  room: () => boolean;
  /** A key's share of the running jobs, and how many run now for the key of a job; without it, keys are not counted. */
  share?: {
    perKey: number;
    runningOfJobsKey: (receipt: string) => Promise<{ apiKeyId: string | null; running: number } | null>;
  };
  /** At most this many compiles started ahead at once (default 4). */
  maxKept?: number;
  logger?: Logger | undefined;
}

export function compilesAhead(compiler: Compiler, options: CompilesAheadOptions): CompilesAhead {
  const kept = new Map<string, StartedCompile & { apiKeyId: string | null; startedAt: number }>();
  const maxKept = options.maxKept ?? 4;
  // One decision at a time: two submissions of one key must not both see room for one more.
  let deciding: Promise<void> = Promise.resolve();

  async function decide({ receipt, submission }: QueuedSource): Promise<void> {
    const allowed = () => kept.size < maxKept && !kept.has(receipt) && options.room();
    if (!allowed()) return;
    const first = firstCompile(submission);
    if (!first) return;
    let apiKeyId: string | null = null;
    if (options.share) {
      const key = await options.share.runningOfJobsKey(receipt).catch(() => null);
      if (!key) return;
      apiKeyId = key.apiKeyId;
      const aheadOfKey = [...kept.values()].filter((e) => e.apiKeyId === apiKeyId).length;
      if (apiKeyId !== null && key.running + aheadOfKey >= options.share.perKey) {
        options.logger?.debug({ receipt, running: key.running, ahead: aheadOfKey }, "no compile ahead: the job's key has its share of running jobs");
        return;
      }
      if (!allowed()) return;
    }
    const { version, input } = first;
    const controller = new AbortController();
    const output = compiler.compile(version, input, controller.signal);
    void ended(output);
    kept.set(receipt, { version, input, output, controller, apiKeyId, startedAt: performance.now() });
    options.logger?.debug({ receipt, key: apiKeyId }, 'compile started ahead');
  }

  return {
    start(queued) {
      deciding = deciding.then(() => decide(queued)).catch(() => undefined);
      return deciding;
    },
    take(receipt) {
      const started = kept.get(receipt);
      if (!started) return null;
      kept.delete(receipt);
      const { apiKeyId: _key, startedAt: _at, ...compile } = started;
      return compile;
    },
    keepOnly(running, lookedAt) {
      for (const [receipt, entry] of kept) {
        if (running.has(receipt) || entry.startedAt >= lookedAt) continue;
        kept.delete(receipt);
        entry.controller.abort(new Error('its job was not taken by this runner'));
        options.logger?.debug({ receipt }, 'a compile started ahead was stopped: this runner did not take its job');
      }
    },
  };
}
