import { existsSync } from 'node:fs';
import { type CompilerVersion, parseCompilerVersion, releaseOf } from '../core/compilerVersion.js';
import { SolproofError } from '../core/errors.js';
import type { CompilerCache, ResolvedCompiler } from './compilerCache.js';
import type { CompilerKind } from './compilerFileName.js';
import type { CompilerSource, SourceAttempts } from './compilerSources.js';
import type { ReleaseRegistry } from './releaseRegistry.js';

const NOT_FOUND_TTL_MS = 10 * 60_000;
const NOT_FOUND_MAX = 1000;

/**
 * Finds a compiler version: in the cache, else from the sources in order, with one download
 * per version however many ask at once, and a remembered "no such version" (ten minutes, a
 * thousand versions). A known release with another commit is refused without asking anyone.
 */
export class DownloadCache {
  private readonly inFlight = new Map<string, Promise<ResolvedCompiler>>();
  private readonly notFound = new Map<string, { at: number; error: SolproofError }>();
  /**
   * Versions found in the cache before, by long version. A verification asks for its compiler
   * while its own chain reads keep the event loop busy: an asynchronous check of the file then
   * waits behind them, where a stat of a path already known takes microseconds.
   */
  private readonly found = new Map<string, ResolvedCompiler>();

  constructor(
    private readonly cache: CompilerCache,
    private readonly sources: readonly CompilerSource[],
    private readonly releases: ReleaseRegistry,
    /** The cached kinds to use for `v`, best first. */
    private readonly kindsFor: (v: CompilerVersion) => readonly CompilerKind[],
  ) {}

  /**
   * The cached compiler of `version` (long form), downloading it when needed. Throws
   * SolproofError `compiler_version_not_found`, or `compiler_download_failed` (retryable)
   * when no source could be asked.
   */
  async resolve(version: string): Promise<ResolvedCompiler> {
    const v = parseCompilerVersion(version);
    if (!v) throw new SolproofError('compiler_version_not_found', { version: String(version).slice(0, 80), why: 'not_a_version' });
    const known = this.releases.lookup(releaseOf(v));
    if (known && known.longVersion !== v.long) {
      throw new SolproofError('compiler_version_not_found', { version: v.long, why: 'not_a_release', release: v.version, longVersion: known.longVersion });
    }
    const seen = this.found.get(v.long);
    if (seen && existsSync(seen.path)) return seen;
    const cached = await this.cache.find(v, this.kindsFor(v));
    if (cached) {
      this.found.set(v.long, cached);
      return cached;
    }
    const miss = this.notFound.get(v.long);
    if (miss && Date.now() - miss.at < NOT_FOUND_TTL_MS) throw miss.error;
    let pending = this.inFlight.get(v.long);
    if (!pending) {
      pending = this.download(v).finally(() => this.inFlight.delete(v.long));
      this.inFlight.set(v.long, pending);
    }
    return pending;
  }

  private async download(v: CompilerVersion): Promise<ResolvedCompiler> {
    const attempts: SourceAttempts = { failures: [], definitive: false };
    for (const source of this.sources) {
      const found = await source.fetch(v, attempts);
      if (found) return found;
    }
    // npm carries every release, so its "no" settles a release even when the mirror is down.
    const settled = attempts.failures.length === 0 || (attempts.definitive && !v.nightly);
    if (!settled) {
      throw new SolproofError('compiler_download_failed', { version: v.long, failures: attempts.failures }, { retryable: true });
    }
    const error = new SolproofError('compiler_version_not_found', { version: v.long, why: 'not_available' });
    if (this.notFound.size >= NOT_FOUND_MAX) this.notFound.delete(this.notFound.keys().next().value as string);
    this.notFound.set(v.long, { at: Date.now(), error });
    throw error;
  }
}
