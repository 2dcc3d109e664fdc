import { randomBytes } from 'node:crypto';
import { constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { access, chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Compiler, SolcInput, SolcOutput } from '../verify/index.js';
import {
  ChecksumError,
  DownloadError,
  downloadSolcBinBuild,
  fetchNpmSoljson,
  fetchSolcBinList,
  type HttpLimits,
  type SolcBinBuild,
  type SolcBinPlatform,
} from './compilerDownloads.js';
import { CompilerPool, type CompilerPoolStats } from './compilerPool.js';
import { ReleaseRegistry } from './releaseRegistry.js';
import { compareVersions, longVersionFromReported, parseCompilerVersion, releaseOf, type CompilerVersion } from '../core/compilerVersion.js';
import { compilerFileName, type CompilerKind } from './compilerFileName.js';

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
  /** Idle workers exit after this, releasing their warm compilers. Default 10 min. */
  idleTimeoutMs?: number;
  /** Use native linux-amd64 builds when the mirror has them. Default true on linux x64. */
  useNative?: boolean;
  /** Deadline for a source to start answering. Default 5 s. */
  connectTimeoutMs?: number;
  /** Deadline for a whole download. Default 180 s. */
  downloadTimeoutMs?: number;
  /** Which commit each release has. Default: the shipped table plus what `cacheDir` learned. */
  releases?: ReleaseRegistry;
  logger?: Logger;
}

/** A compiler present in the local cache. */
export interface ResolvedCompiler {
  kind: CompilerKind;
  path: string;
  /** `0.8.26+commit.8a97fa7a` */
  longVersion: string;
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
  stats(): SolcCompilerStats;
  close(): Promise<void>;
}

const DEFAULT_MIRROR = 'https://binaries.soliditylang.org';
const DEFAULT_NPM = 'https://registry.npmjs.org';
const LIST_TTL_MS = 10 * 60_000;
const LIST_FAILURE_TTL_MS = 60_000;
const NOT_FOUND_TTL_MS = 10 * 60_000;
const NOT_FOUND_MAX = 1000;
const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;
// From 0.8.8 solc reads only inside its base path, which is what makes running a native
// binary on untrusted input safe; older versions use soljson, which cannot read files at all.
const NATIVE_SINCE = { major: 0, minor: 8, patch: 8 };

type ListEntry = { at: number; builds: Map<string, SolcBinBuild> | null } | { at: number; error: DownloadError };

/**
 * soljson builds are CommonJS scripts loaded with require(). A cache inside an ES-module
 * package (the default `./.data` of this very project) would make Node read them as ES
 * modules, so the cache declares its own module type.
 */
function markCacheAsCommonJs(cacheDir: string): void {
  mkdirSync(cacheDir, { recursive: true });
  const marker = join(cacheDir, 'package.json');
  if (!existsSync(marker)) writeFileSync(marker, '{ "type": "commonjs" }\n');
}

/**
 * Creates the real compiler: local cache, then the solc-bin mirror, then the npm registry;
 * compiles in a piscina worker pool (soljson) or a child process (native).
 */
export function createSolcCompiler(options: SolcCompilerOptions): SolcCompiler {
  const cacheDir = options.cacheDir;
  markCacheAsCommonJs(cacheDir);
  const mirrorUrl = options.mirrorUrl === undefined ? DEFAULT_MIRROR : options.mirrorUrl;
  const npmRegistryUrl = options.npmRegistryUrl === undefined ? DEFAULT_NPM : options.npmRegistryUrl;
  const useNative = options.useNative ?? (process.platform === 'linux' && process.arch === 'x64');
  const logger = options.logger;
  const releases = options.releases ?? ReleaseRegistry.inCache(cacheDir);
  const limits: HttpLimits = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    downloadTimeoutMs: options.downloadTimeoutMs ?? 180_000,
    maxBytes: MAX_DOWNLOAD_BYTES,
  };
  const pool = new CompilerPool({
    maxThreads: Math.max(1, options.maxThreads ?? availableParallelism()),
    timeoutMs: options.timeoutMs ?? 60_000,
    maxMemoryMb: options.maxMemoryMb ?? 2048,
    ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
    warmPerWorker: options.warmPerWorker ?? 3,
    idleTimeoutMs: options.idleTimeoutMs ?? 10 * 60_000,
    logger,
  });

  const inFlight = new Map<string, Promise<ResolvedCompiler>>();
  const notFound = new Map<string, { at: number; error: SolproofError }>();
  const lists = new Map<string, ListEntry>();
  const downloads = { mirror: 0, npm: 0 };

  const nativeAllowed = (v: CompilerVersion): boolean => useNative && compareVersions(v, NATIVE_SINCE) >= 0;

  async function fromCache(v: CompilerVersion): Promise<ResolvedCompiler | null> {
    const kinds: CompilerKind[] = nativeAllowed(v) ? ['native', 'soljson'] : ['soljson'];
    for (const kind of kinds) {
      const path = join(cacheDir, compilerFileName(kind, v));
      try {
        await access(path, kind === 'native' ? constants.X_OK : constants.R_OK);
        return { kind, path, longVersion: v.long };
      } catch {
        // not cached in this form
      }
    }
    return null;
  }

  /** Writes a verified build into the cache under its solc-bin name, atomically. */
  async function store(kind: CompilerKind, v: CompilerVersion, bytes: Buffer): Promise<ResolvedCompiler> {
    await mkdir(cacheDir, { recursive: true });
    const path = join(cacheDir, compilerFileName(kind, v));
    const temp = join(cacheDir, `.partial-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(temp, bytes, { mode: kind === 'native' ? 0o755 : 0o644 });
      if (kind === 'native') await chmod(temp, 0o755);
      await rename(temp, path);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return { kind, path, longVersion: v.long };
  }

  async function mirrorList(platform: SolcBinPlatform): Promise<Map<string, SolcBinBuild> | null> {
    const key = `${mirrorUrl}|${platform}`;
    const cached = lists.get(key);
    const now = Date.now();
    if (cached && 'error' in cached && now - cached.at < LIST_FAILURE_TTL_MS) throw cached.error;
    if (cached && 'builds' in cached && now - cached.at < LIST_TTL_MS) return cached.builds;
    try {
      const builds = await fetchSolcBinList(mirrorUrl!, platform, limits);
      lists.set(key, { at: now, builds });
      if (builds) releases.learnMany([...builds.keys()].filter((long) => !long.includes('-nightly.')));
      return builds;
    } catch (e) {
      const error = e instanceof DownloadError ? e : new DownloadError(String(e), { cause: e });
      lists.set(key, { at: now, error });
      throw error;
    }
  }

  /** What the sources said, so the final error can tell "no such version" from "could not ask". */
  interface Attempts {
    failures: string[];
    /** npm answered for this release: it has no such version, or only another commit. */
    npmDefinitive: boolean;
  }

  async function fromMirror(v: CompilerVersion, attempts: Attempts): Promise<ResolvedCompiler | null> {
    if (!mirrorUrl) return null;
    const platforms: SolcBinPlatform[] = nativeAllowed(v) ? ['linux-amd64', 'wasm', 'bin'] : ['wasm', 'bin'];
    for (const platform of platforms) {
      let builds: Map<string, SolcBinBuild> | null;
      try {
        builds = await mirrorList(platform);
      } catch (e) {
        attempts.failures.push(`mirror ${platform}/list.json: ${(e as Error).message}`);
        // An unreachable mirror will not answer for the other lists either.
        if (e instanceof DownloadError && e.unreachable) return null;
        continue;
      }
      if (builds === null) continue;
      const build = builds.get(v.long);
      if (!build) continue;
      try {
        const bytes = await downloadSolcBinBuild(mirrorUrl, platform, build, limits);
        downloads.mirror++;
        const kind: CompilerKind = platform === 'linux-amd64' ? 'native' : 'soljson';
        logger?.info({ version: v.long, kind, source: mirrorUrl }, 'compiler downloaded');
        return await store(kind, v, bytes);
      } catch (e) {
        if (!(e instanceof DownloadError || e instanceof ChecksumError)) throw e;
        attempts.failures.push(`mirror ${platform}: ${e.message}`);
        logger?.warn({ version: v.long, err: e.message }, 'compiler download from mirror failed');
      }
    }
    return null;
  }

  async function fromNpm(v: CompilerVersion, attempts: Attempts): Promise<ResolvedCompiler | null> {
    if (!npmRegistryUrl || v.nightly) return null;
    // The package named after a release does not always hold it (solc@0.8.7 holds 0.7.5).
    const known = releases.lookup(v.version);
    if (known && known.npmPackage === null) {
      attempts.npmDefinitive = true;
      return null;
    }
    const packageVersion = known?.npmPackage ?? v.version;
    let soljson: Buffer | null;
    try {
      soljson = await fetchNpmSoljson(npmRegistryUrl, packageVersion, limits);
    } catch (e) {
      if (!(e instanceof DownloadError || e instanceof ChecksumError)) throw e;
      attempts.failures.push(`npm: ${e.message}`);
      return null;
    }
    if (soljson === null) {
      attempts.npmDefinitive = true;
      return null;
    }
    downloads.npm++;
    // The npm package name carries no commit: ask the compiler itself before trusting it.
    await mkdir(cacheDir, { recursive: true });
    const temp = join(cacheDir, `.partial-${randomBytes(8).toString('hex')}.js`);
    try {
      await writeFile(temp, soljson);
      let reported: string;
      try {
        reported = await pool.readSoljsonVersion(temp);
      } catch (e) {
        attempts.failures.push(`npm: solc@${packageVersion} could not be loaded: ${(e as Error).message}`);
        return null;
      }
      const actual = parseCompilerVersion(longVersionFromReported(reported) ?? '');
      if (!actual) {
        attempts.failures.push(`npm: solc@${packageVersion} reports an unreadable version "${reported.slice(0, 80)}"`);
        return null;
      }
      await rename(temp, join(cacheDir, compilerFileName('soljson', actual)));
      logger?.info({ version: actual.long, kind: 'soljson', source: npmRegistryUrl, package: `solc@${packageVersion}` }, 'compiler downloaded');
      if (actual.version === v.version) releases.learn(actual.long, packageVersion);
      if (actual.long !== v.long) {
        attempts.npmDefinitive = true;
        return null;
      }
      return { kind: 'soljson', path: join(cacheDir, compilerFileName('soljson', actual)), longVersion: actual.long };
    } finally {
      await rm(temp, { force: true });
    }
  }

  async function download(v: CompilerVersion): Promise<ResolvedCompiler> {
    const attempts: Attempts = { failures: [], npmDefinitive: false };
    const found = (await fromMirror(v, attempts)) ?? (await fromNpm(v, attempts));
    if (found) return found;
    // npm carries every release, so its "no" settles a release even when the mirror is down.
    const settled = attempts.failures.length === 0 || (attempts.npmDefinitive && !v.nightly);
    if (!settled) {
      throw new SolproofError('compiler_download_failed', `Compiler version v${v.long} could not be downloaded; try again later`, {
        retryable: true,
        details: { version: v.long, failures: attempts.failures },
      });
    }
    const error = versionNotFound(v.long);
    if (notFound.size >= NOT_FOUND_MAX) notFound.delete(notFound.keys().next().value as string);
    notFound.set(v.long, { at: Date.now(), error });
    throw error;
  }

  async function resolve(version: string): Promise<ResolvedCompiler> {
    const v = parseCompilerVersion(version);
    if (!v) throw versionNotFound(String(version).slice(0, 80), 'is not a valid compiler version');
    // An invented commit for a real release is refused here, without asking any source.
    const known = releases.lookup(releaseOf(v));
    if (known && known.longVersion !== v.long) throw versionNotFound(v.long, `is not a solc release: ${v.version} is v${known.longVersion}`);
    const cached = await fromCache(v);
    if (cached) return cached;
    const miss = notFound.get(v.long);
    if (miss && Date.now() - miss.at < NOT_FOUND_TTL_MS) throw miss.error;
    let pending = inFlight.get(v.long);
    if (!pending) {
      pending = download(v).finally(() => inFlight.delete(v.long));
      inFlight.set(v.long, pending);
    }
    return pending;
  }

  async function compile(version: string, input: SolcInput): Promise<SolcOutput> {
    const resolved = await resolve(version);
    const text = JSON.stringify(input);
    const result = resolved.kind === 'native' ? await pool.compileNative(resolved.path, text) : await pool.compileSoljson(resolved.path, text);
    logger?.debug({ version: resolved.longVersion, kind: resolved.kind, loadMs: result.loadMs, compileMs: result.compileMs }, 'compiled');
    return result.output as SolcOutput;
  }

  return {
    compile,
    resolve,
    releases,
    stats: () => ({ ...pool.stats(), downloads: { ...downloads } }),
    close: () => pool.close(),
  };
}

function versionNotFound(version: string, why = 'is not available from any compiler source'): SolproofError {
  return new SolproofError('compiler_version_not_found', `Compiler version v${version.replace(/^v/, '')} ${why}`, {
    details: { version },
  });
}
