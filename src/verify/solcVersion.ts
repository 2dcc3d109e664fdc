/** The numeric part of a solc version, enough to apply the version facts of matching.md. */
export interface SolcVersion {
  major: number;
  minor: number;
  patch: number;
}

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)/;

/** Parses `v0.8.26+commit.8a97fa7a`, `0.8.26` or a nightly long form; null when unrecognisable. */
export function parseSolcVersion(version: string): SolcVersion | null {
  const m = VERSION.exec(version.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/** Negative, zero or positive like a sort comparator. */
export function compareSolcVersion(a: SolcVersion, b: SolcVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** True when `version` is at least `min` ("0.4.7"); unknown versions count as new. */
export function solcAtLeast(version: SolcVersion | null, min: string): boolean {
  if (!version) return true;
  const m = parseSolcVersion(min);
  if (!m) throw new Error(`bad version literal ${min}`);
  return compareSolcVersion(version, m) >= 0;
}
