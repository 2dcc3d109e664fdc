import { compareVersions } from './compilerVersion.js';

/** EVM versions in order, with the first solc version that accepts each (docs/matching.md, Version facts). */
const EVM_VERSIONS: ReadonlyArray<readonly [name: string, since: string]> = [
  ['homestead', '0.4.21'],
  ['tangerineWhistle', '0.4.21'],
  ['spuriousDragon', '0.4.21'],
  ['byzantium', '0.4.21'],
  ['constantinople', '0.4.21'],
  ['petersburg', '0.5.5'],
  ['istanbul', '0.5.12'],
  ['berlin', '0.8.5'],
  ['london', '0.8.7'],
  ['paris', '0.8.18'],
  ['shanghai', '0.8.20'],
  ['cancun', '0.8.24'],
  ['prague', '0.8.27'],
  ['osaka', '0.8.29'],
];

export const EVM_VERSION_NAMES: readonly string[] = EVM_VERSIONS.map(([n]) => n);

/** Canonical spelling of an EVM version name (case-insensitive), or null when unknown. */
export function canonicalEvmVersion(name: string): string | null {
  const lower = name.trim().toLowerCase();
  return EVM_VERSION_NAMES.find((n) => n.toLowerCase() === lower) ?? null;
}

/** Whether solc `version` (`0.8.26`) accepts the EVM version `name` (canonical). */
export function compilerKnowsEvmVersion(version: string, name: string): boolean {
  const entry = EVM_VERSIONS.find(([n]) => n === name);
  if (!entry) return false;
  // constantinople was added in 0.4.21 along with the setting; petersburg 0.5.5.
  return compareVersions(version, entry[1]) >= 0;
}
