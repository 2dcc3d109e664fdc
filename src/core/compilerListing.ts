/**
 * The published list of compilers (`/compilers.json`, the `/compilers` page): which solc builds
 * the service can use, where each comes from, and how old the sources' data is. Built in
 * compilers/, shown by web/; the field texts below are served in the JSON and on the API page.
 */

/** Where a build can be had: already in the local cache, or downloadable from a source. */
export type CompilerBuildSource = 'cache' | 'mirror' | 'npm';

/** A configured compiler source whose version list is fetched. */
export type CompilerListSourceName = 'mirror' | 'npm';

/** One solc build (a release or a nightly) from v0.4.11 on. */
export interface CompilerBuild {
  /** `0.8.26`, or a nightly's `0.8.27-nightly.2024.5.1` */
  version: string;
  /** `0.8.26+commit.8a97fa7a`; null when no source has told the commit yet */
  longVersion: string | null;
  /** `v0.8.26+commit.8a97fa7a`: what to send as `compilerversion`; null like longVersion */
  compilerVersion: string | null;
  nightly: boolean;
  /** In the release table shipped with the service, or learned from a source since. */
  known: boolean;
  /** In this service's compiler cache: no download needed. */
  cached: boolean;
  /** In the order cache, mirror, npm; empty when the last data of every source lacks it and it is not cached. */
  sources: CompilerBuildSource[];
  /** The npm `solc` version that holds this release (not always the one named after it); null when none does. */
  npmPackage: string | null;
}

/** How fresh one source's data is. */
export interface CompilerListSourceState {
  url: string;
  /** When the list in use was fetched (ISO 8601); null when it never was. */
  fetchedAt: string | null;
  /** Seconds since fetchedAt at generatedAt; null when never fetched. */
  ageSeconds: number | null;
  /** Builds from v0.4.11 on that this source's list in use offers. */
  builds: number;
  /** Why the last refresh failed (the older list stays in use); absent after a successful one. */
  error?: string;
  /** When the last refresh failed (ISO 8601); only with error. */
  failedAt?: string;
}

/** The whole list, newest first. */
export interface CompilerListing {
  builds: CompilerBuild[];
  /** One entry per configured source; a source the service is configured without is absent. */
  sources: Partial<Record<CompilerListSourceName, CompilerListSourceState>>;
  /** When this answer was put together (ISO 8601). */
  generatedAt: string;
  /** What each field means (the texts of COMPILER_LISTING_FIELDS, and VYPER_LISTING_FIELDS with `vyper`). */
  fields: Readonly<Record<string, string>>;
  /** The Vyper compilers; absent when the service has no Vyper compiler. */
  vyper?: VyperListing;
}

/** The meaning of every field, served with the list and shown on the API page. */
export const COMPILER_LISTING_FIELDS: Readonly<Record<string, string>> = {
  'builds[]':
    'every solc release and nightly from v0.4.11 on that the configured sources offer, the compiler cache holds, or the release table knows; newest first',
  'builds[].version': "the release (0.8.26), or a nightly's version (0.8.27-nightly.2024.5.1)",
  'builds[].longVersion': 'the release with its commit (0.8.26+commit.8a97fa7a); null when no source has told the commit yet',
  'builds[].compilerVersion': 'what to send as compilerversion (v0.8.26+commit.8a97fa7a); null like longVersion',
  'builds[].nightly': 'true for a nightly build (offered by the solc-bin mirror only)',
  'builds[].known':
    'true when the release table shipped with the service (or learned from a source since) has it: its commit is certain even when no source can be reached',
  'builds[].cached': "true when the compiler is in this service's cache: verifying with it needs no download",
  'builds[].sources':
    'where it can be had: "cache" (here), "mirror" (the solc-bin mirror\'s last list), "npm" (the npm registry\'s last list of solc versions); empty when none, e.g. every source unreachable so far',
  'builds[].npmPackage': 'the npm solc version that holds this release (solc@0.8.7-fixed holds 0.8.7); null when no npm package does',
  'sources.mirror, sources.npm':
    'one per configured source (absent when not configured): url, fetchedAt (when the list in use was fetched, null if never), ageSeconds, builds (how many it offers), and error and failedAt when the last refresh failed (the older list stays in use)',
  generatedAt: 'when this answer was put together; lists older than 10 minutes are refreshed in the background',
};

/** Where a Vyper compiler can be had: installed in the local directory, in the download cache, or from the release list. */
export type VyperBuildSource = 'local' | 'cache' | 'mirror';

/** One Vyper release or prerelease the service can compile with, or knows of. */
export interface VyperBuild {
  /** `0.4.1`, `0.4.1rc2` */
  version: string;
  /** `0.4.1+commit.8a93dd27`; null when nothing has told the commit */
  longVersion: string | null;
  /** `vyper:0.4.1`: what to send as compilerversion (Etherscan's spelling) */
  compilerVersion: string;
  prerelease: boolean;
  /** In the release table shipped with the service. */
  known: boolean;
  /** Installed here or in the download cache: no download needed. */
  cached: boolean;
  /** In the order local, cache, mirror; empty when none offers it (known only from the table). */
  sources: VyperBuildSource[];
}

/** The Vyper part of the compiler list, newest first. */
export interface VyperListing {
  builds: VyperBuild[];
  /** The release list (absent when downloads are off). */
  mirror?: CompilerListSourceState;
}

/** The meaning of the Vyper fields, served with the list. */
export const VYPER_LISTING_FIELDS: Readonly<Record<string, string>> = {
  'vyper.builds[]':
    'every Vyper release and prerelease from 0.2.5 on (the first whose binary reads a standard JSON input) that the release table knows, the local compiler directory holds or the release list offers; newest first',
  'vyper.builds[].version': 'the release (0.4.1) or prerelease (0.4.1rc2)',
  'vyper.builds[].longVersion': 'the release with the commit its binary is named with (0.4.1+commit.8a93dd27); null when nothing has told the commit',
  'vyper.builds[].compilerVersion': 'what to send as compilerversion (vyper:0.4.1, as Etherscan spells Vyper compilers)',
  'vyper.builds[].prerelease': 'true for an alpha, beta or release candidate',
  'vyper.builds[].known': 'true when the release table shipped with the service has it',
  'vyper.builds[].cached': 'true when it is installed here or downloaded already: verifying with it needs no download',
  'vyper.builds[].sources':
    'where it can be had: "local" (the directory of installed compilers), "cache" (downloaded before), "mirror" (the release list of Vyper\'s published binaries)',
  'vyper.mirror': 'the release list: url, fetchedAt, ageSeconds, builds, and error and failedAt when the last refresh failed',
};
