/**
 * The solc-js build the service installs with itself (npm `solc`, a dependency) put into the
 * compiler cache at start, under its solc-bin name: a fresh service then compiles that release
 * without downloading it again. Only when the cache has no build of that release yet, and only
 * a release whose commit the service knows (the package carries no commit of its own).
 */
import { existsSync } from 'node:fs';
import { copyFile, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseCompilerVersion } from '../core/compilerVersion.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { CompilerCache } from './compilerCache.js';

const require = createRequire(import.meta.url);

/** Copies node_modules/solc/soljson.js into `cache`; returns the long version it was stored as, or null when nothing was done. */
export async function seedInstalledSolc(cache: CompilerCache, releases: ReleaseLookup): Promise<string | null> {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('solc/package.json'));
  } catch {
    return null;
  }
  const release = (JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  const long = typeof release === 'string' ? releases(release)?.longVersion : undefined;
  const version = long ? parseCompilerVersion(long) : null;
  const soljson = join(packageDir, 'soljson.js');
  if (!version || !existsSync(soljson)) return null;
  if (await cache.find(version, ['soljson', 'native'])) return null;
  const temp = await cache.writeTemp(Buffer.alloc(0));
  try {
    await copyFile(soljson, temp);
    await rename(temp, cache.pathOf('soljson', version));
  } finally {
    await rm(temp, { force: true });
  }
  return version.long;
}
