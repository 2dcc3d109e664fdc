import { availableParallelism } from 'node:os';
import { type CompilerVersion, compareVersions } from '../core/compilerVersion.js';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Compiler, SolcInput, SolcOutput } from '../verify/index.js';
import { CompilerCache, type ResolvedCompiler } from './compilerCache.js';
import type { HttpLimits } from './compilerDownloads.js';
import type { CompilerKind } from './compilerFileName.js';
import { CompilerPool, type CompilerPoolStats } from './compilerPool.js';
import { type CompilerSource, mirrorSource, npmSource, type SourceDeps } from './compilerSources.js';
import { DownloadCache } from './downloadCache.js';
import { ReleaseRegistry } from './releaseRegistry.js';

export type { ResolvedCompiler } from './compilerCache.js';

export interface SolcCompilerOptions {
  /** Where compilers are kept, named like solc-bin's files (normally `<dataDir>/compilers`). */
  cacheDir: string;
  /** A solc-bin mirror; null turns the mirror off. Default https://binaries.soliditylang.org */
  mirrorUrl?: string | null;
  /** An npm registry for `solc` releases; null turns it off. Default https://registry.npmjs.org */
  npmRegistryUrl?: string | null;
  /** Concurrent compiles (worker threads and native processes together). Default: available cores. */
  maxThreads?: number;
  /** Per-compile time limit. Default 60 s. */
  timeoutMs?: number;
  /** Per-compile memory limit (worker heap, wasm memory, native RSS). Default 2048 MB. */
  maxMemoryMb?: number;
  /** Per-compile output limit: larger output fails the compile unread. Default 64 MiB. */
  maxOutputBytes?: number;
  /** Compilers each worker keeps loaded. Default 3. */
  warmPerWorker?: number;
  /** Memory the loaded compilers of all workers together may hold (split evenly between them). Default 1024 MB. */
  warmMemoryMb?: number;
  /** Idle workers exit after this, releasing their warm compilers. Default 10 min. */
  idleTimeoutMs?: number;
  /**
   * Small compiles run while the pool is idle after a compiler is loaded, so that V8 has
   * optimised its WebAssembly before the next verification needs it. Default 16; 0 turns them off.
   */
  warmUpCompiles?: number;
  /** Use native linux-amd64 builds when the mirror has them. Default true on linux x64. */
  useNative?: boolean;
  /** Deadline for a source to start answering. Default 5 s. */
  connectTimeoutMs?: number;
  /** Deadline for a whole download. Default 180 s. */
  downloadTimeoutMs?: number;
  /** Which commit each release has. Default: the shipped table plus what `cacheDir` learned. */
  releases?: ReleaseRegistry;
  logger?: Logger | undefined;
}

export interface SolcCompilerStats extends CompilerPoolStats {
  downloads: { mirror: number; npm: number };
}

/** The service's compiler: resolves versions to cached builds and compiles off the event loop. */
export interface SolcCompiler extends Compiler {
  /** Finds the compiler in the cache, downloading it when needed. */
  resolve(version: string): Promise<ResolvedCompiler>;
  /** Which commit each release has (what the submission check asks). */
  releases: ReleaseRegistry;
  /** The pool its compiles run in: other compiler families (createVyperCompiler) share its bound and limits. */
  pool: CompilerPool;
  stats(): SolcCompilerStats;
  close(): Promise<void>;
}

const DEFAULT_MIRROR = 'https://binaries.soliditylang.org';
const DEFAULT_NPM = 'https://registry.npmjs.org';
const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;
/** About what V8 needed here to optimise solc 0.8's hot functions (measured with a small contract). */
const DEFAULT_WARM_UP_COMPILES = 16;
// From 0.8.8 solc reads only inside its base path, which is what makes running a native
// binary on untrusted input safe; older versions use soljson, which cannot read files at all.
const NATIVE_SINCE = { major: 0, minor: 8, patch: 8 };

/**
 * Creates the real compiler: local cache, then the solc-bin mirror, then the npm registry;
 * compiles in a piscina worker pool (soljson) or a child process (native).
 */
export function createSolcCompiler(options: SolcCompilerOptions): SolcCompiler {
  const cache = new CompilerCache(options.cacheDir);
  const mirrorUrl = options.mirrorUrl === undefined ? DEFAULT_MIRROR : options.mirrorUrl;
  const npmRegistryUrl = options.npmRegistryUrl === undefined ? DEFAULT_NPM : options.npmRegistryUrl;
  const useNative = options.useNative ?? (process.platform === 'linux' && process.arch === 'x64');
  const logger = options.logger;
  const releases = options.releases ?? ReleaseRegistry.inCache(options.cacheDir);
  const limits: HttpLimits = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    downloadTimeoutMs: options.downloadTimeoutMs ?? 180_000,
    maxBytes: MAX_DOWNLOAD_BYTES,
  };
  const maxThreads = Math.max(1, options.maxThreads ?? availableParallelism());
  const pool = new CompilerPool({
    maxThreads,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxMemoryMb: options.maxMemoryMb ?? 2048,
    maxOutputBytes: options.maxOutputBytes,
    warmPerWorker: options.warmPerWorker ?? 3,
    warmMemoryMbPerWorker: (options.warmMemoryMb ?? 1024) / maxThreads,
    idleTimeoutMs: options.idleTimeoutMs ?? 10 * 60_000,
    warmUpCompiles: options.warmUpCompiles ?? DEFAULT_WARM_UP_COMPILES,
    logger,
  });

  const downloads = { mirror: 0, npm: 0 };
  const nativeAllowed = (v: CompilerVersion): boolean => useNative && compareVersions(v, NATIVE_SINCE) >= 0;
  const deps: SourceDeps = { cache, releases, limits, nativeAllowed, downloaded: (source) => downloads[source]++, logger };
  const sources: CompilerSource[] = [];
  if (mirrorUrl) sources.push(mirrorSource(mirrorUrl, deps));
  if (npmRegistryUrl) sources.push(npmSource(npmRegistryUrl, { ...deps, readSoljsonVersion: (path) => pool.readSoljsonVersion(path) }));
  const downloadCache = new DownloadCache(cache, sources, releases, (v): CompilerKind[] => (nativeAllowed(v) ? ['native', 'soljson'] : ['soljson']));

  async function compile(version: string, input: SolcInput, signal?: AbortSignal): Promise<SolcOutput> {
    const resolving = performance.now();
    const resolved = await unlessCancelled(downloadCache.resolve(version), signal);
    const resolveMs = Math.round(performance.now() - resolving);
    const text = JSON.stringify(input);
    const result = resolved.kind === 'native' ? await pool.compileNative(resolved.path, text, signal) : await pool.compileSoljson(resolved.path, text, signal);
    logger?.debug({ version: resolved.longVersion, kind: resolved.kind, resolveMs, loadMs: result.loadMs, compileMs: result.compileMs }, 'compiled');
    return result.output as SolcOutput;
  }

  return {
    compile,
    resolve: (version: string): Promise<ResolvedCompiler> => downloadCache.resolve(version),
    releases,
    pool,
    stats: () => ({ ...pool.stats(), downloads: { ...downloads } }),
    close: () => pool.close(),
  };
}

/**
 * `work`, or compile_cancelled as soon as `signal` fires. Only the waiting stops: a download
 * goes on for the others who wait for it, and stays in the cache.
 */
function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new SolproofError('compile_cancelled', {}));
  return new Promise<T>((resolve, reject) => {
    const cancel = (): void => reject(new SolproofError('compile_cancelled', {}));
    signal.addEventListener('abort', cancel, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', cancel);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', cancel);
        reject(error);
      },
    );
  });
}
