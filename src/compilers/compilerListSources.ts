/**
 * What each place offers, as plain version lists: the solc-bin mirror's lists and the files in
 * the local compiler cache (the npm registry's list is fetchNpmSolcVersions).
 */
import { readdir } from 'node:fs/promises';
import { parseCompilerVersion } from '../core/compilerVersion.js';
import { DownloadError, fetchSolcBinList, type HttpLimits, type SolcBinPlatform } from './compilerDownloads.js';

/** The soljson lists the mirror source downloads from (native builds are in them too). */
const MIRROR_PLATFORMS: readonly SolcBinPlatform[] = ['wasm', 'bin'];

/**
 * The long versions (`0.8.26+commit.8a97fa7a`, nightlies included) in the mirror's soljson
 * lists. A list the mirror does not have is skipped; any failure fails the whole refresh, so a
 * half-read mirror never replaces a whole earlier list.
 */
export async function fetchMirrorVersions(url: string, limits: HttpLimits): Promise<string[]> {
  const versions = new Set<string>();
  for (const platform of MIRROR_PLATFORMS) {
    const builds = await fetchSolcBinList(url, platform, limits);
    for (const long of builds?.keys() ?? []) if (parseCompilerVersion(long)) versions.add(long);
  }
  return [...versions];
}

// solc-bin's file names, which the cache uses too (compilerFileName).
const CACHED_FILE_RE = /^(?:soljson-v(.+)\.js|solc-linux-amd64-v(.+))$/;

/** The long versions of the compilers in the cache directory (soljson or native). */
export async function cachedVersions(cacheDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(cacheDir);
  } catch {
    // No cache yet: nothing is cached.
    return [];
  }
  const versions = new Set<string>();
  for (const name of names) {
    const m = CACHED_FILE_RE.exec(name);
    const v = m ? parseCompilerVersion(m[1] ?? m[2] ?? '') : null;
    if (v) versions.add(v.long);
  }
  return [...versions];
}

/** A failure as the one line the list shows. */
export function failureText(e: unknown): string {
  if (e instanceof DownloadError) return e.message;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
