/**
 * Vyper compiler versions, the one home of the concept. Vyper names a release the PEP 440 way
 * (`0.4.1`, `0.4.1rc2`, `0.4.1b1`); clients spell it in several ways, all read here:
 * Etherscan `vyper:0.4.1`, Sourcify `0.4.1b1+commit.039d3692`, Blockscout
 * `v0.4.1-rc2+commit.305813c9`, the compiler itself `0.4.0+commit.e9db8d9` (seven digits of the
 * commit), old tags `0.1.0-beta.16`. The long form the service keeps is the release and the
 * eight-digit commit its release binary is named with: `0.4.1rc2+commit.305813c9`.
 */
import { compareVersions, type VersionNumbers } from './compilerVersion.js';
import { VYPER_RELEASES } from './vyperReleases.js';

/** A Vyper version: the release, its numbers, and the commit when one was named. */
export interface VyperVersion extends VersionNumbers {
  /** `0.4.1`, `0.4.1rc2`, `0.1.0b16` */
  release: string;
  /** `rc2`, `b1`; null for a final release. */
  prerelease: string | null;
  /** Lower-case hex as given (7 to 40 digits); null when none was named. */
  commit: string | null;
  /** `0.4.1rc2+commit.305813c9`, or the release alone when no commit was named. */
  long: string;
}

// `vyper:` (Etherscan) or `v` (tags), the numbers, a prerelease as PEP 440 (`rc2`, `b1`, `a3`)
// or as the old tags wrote it (`-rc2`, `-beta.16`, `.rc2`), then an optional commit and the
// platform suffix of a release binary's name (`.linux`, `.darwin`, `.windows.exe`).
const VYPER_VERSION =
  /^(?:vyper[:.-]?|v)?(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})(?:[-.]?(a|b|rc|alpha|beta)\.?(\d{1,3}))?(?:[+ ]commit\.([0-9a-fA-F]{7,40}))?(?:\.(?:linux|darwin|windows(?:\.exe)?))?$/;

const PRERELEASE_KINDS: Record<string, string> = { a: 'a', alpha: 'a', b: 'b', beta: 'b', rc: 'rc' };

/** Reads any spelling of a Vyper version (see the module comment); null for anything else. */
export function parseVyperVersion(text: string): VyperVersion | null {
  if (typeof text !== 'string' || text.length > 80) return null;
  const m = VYPER_VERSION.exec(text.trim());
  if (!m) return null;
  const [, major, minor, patch, kind, number, commit] = m;
  const prerelease = kind ? `${PRERELEASE_KINDS[kind.toLowerCase()]}${Number(number)}` : null;
  const release = `${major}.${minor}.${patch}${prerelease ?? ''}`;
  const hex = commit?.toLowerCase() ?? null;
  return {
    release,
    prerelease,
    commit: hex,
    long: hex ? `${release}+commit.${hex}` : release,
    major: Number(major),
    minor: Number(minor),
    patch: Number(patch),
  };
}

/** True when the text names Vyper on its face (`vyper:0.4.0`): no solc version is spelled that way. */
export function namesVyper(text: string): boolean {
  return /^\s*vyper[:-]/i.test(text);
}

/** A release the table knows: its eight-digit commit. */
export type VyperReleaseLookup = (release: string) => string | null;

const KNOWN = new Map<string, string>(VYPER_RELEASES);

/** The commit of a release in the table shipped with the service. */
export const knownVyperRelease: VyperReleaseLookup = (release) => KNOWN.get(release) ?? null;

/** Why a submitted version names no Vyper compiler. */
export type SubmittedVyperVersionProblem =
  /** Not a version at all. */
  | { problem: 'not_a_vyper_version'; given: string }
  /** A known release named with another commit: `longVersion` is the release's own. */
  | { problem: 'not_a_vyper_release'; given: string; longVersion: string }
  /** A release the table does not know, named without its commit. */
  | { problem: 'vyper_commit_needed'; given: string; release: string }
  /** A solc release (by its commit): a Solidity compiler named for Vyper sources. */
  | { problem: 'solc_version_for_vyper'; given: string };

/** A submitted Vyper version, read. */
export interface SubmittedVyperVersion {
  /** `0.4.1+commit.8a93dd27` */
  long: string;
  /** `0.4.1` */
  release: string;
  /** Set when the submission named a known release without its commit (`vyper:0.4.1`): that release's commit was used. */
  commitFilledIn?: true;
}

/**
 * Reads the compiler version of a Vyper submission in any client's spelling. A known release
 * is taken without a commit (its one commit is filled in) or with its own commit, shortened to
 * seven digits or not; another commit names no release. A release not in the table needs at
 * least seven digits of its commit. `isSolcCommit` tells a solc version apart (the numbers
 * overlap: solc 0.4.0 and Vyper 0.4.0), so that the answer can say which compiler was named.
 */
export function readSubmittedVyperVersion(
  text: string,
  options: { lookup?: VyperReleaseLookup; isSolcCommit?: (version: string, commit: string) => boolean } = {},
): { ok: true; value: SubmittedVyperVersion } | { ok: false; error: SubmittedVyperVersionProblem } {
  const given = String(text).slice(0, 80);
  const v = parseVyperVersion(text);
  if (!v) return { ok: false, error: { problem: 'not_a_vyper_version', given } };
  const lookup = options.lookup ?? knownVyperRelease;
  const known = lookup(v.release);
  if (known) {
    if (v.commit === null) return { ok: true, value: { long: `${v.release}+commit.${known}`, release: v.release, commitFilledIn: true } };
    if (sameCommit(v.commit, known)) return { ok: true, value: { long: `${v.release}+commit.${known}`, release: v.release } };
    if (options.isSolcCommit?.(`${v.major}.${v.minor}.${v.patch}`, v.commit)) return { ok: false, error: { problem: 'solc_version_for_vyper', given } };
    return { ok: false, error: { problem: 'not_a_vyper_release', given, longVersion: `${v.release}+commit.${known}` } };
  }
  if (v.commit !== null && v.prerelease === null && options.isSolcCommit?.(v.release, v.commit)) {
    return { ok: false, error: { problem: 'solc_version_for_vyper', given } };
  }
  if (v.commit === null) return { ok: false, error: { problem: 'vyper_commit_needed', given, release: v.release } };
  return { ok: true, value: { long: `${v.release}+commit.${v.commit.slice(0, 8)}`, release: v.release } };
}

/** True when `given` is `known` shortened (to seven digits at least) or lengthened. */
export function sameCommit(given: string, known: string): boolean {
  const a = given.toLowerCase();
  const b = known.toLowerCase();
  if (a.length >= b.length) return a.startsWith(b);
  return a.length >= 7 && b.startsWith(a);
}

/** `vyper:0.4.1`: how Etherscan spells a Vyper compiler (getsourcecode's CompilerVersion, the compiler list). */
export function etherscanVyperVersion(v: Pick<VyperVersion, 'release'>): string {
  return `vyper:${v.release}`;
}

/**
 * How a release ends its code, by its numbers (a prerelease counts as its release: 0.4.1b1
 * already writes the integrity hash, 0.3.10rc1 the array):
 * - `none` before 0.3.4: no auxdata at all;
 * - `version` 0.3.4: the runtime code ends with the CBOR map `{"vyper": [0, 3, 4]}`, no length;
 * - `version_length` 0.3.5 to 0.3.9: the same map followed by its two-byte length;
 * - `array` 0.3.10 and 0.4.0: the runtime code has none; the init code ends with the CBOR array
 *   `[runtime size, data section sizes, immutables size, {"vyper": [...]}]` and a two-byte
 *   length that counts itself;
 * - `integrity` from 0.4.1: the same array with the integrity hash first, a sha256 of every
 *   source the compile read (see vyperIntegrity in verify/).
 */
export type VyperAuxdataEra = 'none' | 'version' | 'version_length' | 'array' | 'integrity';

export function vyperAuxdataEra(v: VersionNumbers): VyperAuxdataEra {
  const n = v.major * 1_000_000 + v.minor * 1000 + v.patch;
  if (n < 3004) return 'none';
  if (n < 3005) return 'version';
  if (n < 3010) return 'version_length';
  if (n < 4001) return 'array';
  return 'integrity';
}

/** Immutables exist from 0.3.7 on: the constructor writes their values after the runtime code. */
export function vyperHasImmutables(v: VersionNumbers): boolean {
  return v.major > 0 || v.minor > 3 || (v.minor === 3 && v.patch >= 7);
}

/**
 * `optimize` in the standard JSON input: a mode (`gas`, `codesize`, `none`) from 0.3.10, a
 * boolean before (the mode replaced it; a boolean is still read, as deprecated, by 0.4).
 */
export function vyperOptimizeIsMode(v: VersionNumbers): boolean {
  return v.major > 0 || v.minor > 3 || (v.minor === 3 && v.patch >= 10);
}

/** The oldest release whose binary reads a standard JSON input (`vyper --standard-json`): older ones are refused. */
export const OLDEST_VYPER: VersionNumbers = { major: 0, minor: 2, patch: 5 };

/** True from OLDEST_VYPER on. */
export function isSupportedVyper(v: VersionNumbers): boolean {
  return compareVersions(v, OLDEST_VYPER) >= 0;
}

/** Negative, zero or positive like a sort comparator: numbers first, then a prerelease before its release (a < b < rc). */
export function compareVyperVersions(a: VyperVersion, b: VyperVersion): number {
  const byNumbers = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (byNumbers !== 0) return byNumbers;
  return prereleaseRank(a.prerelease) - prereleaseRank(b.prerelease);
}

function prereleaseRank(pre: string | null): number {
  if (pre === null) return 1_000_000;
  const m = /^(a|b|rc)(\d+)$/.exec(pre);
  if (!m) return 0;
  return { a: 0, b: 1000, rc: 2000 }[m[1] as 'a' | 'b' | 'rc'] + Number(m[2]);
}
