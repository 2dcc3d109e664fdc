import {
  COMPILER_LISTING_FIELDS,
  type CompilerBuild,
  type CompilerBuildSource,
  type CompilerListing,
  type CompilerListSourceName,
  type CompilerListSourceState,
} from '../core/compilerListing.js';
import {
  type CompilerVersion,
  compareVersions,
  parseCompilerVersion,
  parseVersionNumbers,
  releaseOf,
  type VersionNumbers,
  withV,
} from '../core/compilerVersion.js';
import type { ReleaseLookup } from '../core/solcReleases.js';

/** The oldest compiler the service accepts (submissions before it are refused). */
const OLDEST: VersionNumbers = { major: 0, minor: 4, patch: 11 };
const SOURCE_ORDER: readonly CompilerBuildSource[] = ['cache', 'mirror', 'npm'];

/** The last version list one source gave, and how its last refresh went. */
export interface SourceSnapshot {
  url: string;
  /** Epoch ms of the list in `versions`; null when never fetched. */
  fetchedAt: number | null;
  /** Long versions for the mirror, npm versions of `solc` (`0.8.7-fixed`) for npm. */
  versions: readonly string[];
  /** Why the last refresh failed, and when (epoch ms). */
  error?: string;
  failedAt?: number;
}

export interface ListingInputs {
  /** Which commit and npm package each release has (the release registry). */
  lookup: ReleaseLookup;
  /** The releases `lookup` knows: the shipped table's and the learned ones. */
  knownReleases: Iterable<string>;
  /** Long versions in the compiler cache. */
  cached: readonly string[];
  /** Absent when the service is configured without that source. */
  mirror?: SourceSnapshot;
  npm?: SourceSnapshot;
  now: number;
}

interface Entry {
  version: string;
  longVersion: string | null;
  numbers: VersionNumbers;
  /** A nightly's date as numbers (`2024.5.1`); null for a release. */
  nightlyDate: number[] | null;
  known: boolean;
  sources: Set<CompilerBuildSource>;
  npmPackage: string | null;
}

/**
 * Puts the known releases, the cache and the sources' last lists together: one build per
 * release (or nightly) from v0.4.11 on, newest first. A build whose commit contradicts a known
 * release is left out, and an npm version counts for the release the table says it holds,
 * never for the one its name says.
 */
export function buildCompilerListing(inputs: ListingInputs): CompilerListing {
  const entries = new Map<string, Entry>();
  const entryOf = (v: CompilerVersion): Entry | null => {
    if (compareVersions(v, OLDEST) < 0) return null;
    const release = releaseOf(v);
    const known = inputs.lookup(release);
    if (known && known.longVersion !== v.long) return null;
    const existing = entries.get(release);
    if (existing) return existing.longVersion === v.long ? existing : null;
    const entry = newEntry(release, v.long, v, v.nightly);
    entries.set(release, entry);
    return entry;
  };

  for (const release of inputs.knownReleases) {
    const known = inputs.lookup(release);
    const v = known ? parseCompilerVersion(known.longVersion) : null;
    const entry = v && releaseOf(v) === release ? entryOf(v) : null;
    if (!entry) continue;
    entry.known = true;
    entry.npmPackage = known!.npmPackage;
  }
  const mark = (longs: readonly string[], source: CompilerBuildSource): void => {
    for (const long of longs) {
      const v = parseCompilerVersion(long);
      if (v) entryOf(v)?.sources.add(source);
    }
  };
  mark(inputs.cached, 'cache');
  mark(inputs.mirror?.versions ?? [], 'mirror');
  markNpm(entries, inputs);

  const builds = [...entries.values()].sort(newestFirst).map(toBuild);
  const sources: CompilerListing['sources'] = {};
  for (const name of ['mirror', 'npm'] as const) {
    const snapshot = inputs[name];
    if (snapshot) sources[name] = sourceState(snapshot, builds, name, inputs.now);
  }
  return { builds, sources, generatedAt: new Date(inputs.now).toISOString(), fields: COMPILER_LISTING_FIELDS };
}

/** Adds npm to the release each listed npm version really holds. */
function markNpm(entries: Map<string, Entry>, inputs: ListingInputs): void {
  if (!inputs.npm) return;
  const holder = new Map<string, string>();
  for (const [release, entry] of entries) if (entry.known && entry.npmPackage) holder.set(entry.npmPackage, release);
  for (const npmVersion of inputs.npm.versions) {
    const release = holder.get(npmVersion) ?? unknownReleaseNamed(npmVersion, inputs.lookup);
    if (!release) continue;
    let entry = entries.get(release);
    if (!entry) {
      const numbers = parseVersionNumbers(release)!;
      if (compareVersions(numbers, OLDEST) < 0) continue;
      // A release newer than the table: its commit is known once a compiler of it is loaded.
      entry = newEntry(release, null, numbers, undefined);
      entries.set(release, entry);
    }
    entry.sources.add('npm');
    entry.npmPackage ??= npmVersion;
  }
}

/**
 * The release an npm version holds when the table has nothing to say: a plain `X.Y.Z` the
 * table does not know. A known release's package is the one the table names, so any other
 * npm version named after it (solc@0.8.7 holds 0.7.5) holds something else.
 */
function unknownReleaseNamed(npmVersion: string, lookup: ReleaseLookup): string | null {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(npmVersion);
  if (!m) return null;
  const release = `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}`;
  return lookup(release) ? null : release;
}

// A republished release: `0.8.7-fixed` (a word, not a prerelease like `0.9.0-beta.1`).
const REPUBLISHED_SUFFIX = /^-[a-z]{1,20}$/;

/**
 * The npm `solc` versions that may hold `release` (`0.8.7`), best first. A release the table
 * knows is held by the package it names, and by none when it names none (solc@0.8.7 holds
 * 0.7.5; solc@0.8.7-fixed holds 0.8.7). A release the table does not know may be held by the
 * version named after it, else by a republished one of the `listed` npm versions
 * (`0.9.1-fixed`). Only the version a loaded compiler reports says what a package holds.
 */
export function npmPackagesFor(release: string, lookup: ReleaseLookup, listed: readonly string[] = []): string[] {
  if (!/^\d+\.\d+\.\d+$/.test(release)) return [];
  const known = lookup(release);
  if (known) return known.npmPackage === null ? [] : [known.npmPackage];
  const republished = listed.filter((v) => v.startsWith(`${release}-`) && REPUBLISHED_SUFFIX.test(v.slice(release.length))).sort();
  return [release, ...republished];
}

function newEntry(version: string, longVersion: string | null, numbers: VersionNumbers, nightly: string | undefined): Entry {
  return {
    version,
    longVersion,
    numbers: { major: numbers.major, minor: numbers.minor, patch: numbers.patch },
    nightlyDate: nightly ? nightly.split('.').map(Number) : null,
    known: false,
    sources: new Set(),
    npmPackage: null,
  };
}

/** Higher versions first; a release before the nightlies of its version (they led up to it), newer nightlies first. */
function newestFirst(a: Entry, b: Entry): number {
  const byNumbers = compareVersions(b.numbers, a.numbers);
  if (byNumbers !== 0) return byNumbers;
  if (!a.nightlyDate || !b.nightlyDate) return (a.nightlyDate ? 1 : 0) - (b.nightlyDate ? 1 : 0);
  for (let i = 0; i < 3; i++) {
    const d = (b.nightlyDate[i] ?? 0) - (a.nightlyDate[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function toBuild(e: Entry): CompilerBuild {
  return {
    version: e.version,
    longVersion: e.longVersion,
    compilerVersion: e.longVersion ? withV(e.longVersion) : null,
    nightly: e.nightlyDate !== null,
    known: e.known,
    cached: e.sources.has('cache'),
    sources: SOURCE_ORDER.filter((s) => e.sources.has(s)),
    npmPackage: e.npmPackage,
  };
}

function sourceState(s: SourceSnapshot, builds: readonly CompilerBuild[], name: CompilerListSourceName, now: number): CompilerListSourceState {
  return {
    url: s.url,
    fetchedAt: s.fetchedAt === null ? null : new Date(s.fetchedAt).toISOString(),
    ageSeconds: s.fetchedAt === null ? null : Math.max(0, Math.floor((now - s.fetchedAt) / 1000)),
    builds: builds.filter((b) => b.sources.includes(name)).length,
    ...(s.error !== undefined ? { error: s.error, ...(s.failedAt !== undefined ? { failedAt: new Date(s.failedAt).toISOString() } : {}) } : {}),
  };
}
