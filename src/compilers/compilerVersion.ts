/** A solc version as solc-bin names it: `0.8.26+commit.8a97fa7a`, nightlies included. */
export interface CompilerVersion {
  /** `0.8.26` */
  version: string;
  /** `8a97fa7a` */
  commit: string;
  /** `2024.5.1` for `0.8.27-nightly.2024.5.1+commit.…`; absent for releases. */
  nightly?: string;
  /** The long form without the leading `v`: `0.8.26+commit.8a97fa7a`. */
  long: string;
  major: number;
  minor: number;
  patch: number;
}

// Strict on purpose: the long form ends up in cache file names and mirror URLs.
const VERSION_RE =
  /^v?(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})(?:-nightly\.(\d{4}\.\d{1,2}\.\d{1,2}))?\+commit\.([0-9a-f]{8})$/;

/**
 * Parses a compiler version as clients send it (`v0.8.26+commit.8a97fa7a`, the `v` optional).
 * Returns null for anything else, including a version without its commit.
 */
export function parseCompilerVersion(text: string): CompilerVersion | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  const m = VERSION_RE.exec(text.trim());
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

/**
 * Reads the version a loaded compiler reports (`0.6.12+commit.27d51765.Emscripten.clang`)
 * down to the long form solc-bin uses.
 */
export function longVersionFromReported(reported: string): string | null {
  const m = /^(\d+\.\d+\.\d+(?:-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?\+commit\.[0-9a-f]{8})/.exec(reported.trim());
  return m ? m[1]! : null;
}

export type CompilerKind = 'soljson' | 'native';

/** The solc-bin file name of a build, which is also its name in the local cache. */
export function compilerFileName(kind: CompilerKind, v: CompilerVersion): string {
  return kind === 'native' ? `solc-linux-amd64-v${v.long}` : `soljson-v${v.long}.js`;
}

/** Compares two parsed versions by major.minor.patch only. */
export function compareVersions(a: Pick<CompilerVersion, 'major' | 'minor' | 'patch'>, b: Pick<CompilerVersion, 'major' | 'minor' | 'patch'>): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}
