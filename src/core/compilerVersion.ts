/**
 * Solc compiler versions, the one home of the concept: the long form clients send
 * (`v0.8.26+commit.8a97fa7a`), the numbers the version facts compare, the form a loaded
 * compiler reports, and what a submission may say.
 */
import type { ReleaseLookup } from './solcReleases.js';

/**
 * A solc version as Etherscan and its clients write it, with the leading `v`:
 * `v0.8.26+commit.8a97fa7a`. Submissions, records and answers carry this spelling; solc-bin,
 * a loaded compiler and Sourcify write the same version without the `v` (CompilerVersion.long).
 * withV and withoutV turn one into the other, so no caller strips or adds the letter by hand.
 */
export type VersionWithV = `v${string}`;

/** `version` spelled with its leading `v`, whichever way it came. */
export function withV(version: string): VersionWithV {
  return version.startsWith('v') ? (version as VersionWithV) : `v${version}`;
}

/** `version` spelled without the leading `v`, as solc-bin, a loaded compiler and Sourcify write it. */
export function withoutV(version: string): string {
  return version.startsWith('v') ? version.slice(1) : version;
}

/** The numbers of a version: enough to apply the version facts (docs/matching.md, Version facts). */
export interface VersionNumbers {
  major: number;
  minor: number;
  patch: number;
}

/** A solc version as solc-bin names it: `0.8.26+commit.8a97fa7a`, nightlies included. */
export interface CompilerVersion extends VersionNumbers {
  /** `0.8.26` */
  version: string;
  /** `8a97fa7a` */
  commit: string;
  /** `2024.5.1` for `0.8.27-nightly.2024.5.1+commit.…`; absent for releases. */
  nightly?: string;
  /** The long form without the leading `v`: `0.8.26+commit.8a97fa7a`. */
  long: string;
}

// Strict on purpose: the long form ends up in cache file names and mirror URLs.
const LONG_VERSION = /^v?(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})(?:-nightly\.(\d{4}\.\d{1,2}\.\d{1,2}))?\+commit\.([0-9a-f]{8})$/;

/**
 * Parses a compiler version in the long form (`v0.8.26+commit.8a97fa7a`, the `v` optional).
 * Returns null for anything else, including a version without its commit.
 */
export function parseCompilerVersion(text: string): CompilerVersion | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  const m = LONG_VERSION.exec(text.trim());
  if (!m) return null;
  const [, major, minor, patch, nightly, commit] = m;
  const version = `${major}.${minor}.${patch}`;
  const long = `${version}${nightly ? `-nightly.${nightly}` : ''}+commit.${commit}`;
  return {
    version,
    commit: commit!,
    ...(nightly ? { nightly } : {}),
    long,
    major: Number(major),
    minor: Number(minor),
    patch: Number(patch),
  };
}

/** The release a version belongs to: `0.8.26`, or a nightly's `0.8.27-nightly.2024.5.1`. */
export function releaseOf(v: Pick<CompilerVersion, 'version' | 'nightly'>): string {
  return v.nightly ? `${v.version}-nightly.${v.nightly}` : v.version;
}

/**
 * Reads the version a loaded compiler reports (`0.6.12+commit.27d51765.Emscripten.clang`)
 * down to the long form solc-bin uses.
 */
export function longVersionFromReported(reported: string): string | null {
  const m = /^(\d+\.\d+\.\d+(?:-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?\+commit\.[0-9a-f]{8})/.exec(reported.trim());
  return m ? m[1]! : null;
}

const NUMBERS = /^v?(\d+)\.(\d+)\.(\d+)/;

/** The numbers of `v0.8.26+commit.8a97fa7a`, `0.8.26` or a nightly's long form; null when unrecognisable. */
export function parseVersionNumbers(version: string): VersionNumbers | null {
  const m = NUMBERS.exec(version.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/** Negative, zero or positive like a sort comparator; strings are read with parseVersionNumbers. */
export function compareVersions(a: VersionNumbers | string, b: VersionNumbers | string): number {
  const x = typeof a === 'string' ? (parseVersionNumbers(a) ?? { major: 0, minor: 0, patch: 0 }) : a;
  const y = typeof b === 'string' ? (parseVersionNumbers(b) ?? { major: 0, minor: 0, patch: 0 }) : b;
  return x.major - y.major || x.minor - y.minor || x.patch - y.patch;
}

/** True when `version` is at least `min` ("0.4.7"); an unknown version counts as new. */
export function versionAtLeast(version: VersionNumbers | null, min: string): boolean {
  if (!version) return true;
  const m = parseVersionNumbers(min);
  if (!m) throw new Error(`bad version literal ${min}`);
  return compareVersions(version, m) >= 0;
}

// As clients send it: a space may stand for the `+` (a form-encoded version that was not
// escaped), and a native solc's platform suffix (`.Linux.gcc`) may follow, as forge sends it.
const SUBMITTED_VERSION =
  /^v?(\d{1,2})\.(\d{1,2})\.(\d{1,3})(-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?(?:[+ ]commit\.([0-9a-fA-F]{1,40}))?((?:\.[A-Za-z][A-Za-z0-9]{0,15}){0,3})$/;

/** A submitted version, read: its long form with `v`, and its numbers. */
export interface SubmittedVersion {
  /** `v0.8.26+commit.8a97fa7a` */
  long: VersionWithV;
  /** `0.8.26` */
  short: string;
  /** Set when the submission named a known release without its commit (`v0.8.28`): that release's commit was used. */
  commitFilledIn?: true;
}

/** Why a submitted compiler version names no compiler. */
export type SubmittedVersionProblem =
  | { problem: 'not_a_long_version'; given: string }
  /** A known release with another commit: `longVersion` is the release's own. */
  | { problem: 'not_a_release'; given: string; longVersion: VersionWithV }
  /** A release not known here, named without its whole commit. */
  | { problem: 'commit_too_short'; given: string; release: string };

/** The fewest hex digits of a shortened commit that are taken (git's short form: `87f61d9`). */
export const MIN_COMMIT_DIGITS = 7;

/**
 * Reads the compiler version of a submission: the `v` is optional, a space may stand for the
 * `+`, a platform suffix (`.Linux.gcc`) is dropped, and the commit may be shortened to
 * MIN_COMMIT_DIGITS or lengthened (`87f61d9`, `e11b9ed91234`) when it still names the commit of
 * the release, which a known release must carry: any other names no compiler, and the text
 * names the long version of that release. A known release named without any commit (`v0.8.28`)
 * is that release's one commit (`commitFilledIn`). A release not known (yet) needs at least its
 * 8-digit commit. Returns the canonical version or the problem (the edge words it).
 */
export function readSubmittedVersion(
  text: string,
  releases: ReleaseLookup = () => null,
): { ok: true; value: SubmittedVersion } | { ok: false; error: SubmittedVersionProblem } {
  const given = text.slice(0, 64);
  const invalid = { ok: false as const, error: { problem: 'not_a_long_version' as const, given } };
  const m = SUBMITTED_VERSION.exec(text.trim());
  if (!m) return invalid;
  const short = `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}`;
  const release = `${short}${m[4] ?? ''}`;
  const commit = m[5]?.toLowerCase();
  const known = releases(release);
  if (known) {
    const knownCommit = known.longVersion.slice(known.longVersion.indexOf('commit.') + 7);
    if (commit !== undefined && sameCommit(commit, knownCommit)) return { ok: true, value: { long: withV(known.longVersion), short } };
    // A release has one commit: a version without one names it (the answer says which was used).
    if (commit === undefined) return { ok: true, value: { long: withV(known.longVersion), short, commitFilledIn: true } };
    return { ok: false, error: { problem: 'not_a_release', given, longVersion: withV(known.longVersion) } };
  }
  if (commit === undefined || commit.length < 8) return { ok: false, error: { problem: 'commit_too_short', given, release } };
  return { ok: true, value: { long: `v${release}+commit.${commit.slice(0, 8)}`, short } };
}

/** True when `given` is `known` shortened (to MIN_COMMIT_DIGITS at least) or lengthened. */
function sameCommit(given: string, known: string): boolean {
  if (given.length >= known.length) return given.startsWith(known);
  return given.length >= MIN_COMMIT_DIGITS && known.startsWith(given);
}
