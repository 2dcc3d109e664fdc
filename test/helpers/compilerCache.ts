/**
 * Fills a compiler cache directory from the solc builds installed as npm packages, so tests
 * never download a compiler. Files get solc-bin names: `soljson-v0.6.12+commit.27d51765.js`.
 */
import { copyFile, link, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
// The repository's root, found from its installed packages: the benches run this file from dist-bench/.
const root = dirname(dirname(dirname(require.resolve('solc/package.json'))));

/** The solc versions installed for tests (`solc` itself is 0.8.28, the others are npm aliases). */
export const INSTALLED_SOLC_VERSIONS = ['0.4.11', '0.4.26', '0.5.17', '0.6.12', '0.7.6', '0.8.10', '0.8.18', '0.8.26', '0.8.28', '0.8.29'] as const;

function packageOf(version: string): string {
  return version === '0.8.28' ? 'solc' : `solc-${version}`;
}

// Loading a soljson to ask its version takes a few hundred ms; remember the answers.
const manifestPath = join(root, 'node_modules', '.cache', 'solproof-solc-versions.json');
type Manifest = Record<string, { size: number; mtimeMs: number; long: string }>;
let manifest: Manifest | null = null;

async function loadManifest(): Promise<Manifest> {
  if (manifest) return manifest;
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
  } catch {
    manifest = {};
  }
  return manifest;
}

/** The long version (`0.6.12+commit.27d51765`) of an installed solc package. */
export async function installedLongVersion(version: string): Promise<string> {
  const pkg = packageOf(version);
  const soljson = join(root, 'node_modules', pkg, 'soljson.js');
  const info = await stat(soljson);
  const m = await loadManifest();
  const known = m[pkg];
  if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.long;
  const reported = (require(pkg) as { version(): string }).version();
  const long = /^(\d+\.\d+\.\d+(?:-nightly\.[\d.]+)?\+commit\.[0-9a-f]{8})/.exec(reported)?.[1];
  if (!long) throw new Error(`${pkg} reports an unexpected version ${reported}`);
  m[pkg] = { size: info.size, mtimeMs: info.mtimeMs, long };
  await mkdir(dirname(manifestPath), { recursive: true });
  await writeFile(manifestPath, JSON.stringify(m, null, 2));
  return long;
}

/**
 * Puts the installed soljson builds of `versions` (default: all installed) into `cacheDir`.
 * Returns short → long version, e.g. `{ '0.6.12': '0.6.12+commit.27d51765' }`.
 */
export async function seedCompilerCache(cacheDir: string, versions: readonly string[] = INSTALLED_SOLC_VERSIONS): Promise<Record<string, string>> {
  await mkdir(cacheDir, { recursive: true });
  const seeded: Record<string, string> = {};
  for (const version of versions) {
    if (!(INSTALLED_SOLC_VERSIONS as readonly string[]).includes(version)) throw new Error(`solc ${version} is not installed for tests`);
    const long = await installedLongVersion(version);
    const source = join(root, 'node_modules', packageOf(version), 'soljson.js');
    const target = join(cacheDir, `soljson-v${long}.js`);
    try {
      // A hard link costs nothing; the cache only ever replaces files by rename.
      await link(source, target);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        // already seeded
      } else {
        await copyFile(source, target);
      }
    }
    seeded[version] = long;
  }
  return seeded;
}
