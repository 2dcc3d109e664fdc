import type { Compiler, KnownCompilations, SolcInput, SolcOutput } from '../verify/index.js';

/**
 * A compiler that can start one compile before it is asked for it: the job starts compiling
 * the submission as given while it still reads the chain, and the verification that asks for
 * that same compile (same version, same input) gets the one already under way. Any other
 * compile goes to the compiler as usual. A compile started early that nobody asks for is
 * stopped by `discard()`.
 */
export interface EarlyCompiler extends Compiler {
  /** Starts compiling `input` now; resolves when that compile ends, however it ends. */
  start(version: string, input: SolcInput): Promise<void>;
  /** Stops the early compile if nobody took it. */
  discard(): void;
}

export function earlyCompiler(compiler: Compiler, signal?: AbortSignal): EarlyCompiler {
  let early: { key: string; output: Promise<SolcOutput>; controller: AbortController } | null = null;
  // Inputs are built the same way each time, so the same input gives the same text.
  const keyOf = (version: string, input: SolcInput): string => `${version}\n${JSON.stringify(input)}`;
  return {
    start(version, input) {
      if (early) return early.output.then(() => undefined);
      const controller = new AbortController();
      const stop = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', stop, { once: true });
      const output = compiler.compile(version, input, controller.signal).finally(() => signal?.removeEventListener('abort', stop));
      // Seen by whoever takes it; an early compile nobody takes must not be an unhandled rejection.
      const ended = output.then(
        () => undefined,
        () => undefined,
      );
      early = { key: keyOf(version, input), output, controller };
      return ended;
    },
    compile(version, input, callerSignal) {
      if (early && early.key === keyOf(version, input)) {
        const taken = early.output;
        early = null;
        return taken;
      }
      return compiler.compile(version, input, callerSignal);
    },
    discard() {
      early?.controller.abort(new Error('early compile not needed'));
      early = null;
    },
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
