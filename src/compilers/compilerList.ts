import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CompilerListing, type CompilerListSourceName, VYPER_LISTING_FIELDS, type VyperListing } from '../core/compilerListing.js';
import type { Logger } from '../core/log.js';
import { SOLC_RELEASES } from '../core/solcReleases.js';
import { buildCompilerListing, type SourceSnapshot } from './buildCompilerListing.js';
import { fetchNpmSolcVersions, type HttpLimits } from './compilerDownloads.js';
import { cachedVersions, failureText, fetchMirrorVersions } from './compilerListSources.js';
import type { ReleaseRegistry } from './releaseRegistry.js';

export interface CompilerListOptions {
  /** The compiler cache; the last lists are kept in `<cacheDir>/compiler-list.json`. */
  cacheDir: string;
  /** The solc-bin mirror; null when the service has none. */
  mirrorUrl: string | null;
  /** The npm registry; null when the service has none. */
  npmRegistryUrl: string | null;
  /** Commits and npm packages of releases; it learns the mirror's releases. */
  releases: ReleaseRegistry;
  /** The release table shipped with the service (default SOLC_RELEASES). */
  table?: ReadonlyArray<readonly [longVersion: string, npmPackage: string | null]>;
  /** Bounds of every list download. Default: 5 s to connect, 60 s in all, 64 MiB. */
  limits?: HttpLimits;
  /** A list older than this is refreshed in the background. Default 10 minutes. */
  maxAgeMs?: number;
  /** After a failed refresh, the source is not asked again for this long. Default 1 minute. */
  retryAfterMs?: number;
  /** With no list at all yet, the first answers wait this long for the first refresh. Default 5 s. */
  firstWaitMs?: number;
  now?: () => number;
  logger?: Logger | undefined;
  /** The Vyper compilers (createVyperCompiler): their releases join the list as `vyper`. */
  vyper?: { listing(): Promise<VyperListing> };
}

const FILE_NAME = 'compiler-list.json';
/** More builds than any source lists (solc-bin has a few thousand nightlies). */
const MAX_VERSIONS = 50_000;
const DEFAULT_LIMITS: HttpLimits = { connectTimeoutMs: 5_000, downloadTimeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 };

/**
 * The list of compilers the service can use. Answers at once from the last list each source
 * gave (kept in memory and in the cache directory, so a restart while the sources are down
 * still has them), and refreshes lists older than ten minutes in the background, one refresh
 * at a time. A failed refresh keeps the older list and records why.
 */
export class CompilerList {
  private readonly snapshots: Partial<Record<CompilerListSourceName, SourceSnapshot>> = {};
  private readonly file: string;
  private readonly limits: HttpLimits;
  private readonly now: () => number;
  private refreshing: Promise<void> | null = null;
  private attempted = false;

  constructor(private readonly options: CompilerListOptions) {
    this.file = join(options.cacheDir, FILE_NAME);
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.now = options.now ?? Date.now;
    const saved = readSaved(this.file);
    const urls: Record<CompilerListSourceName, string | null> = { mirror: options.mirrorUrl, npm: options.npmRegistryUrl };
    for (const name of ['mirror', 'npm'] as const) {
      const url = urls[name];
      if (!url) continue;
      // A list saved for another URL is not what this source offers.
      const kept = saved[name];
      this.snapshots[name] = kept?.url === url ? kept : { url, fetchedAt: null, versions: [] };
    }
  }

  /** The list as of now, newest first; starts a background refresh when a source's list is stale. */
  async list(): Promise<CompilerListing> {
    const refreshing = this.refreshIfStale();
    // Only a service that never had any list waits, and only for its first refresh.
    if (refreshing && !this.attempted && this.neverFetched()) await settleWithin(refreshing, this.options.firstWaitMs ?? 5_000);
    const listing = buildCompilerListing({
      lookup: this.options.releases.lookup,
      knownReleases: this.knownReleases(),
      cached: await cachedVersions(this.options.cacheDir),
      ...this.snapshots,
      now: this.now(),
    });
    if (!this.options.vyper) return listing;
    return { ...listing, vyper: await this.options.vyper.listing(), fields: { ...listing.fields, ...VYPER_LISTING_FIELDS } };
  }

  /** Starts a refresh of the stale sources unless one runs; returns the running refresh, if any. */
  refreshIfStale(): Promise<void> | null {
    if (this.refreshing) return this.refreshing;
    const stale = (Object.keys(this.snapshots) as CompilerListSourceName[]).filter((name) => this.isStale(this.snapshots[name]!));
    if (stale.length === 0) return null;
    this.refreshing = this.refresh(stale).finally(() => {
      this.refreshing = null;
      this.attempted = true;
    });
    return this.refreshing;
  }

  private isStale(s: SourceSnapshot): boolean {
    const now = this.now();
    if (s.failedAt !== undefined && now - s.failedAt < (this.options.retryAfterMs ?? 60_000)) return false;
    return s.fetchedAt === null || now - s.fetchedAt >= (this.options.maxAgeMs ?? 10 * 60_000);
  }

  private neverFetched(): boolean {
    return Object.values(this.snapshots).every((s) => s.fetchedAt === null);
  }

  /** Never rejects: each source's failure is recorded on its snapshot. */
  private async refresh(names: readonly CompilerListSourceName[]): Promise<void> {
    await Promise.all(names.map((name) => this.refreshSource(name)));
    this.save();
  }

  private async refreshSource(name: CompilerListSourceName): Promise<void> {
    const previous = this.snapshots[name]!;
    try {
      const fetched = name === 'mirror' ? await fetchMirrorVersions(previous.url, this.limits) : await fetchNpmSolcVersions(previous.url, this.limits);
      const versions = fetched.slice(0, MAX_VERSIONS);
      this.snapshots[name] = { url: previous.url, fetchedAt: this.now(), versions };
      // The mirror's list vouches for commits, as when the mirror source reads it.
      if (name === 'mirror') this.options.releases.learnMany(versions.filter((long) => !long.includes('-nightly.')));
    } catch (e) {
      const error = failureText(e);
      this.snapshots[name] = { ...previous, error, failedAt: this.now() };
      this.options.logger?.warn({ source: name, err: error }, 'compiler list refresh failed; the last list stays in use');
    }
  }

  private knownReleases(): string[] {
    const table = (this.options.table ?? SOLC_RELEASES).map(([long]) => long.slice(0, long.indexOf('+')));
    return [...table, ...this.options.releases.learnedReleases().keys()];
  }

  private save(): void {
    try {
      mkdirSync(this.options.cacheDir, { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(this.snapshots));
      renameSync(temp, this.file);
    } catch (e) {
      // The lists in memory still answer; the next refresh tries to save again.
      this.options.logger?.warn({ err: failureText(e) }, 'could not save the compiler list');
    }
  }
}

/** The snapshots saved by an earlier process; anything unreadable counts as never fetched. */
function readSaved(file: string): Partial<Record<CompilerListSourceName, SourceSnapshot>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  const saved: Partial<Record<CompilerListSourceName, SourceSnapshot>> = {};
  for (const name of ['mirror', 'npm'] as const) {
    const snapshot = snapshotFrom((parsed as Record<string, unknown> | null)?.[name]);
    if (snapshot) saved[name] = snapshot;
  }
  return saved;
}

function snapshotFrom(value: unknown): SourceSnapshot | null {
  const v = value as Partial<Record<keyof SourceSnapshot, unknown>> | null | undefined;
  if (typeof v?.url !== 'string' || !Array.isArray(v.versions) || v.versions.length > MAX_VERSIONS) return null;
  if (v.fetchedAt !== null && typeof v.fetchedAt !== 'number') return null;
  const versions = v.versions.filter((x): x is string => typeof x === 'string' && x.length <= 80);
  return {
    url: v.url,
    fetchedAt: v.fetchedAt,
    versions,
    ...(typeof v.error === 'string' ? { error: v.error.slice(0, 500) } : {}),
    ...(typeof v.failedAt === 'number' ? { failedAt: v.failedAt } : {}),
  };
}

/** Waits for `promise`, at most `ms`. */
async function settleWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
