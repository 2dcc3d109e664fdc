/**
 * Where compilers come from when the cache does not have them: a solc-bin mirror (its lists
 * carry checksums; native builds where listed) and the npm registry (its packages carry
 * integrity hashes, and the compiler inside is asked its own version).
 */
import { rename, rm } from 'node:fs/promises';
import { type CompilerVersion, compareVersions, longVersionFromReported, parseCompilerVersion } from '../core/compilerVersion.js';
import type { Logger } from '../core/log.js';
import { npmPackagesFor } from './buildCompilerListing.js';
import type { CompilerCache, ResolvedCompiler } from './compilerCache.js';
import {
  ChecksumError,
  DownloadError,
  downloadSolcBinBuild,
  fetchNpmSolcVersions,
  fetchNpmSoljson,
  fetchSolcBinList,
  type HttpLimits,
  type SolcBinBuild,
  type SolcBinPlatform,
} from './compilerDownloads.js';
import type { CompilerKind } from './compilerFileName.js';
import type { ReleaseRegistry } from './releaseRegistry.js';

/** What the sources said about one version, so "no such version" is told apart from "could not ask". */
export interface SourceAttempts {
  /** Why a source could not answer (unreachable, failed checksum, unloadable build). */
  failures: string[];
  /** A source that holds every release answered: it has no such release, or only another commit. */
  definitive: boolean;
}

/** One place compilers are downloaded from into the cache. */
export interface CompilerSource {
  readonly name: 'mirror' | 'npm';
  /** Downloads and checks `v` into the cache; null when this source does not have it (see `attempts`). */
  fetch(v: CompilerVersion, attempts: SourceAttempts): Promise<ResolvedCompiler | null>;
}

export interface SourceDeps {
  cache: CompilerCache;
  releases: ReleaseRegistry;
  limits: HttpLimits;
  /** Whether a native build may be used for `v`. */
  nativeAllowed(v: CompilerVersion): boolean;
  /** Called for every build downloaded (for the counters). */
  downloaded(source: 'mirror' | 'npm'): void;
  logger?: Logger | undefined;
}

const LIST_TTL_MS = 10 * 60_000;
const LIST_FAILURE_TTL_MS = 60_000;

type ListEntry = { at: number; builds: Map<string, SolcBinBuild> | null } | { at: number; error: DownloadError };

/** A solc-bin mirror: its `list.json` files (kept 10 minutes, a failure 1 minute), then the build, sha256-checked. */
export function mirrorSource(url: string, deps: SourceDeps): CompilerSource {
  const lists = new Map<SolcBinPlatform, ListEntry>();

  async function list(platform: SolcBinPlatform): Promise<Map<string, SolcBinBuild> | null> {
    const cached = lists.get(platform);
    const now = Date.now();
    if (cached && 'error' in cached && now - cached.at < LIST_FAILURE_TTL_MS) throw cached.error;
    if (cached && 'builds' in cached && now - cached.at < LIST_TTL_MS) return cached.builds;
    try {
      const builds = await fetchSolcBinList(url, platform, deps.limits);
      lists.set(platform, { at: now, builds });
      if (builds) deps.releases.learnMany([...builds.keys()].filter((long) => !long.includes('-nightly.')));
      return builds;
    } catch (e) {
      const error = e instanceof DownloadError ? e : new DownloadError(String(e), { cause: e });
      lists.set(platform, { at: now, error });
      throw error;
    }
  }

  return {
    name: 'mirror',
    async fetch(v, attempts) {
      const platforms: SolcBinPlatform[] = deps.nativeAllowed(v) ? ['linux-amd64', 'wasm', 'bin'] : ['wasm', 'bin'];
      for (const platform of platforms) {
        let builds: Map<string, SolcBinBuild> | null;
        try {
          builds = await list(platform);
        } catch (e) {
          attempts.failures.push(`mirror ${platform}/list.json: ${(e as Error).message}`);
          // An unreachable mirror will not answer for the other lists either.
          if (e instanceof DownloadError && e.unreachable) return null;
          continue;
        }
        const build = builds?.get(v.long);
        if (!build) continue;
        try {
          const bytes = await downloadSolcBinBuild(url, platform, build, deps.limits);
          deps.downloaded('mirror');
          const kind: CompilerKind = platform === 'linux-amd64' ? 'native' : 'soljson';
          deps.logger?.info({ version: v.long, kind, source: url }, 'compiler downloaded');
          return await deps.cache.store(kind, v, bytes);
        } catch (e) {
          if (!(e instanceof DownloadError || e instanceof ChecksumError)) throw e;
          attempts.failures.push(`mirror ${platform}: ${e.message}`);
          deps.logger?.warn({ version: v.long, err: e.message }, 'compiler download from mirror failed');
        }
      }
      return null;
    },
  };
}

/**
 * The npm registry's `solc` packages (releases only). The package named after a release does
 * not always hold it (solc@0.8.7 holds 0.7.5), so the packages to try come from npmPackagesFor
 * (the release table, and for a release it does not know the registry's own list of versions),
 * and the loaded compiler's own version decides what was downloaded.
 */
export function npmSource(registry: string, deps: SourceDeps & { readSoljsonVersion(path: string): Promise<string> }): CompilerSource {
  /** Fetches one package into the cache under the version its compiler reports; null when it could not. */
  async function load(packageVersion: string, attempts: SourceAttempts): Promise<CompilerVersion | 'absent' | null> {
    let soljson: Buffer | null;
    try {
      soljson = await fetchNpmSoljson(registry, packageVersion, deps.limits);
    } catch (e) {
      if (!(e instanceof DownloadError || e instanceof ChecksumError)) throw e;
      attempts.failures.push(`npm: ${e.message}`);
      return null;
    }
    if (soljson === null) return 'absent';
    deps.downloaded('npm');
    const temp = await deps.cache.writeTemp(soljson);
    try {
      let reported: string;
      try {
        reported = await deps.readSoljsonVersion(temp);
      } catch (e) {
        attempts.failures.push(`npm: solc@${packageVersion} could not be loaded: ${(e as Error).message}`);
        return null;
      }
      const actual = parseCompilerVersion(longVersionFromReported(reported) ?? '');
      if (!actual) {
        attempts.failures.push(`npm: solc@${packageVersion} reports an unreadable version "${reported.slice(0, 80)}"`);
        return null;
      }
      // What npm really has is kept under its real name.
      await rename(temp, deps.cache.pathOf('soljson', actual));
      deps.logger?.info({ version: actual.long, kind: 'soljson', source: registry, package: `solc@${packageVersion}` }, 'compiler downloaded');
      return actual;
    } finally {
      await rm(temp, { force: true });
    }
  }

  return {
    name: 'npm',
    async fetch(v, attempts) {
      if (v.nightly) return null;
      const lookup = deps.releases.npmLookup;
      const tried = new Set<string>();
      let candidates = npmPackagesFor(v.version, lookup);
      let listAsked = lookup(v.version) !== null;
      let answered = true;
      for (let i = 0; ; i++) {
        if (i === candidates.length) {
          // The version named after an unknown release held another: the registry's list may
          // have it republished (`0.9.1-fixed`).
          if (listAsked || !answered) break;
          listAsked = true;
          try {
            candidates = npmPackagesFor(v.version, lookup, await fetchNpmSolcVersions(registry, deps.limits)).filter((p) => !tried.has(p));
          } catch (e) {
            if (!(e instanceof DownloadError)) throw e;
            attempts.failures.push(`npm: ${e.message}`);
            answered = false;
            break;
          }
          i = -1;
          continue;
        }
        const packageVersion = candidates[i]!;
        tried.add(packageVersion);
        const actual = await load(packageVersion, attempts);
        if (actual === null) {
          answered = false;
          continue;
        }
        if (actual === 'absent') continue;
        if (compareVersions(actual, v) === 0) deps.releases.learn(actual.long, packageVersion);
        if (actual.long === v.long) return { kind: 'soljson', path: deps.cache.pathOf('soljson', actual), longVersion: actual.long };
        // This package holds the release with another commit: the release is settled.
        if (compareVersions(actual, v) === 0) break;
      }
      // Every package that may hold it answered, and none holds this version.
      if (answered) attempts.definitive = true;
      return null;
    },
  };
}
