import { existsSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PiscinaTask } from 'piscina';
import { Piscina } from 'piscina';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { CompactOutput, CompileTask, FailureReason, ParseTask, VersionTask, WarmUpTask, WorkerResult } from './compileWorker.js';
import { type CompileFailureFacts, type NativeCommand, runNativeCompiler } from './nativeCompiler.js';
import { WARM_UP_INPUTS } from './warmUpInput.js';

export interface CompilerPoolOptions {
  maxThreads: number;
  /** Compiler output beyond this many bytes fails the compile unread (default 64 MiB). */
  maxOutputBytes?: number | undefined;
  timeoutMs: number;
  maxMemoryMb: number;
  warmPerWorker: number;
  /** What the compilers one worker keeps loaded may hold together (estimated: their wasm memory and code). */
  warmMemoryMbPerWorker?: number;
  /** Idle workers (and the compilers they keep warm) are dropped after this long. */
  idleTimeoutMs: number;
  /**
   * Small compiles run after a compiler is loaded, one at a time and only while no other
   * compile runs or waits, so V8 optimises its WebAssembly before users wait on it (default 0).
   */
  warmUpCompiles?: number;
  logger?: Logger | undefined;
}

export interface CompilerPoolStats {
  compiles: number;
  /** Compiles that found their compiler already loaded in the worker. */
  warmCompiles: number;
  coldLoads: number;
  timeouts: number;
  /** Running compiles stopped by their caller's signal: their worker or process was stopped with them. */
  cancelled: number;
  /** Warm-up compiles run (their output is not read; not counted in `compiles`). */
  warmUps: number;
  crashes: number;
  outOfMemory: number;
  running: number;
  queued: number;
  threads: number;
}

/** The outcome of one compile, with where the time went. */
export interface PoolCompileResult {
  /** solc's output, parsed off the main thread, each legacy assembly cut to its auxdata. */
  output: CompactOutput;
  /** Time to load the compiler in the worker; null when it was warm. */
  loadMs: number | null;
  compileMs: number;
}

/** Counts concurrent work (wasm and native alike) against one bound. */
class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  get running(): number {
    return this.active;
  }
  get queued(): number {
    return this.waiting.length;
  }
  /** Resolves with the release of a slot; rejects with compile_cancelled when `signal` fires first. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw cancelledCompile();
    if (this.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const grant = (): void => {
          signal?.removeEventListener('abort', giveUp);
          resolve();
        };
        // A waiter that gives up leaves the line: the slot goes to the next one.
        const giveUp = (): void => {
          const at = this.waiting.indexOf(grant);
          if (at !== -1) this.waiting.splice(at, 1);
          reject(cancelledCompile());
        };
        this.waiting.push(grant);
        signal?.addEventListener('abort', giveUp, { once: true });
      });
    } else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}

const cancelledCompile = (): SolproofError => new SolproofError('compile_cancelled', {});

/**
 * Finds the compiled worker script. From dist/ it sits next to this module; when this module
 * is loaded from src/ (vitest), the .js sibling does not exist and the dist/ twin is used.
 */
export function resolveWorkerScript(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  const sibling = join(dirname(here), 'compileWorker.js');
  if (existsSync(sibling)) return sibling;
  const marker = `${sep}src${sep}`;
  const at = here.lastIndexOf(marker);
  if (at !== -1) {
    const twin = join(here.slice(0, at), 'dist', dirname(here.slice(at + marker.length)), 'compileWorker.js');
    if (existsSync(twin)) return twin;
    throw new Error(`Compile worker not built: ${twin} is missing (run npx tsc -p tsconfig.json)`);
  }
  throw new Error(`Compile worker not found next to ${here}`);
}

const AFFINITY = Piscina.queueOptionsSymbol;
interface BalancerWorker {
  id: number;
  currentUsage: number;
  terminating: boolean;
  destroyed: boolean;
}
/** What the load balancer sees of a task (piscina hands it only these queue options): its compiler, and whether it is a warm-up. */
type TaskWithAffinity = (CompileTask | VersionTask | ParseTask | WarmUpTask) & { [AFFINITY]?: { path: string; warmUp?: true } };

/** While nothing is idle, a waiting warm-up looks again this often. */
const WARM_UP_RETRY_MS = 50;

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Worker threads that compile with soljson builds, plus native compiler processes, all under
 * one concurrency bound. Each worker keeps a few compilers loaded; tasks go to an idle worker
 * that already has theirs.
 */
export class CompilerPool {
  private readonly piscina: Piscina<TaskWithAffinity, WorkerResult>;
  private readonly slots: Semaphore;
  private readonly warmByThread = new Map<number, Set<string>>();
  private readonly counters = { compiles: 0, warmCompiles: 0, coldLoads: 0, timeouts: 0, cancelled: 0, warmUps: 0, crashes: 0, outOfMemory: 0 };
  private closed = false;
  /** Compilers still to be warmed up, first first, with the compiles each has left. */
  private readonly warmUps: { path: string; left: number; done: number; startedAt: number }[] = [];
  /** The worker running a warm-up compile now; -1 while one is being handed to a worker; null: none runs. */
  private warmUpWorker: number | null = null;
  private warmUpTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: CompilerPoolOptions) {
    this.slots = new Semaphore(options.maxThreads);
    this.piscina = new Piscina<TaskWithAffinity, WorkerResult>({
      filename: resolveWorkerScript(),
      minThreads: 0,
      maxThreads: options.maxThreads,
      idleTimeout: options.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb },
      loadBalancer: (task, workers) => this.pickWorker(task, workers),
    });
    // Errors with no task attached (a worker dying while idle) must not crash the service.
    this.piscina.on('error', (e: unknown) => options.logger?.warn({ err: e }, 'compile worker failed'));
  }

  private pickWorker<W extends BalancerWorker>(task: PiscinaTask, workers: W[]): W | null {
    const affinity = (task as unknown as Record<symbol, unknown>)[AFFINITY] as { path?: string; warmUp?: boolean } | null;
    const wanted = affinity?.path;
    const warmUp = affinity?.warmUp === true;
    const alive = new Set<number>();
    let best: W | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const w of workers) {
      alive.add(w.id);
      if (w.currentUsage !== 0 || w.terminating || w.destroyed) continue;
      const warm = this.warmByThread.get(w.id);
      // Prefer the worker that has the compiler loaded, then the one with the least loaded.
      const score = wanted && warm?.has(wanted) ? 1000 : -(warm?.size ?? 0);
      if (score > bestScore) {
        best = w;
        bestScore = score;
      }
    }
    for (const id of this.warmByThread.keys()) if (!alive.has(id)) this.warmByThread.delete(id);
    if (warmUp) {
      if (best) this.warmUpWorker = best.id;
    } else if (wanted && bestScore < 1000 && this.warmUpWorker !== null && this.warmByThread.get(this.warmUpWorker)?.has(wanted)) {
      // The worker with this compiler loaded is busy with one short warm-up compile: waiting
      // for it is far quicker than loading the compiler in another worker.
      return null;
    }
    return best;
  }

  private get maxOutputBytes(): number {
    return this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  }

  /**
   * Compiles with a soljson build. Resolves with solc's output, parsed in the worker. When
   * `signal` fires the compile stops: a running one's worker is terminated (the next compile
   * starts a new one) and the promise rejects with compile_cancelled.
   */
  async compileSoljson(path: string, input: string, signal?: AbortSignal): Promise<PoolCompileResult> {
    const task: TaskWithAffinity = {
      kind: 'compile',
      path,
      input,
      warmPerWorker: this.options.warmPerWorker,
      warmMemoryBytes: Math.floor((this.options.warmMemoryMbPerWorker ?? Number.POSITIVE_INFINITY) * 1024 * 1024),
      maxMemoryMb: this.options.maxMemoryMb,
      maxOutputBytes: this.maxOutputBytes,
      [AFFINITY]: { path },
    };
    const result = await this.runInWorker(task, signal);
    if (!('output' in result)) throw new Error('unexpected worker answer');
    this.counters.compiles++;
    if (result.loadMs === null) this.counters.warmCompiles++;
    else {
      this.counters.coldLoads++;
      this.warmUpLater(path, result.threadId);
    }
    return { output: result.output, loadMs: result.loadMs, compileMs: result.compileMs };
  }

  /**
   * Queues warm-up compiles for a compiler a worker has just loaded, unless another worker has
   * it loaded too: V8 shares a module's optimised code between the threads of a process, so
   * that compiler's code is already as warm as its use made it.
   */
  private warmUpLater(path: string, loadedBy: number): void {
    const count = this.options.warmUpCompiles ?? 0;
    if (count <= 0 || this.closed) return;
    for (const [thread, warm] of this.warmByThread) if (thread !== loadedBy && warm.has(path)) return;
    if (this.warmUps.some((w) => w.path === path)) return;
    this.warmUps.push({ path, left: count, done: 0, startedAt: performance.now() });
    this.options.logger?.debug({ compiler: basename(path), compiles: count }, 'warming up a compiler');
    this.pumpWarmUps();
  }

  /** Runs the next warm-up compile when no other compile runs or waits; else looks again soon. */
  private pumpWarmUps(): void {
    if (this.closed || this.warmUpWorker !== null || this.warmUpTimer) return;
    const next = this.warmUps[0];
    if (!next) return;
    if (this.slots.running > 0 || this.slots.queued > 0) {
      this.warmUpTimer = setTimeout(() => {
        this.warmUpTimer = null;
        this.pumpWarmUps();
      }, WARM_UP_RETRY_MS);
      this.warmUpTimer.unref();
      return;
    }
    this.warmUpWorker = -1;
    void this.warmUpOnce(next).finally(() => {
      this.warmUpWorker = null;
      if (!this.closed) setImmediate(() => this.pumpWarmUps());
    });
  }

  private async warmUpOnce(next: { path: string; left: number; done: number; startedAt: number }): Promise<void> {
    const stop = (): void => {
      const at = this.warmUps.indexOf(next);
      if (at === -1) return;
      this.warmUps.splice(at, 1);
      this.options.logger?.debug(
        { compiler: basename(next.path), compiles: next.done, ms: Math.round(performance.now() - next.startedAt) },
        'compiler warmed up',
      );
    };
    // No worker has it loaded any more (dropped, or its worker idled out): nothing to warm.
    if (![...this.warmByThread.values()].some((warm) => warm.has(next.path))) return stop();
    try {
      const task: TaskWithAffinity = {
        kind: 'warm_up',
        path: next.path,
        input: WARM_UP_INPUTS[next.left % WARM_UP_INPUTS.length]!,
        maxMemoryMb: this.options.maxMemoryMb,
        [AFFINITY]: { path: next.path, warmUp: true },
      };
      const result = await this.runInWorker(task);
      if (!('warmedUp' in result)) return stop();
      // Null: handed to a worker without that compiler (its own was taken by a compile a moment before); tried again.
      if (result.compileMs !== null) {
        this.counters.warmUps++;
        next.done++;
      }
      if (--next.left <= 0) stop();
    } catch {
      // A warm-up is worth nothing once it fails: the compiler's own compiles say what is wrong.
      stop();
    }
  }

  /** Loads a soljson build in a worker (without keeping it) and returns the version it reports. */
  async readSoljsonVersion(path: string): Promise<string> {
    const result = await this.runInWorker({ kind: 'version', path, maxMemoryMb: this.options.maxMemoryMb });
    if (!('version' in result)) throw new Error('unexpected worker answer');
    return result.version;
  }

  /**
   * Compiles with a native solc binary, in the same concurrency bound as the workers; its
   * output is handed to a worker thread to be parsed there. `signal` kills the process (or
   * stops the parse) and rejects with compile_cancelled.
   */
  async compileNative(path: string, input: string, signal?: AbortSignal, command?: NativeCommand): Promise<PoolCompileResult> {
    const release = await this.acquireSlot(signal);
    let output: Uint8Array;
    const t0 = performance.now();
    try {
      const result = await runNativeCompiler(path, input, {
        timeoutMs: this.options.timeoutMs,
        maxMemoryMb: this.options.maxMemoryMb,
        maxOutputBytes: this.maxOutputBytes,
        signal,
        command,
      });
      if (!result.ok) {
        if (result.reason === 'timeout') {
          this.counters.timeouts++;
          throw new SolproofError('compile_timeout', { timeoutMs: this.options.timeoutMs });
        }
        if (result.reason === 'cancelled') {
          this.counters.cancelled++;
          throw cancelledCompile();
        }
        throw this.compileFailure(result.reason, result);
      }
      output = result.output;
    } finally {
      release();
    }
    const compileMs = performance.now() - t0;
    const buffer = output.buffer as ArrayBuffer;
    let parsed: WorkerResult;
    try {
      parsed = await this.piscina.run(
        { kind: 'parse', output: buffer, maxOutputBytes: this.maxOutputBytes },
        { transferList: [buffer], ...(signal ? { signal } : {}) },
      );
    } catch (e) {
      throw this.translateWorkerFailure(e, signal?.aborted ? 'cancelled' : null);
    }
    if (!parsed.ok) throw this.compileFailure(parsed.reason, parsed);
    if (!('output' in parsed)) throw new Error('unexpected worker answer');
    this.counters.compiles++;
    return { output: parsed.output, loadMs: null, compileMs };
  }

  /** The error of a compile that ran out of memory, said too much, or crashed (native process or worker), counted. */
  private compileFailure(reason: FailureReason, facts: CompileFailureFacts): SolproofError {
    if (reason === 'output_too_large') {
      return new SolproofError('compile_output_too_large', { maxOutputBytes: this.maxOutputBytes, ...(facts.size === undefined ? {} : { size: facts.size }) });
    }
    if (reason === 'out_of_memory') {
      this.counters.outOfMemory++;
      return new SolproofError('compile_out_of_memory', { maxMemoryMb: this.options.maxMemoryMb, ...(facts.detail ? { detail: facts.detail } : {}) });
    }
    this.counters.crashes++;
    return new SolproofError('compiler_crashed', { detail: facts.detail, ...(facts.cause ? { cause: facts.cause } : {}) });
  }

  private async runInWorker(task: TaskWithAffinity, signal?: AbortSignal): Promise<WorkerResult & { ok: true }> {
    const release = await this.acquireSlot(signal);
    const controller = new AbortController();
    let ended: 'timeout' | 'cancelled' | null = null;
    const stop = (why: 'timeout' | 'cancelled'): void => {
      ended ??= why;
      controller.abort();
    };
    // The clock starts when the task owns a slot: time spent queued is not the compiler's.
    const timer = setTimeout(() => stop('timeout'), this.options.timeoutMs);
    const cancel = (): void => stop('cancelled');
    signal?.addEventListener('abort', cancel, { once: true });
    // Fired between the slot's grant and here: the listener came too late to hear it.
    if (signal?.aborted) cancel();
    try {
      let result: WorkerResult;
      try {
        result = await this.piscina.run(task, { signal: controller.signal });
      } catch (e) {
        throw this.translateWorkerFailure(e, ended);
      }
      this.warmByThread.set(result.threadId, new Set(result.warm));
      if (result.ok) return result;
      throw this.compileFailure(result.reason, result);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      release();
    }
  }

  private translateWorkerFailure(e: unknown, ended: 'timeout' | 'cancelled' | null): SolproofError {
    // piscina terminates the worker running an aborted task; the next task starts a fresh one.
    if (ended === 'timeout') {
      this.counters.timeouts++;
      return new SolproofError('compile_timeout', { timeoutMs: this.options.timeoutMs });
    }
    if (ended === 'cancelled') {
      this.counters.cancelled++;
      return cancelledCompile();
    }
    const code = (e as { code?: unknown } | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      this.counters.outOfMemory++;
      return new SolproofError('compile_out_of_memory', { maxMemoryMb: this.options.maxMemoryMb }, { cause: e });
    }
    this.counters.crashes++;
    const message = e instanceof Error ? e.message : String(e);
    return new SolproofError('compiler_crashed', { detail: message }, { cause: e, retryable: !this.closed });
  }

  private async acquireSlot(signal?: AbortSignal): Promise<() => void> {
    if (this.closed) throw new SolproofError('compiler_crashed', { detail: '', poolClosed: true });
    const release = await this.slots.acquire(signal);
    // The pool may have closed while this compile waited for a slot.
    if (this.closed) {
      release();
      throw new SolproofError('compiler_crashed', { detail: '', poolClosed: true });
    }
    return release;
  }

  stats(): CompilerPoolStats {
    return { ...this.counters, running: this.slots.running, queued: this.slots.queued, threads: this.piscina.threads.length };
  }

  /** Stops the workers; compiles still running are cancelled. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.warmUpTimer) clearTimeout(this.warmUpTimer);
    await this.piscina.destroy();
  }
}
