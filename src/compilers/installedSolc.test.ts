import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { knownSolcRelease } from '../core/solcReleases.js';
import { CompilerCache } from './compilerCache.js';
import { seedInstalledSolc } from './installedSolc.js';

const require = createRequire(import.meta.url);

describe('seedInstalledSolc', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("puts the installed solc's soljson into the cache under its long version, once", async () => {
    dir = mkdtempSync(join(tmpdir(), 'solproof-installed-solc-'));
    const cache = new CompilerCache(dir);
    expect(await seedInstalledSolc(cache, knownSolcRelease)).toBe('0.8.28+commit.7893614a');
    const stored = join(dir, 'soljson-v0.8.28+commit.7893614a.js');
    expect(statSync(stored).size).toBe(statSync(require.resolve('solc/soljson.js')).size);
    // Already there: nothing is done again.
    expect(await seedInstalledSolc(cache, knownSolcRelease)).toBeNull();
  });

  it('does nothing for a release whose commit it does not know', async () => {
    dir = mkdtempSync(join(tmpdir(), 'solproof-installed-solc-'));
    expect(await seedInstalledSolc(new CompilerCache(dir), () => null)).toBeNull();
  });
});
