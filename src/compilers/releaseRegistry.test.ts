import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownSolcRelease } from '../core/solcReleases.js';
import { npmPackagesFor } from './buildCompilerListing.js';
import { ReleaseRegistry } from './releaseRegistry.js';

const dir = mkdtempSync(join(tmpdir(), 'solproof-releases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('solc releases', () => {
  it('ships every release from 0.4.11, each with the npm package that really holds it', () => {
    expect(knownSolcRelease('0.4.11')).toEqual({ longVersion: '0.4.11+commit.68ef5810', npmPackage: '0.4.11' });
    expect(knownSolcRelease('0.8.28')).toEqual({ longVersion: '0.8.28+commit.7893614a', npmPackage: '0.8.28' });
    // solc@0.8.7 holds 0.7.5; 0.8.7-fixed holds 0.8.7. No npm package holds 0.8.1 (solc@0.8.1 is 0.8.0).
    expect(knownSolcRelease('0.8.7')).toEqual({ longVersion: '0.8.7+commit.e28d00a7', npmPackage: '0.8.7-fixed' });
    expect(knownSolcRelease('0.8.1')).toEqual({ longVersion: '0.8.1+commit.df193b15', npmPackage: null });
    expect(knownSolcRelease('0.4.10')).toBeNull();
  });

  it('learns releases the table does not have, keeps them across restarts, and never overrides the table', () => {
    const empty = () => null;
    const registry = ReleaseRegistry.inCache(dir, (r) => (r === '0.8.28' ? knownSolcRelease(r) : empty()));
    registry.learn('0.9.0+commit.0123abcd', '0.9.0');
    registry.learnMany(['0.9.1+commit.89abcdef', 'not a version']);
    registry.learn('0.8.28+commit.deadbeef');
    expect(registry.lookup('0.9.0')).toEqual({ longVersion: '0.9.0+commit.0123abcd', npmPackage: '0.9.0' });
    expect(registry.lookup('0.8.28')?.longVersion).toBe('0.8.28+commit.7893614a');
    const again = ReleaseRegistry.inCache(dir, empty);
    expect(again.lookup('0.9.1')).toEqual({ longVersion: '0.9.1+commit.89abcdef', npmPackage: null });
    expect(JSON.parse(readFileSync(join(dir, 'releases.json'), 'utf8'))).not.toHaveProperty('0.8.28');
  });
});

describe('the npm package that holds a release', () => {
  const listed = ['0.8.7', '0.8.7-fixed', '0.8.14', '0.8.14-fixed', '0.9.1', '0.9.1-fixed', '0.9.1-beta.1', '0.9.10', '0.9.1-nightly.2025.1.1'];

  it('is the one the table names for a known release, whatever the npm versions named after it hold', () => {
    // solc@0.8.7 holds 0.7.5: only solc@0.8.7-fixed is tried.
    expect(npmPackagesFor('0.8.7', knownSolcRelease, listed)).toEqual(['0.8.7-fixed']);
    expect(npmPackagesFor('0.8.14', knownSolcRelease, listed)).toEqual(['0.8.14']);
    expect(npmPackagesFor('0.8.1', knownSolcRelease, listed)).toEqual([]);
  });

  it('for a release the table does not know: the version named after it, then its republished versions', () => {
    expect(npmPackagesFor('0.9.1', knownSolcRelease, listed)).toEqual(['0.9.1', '0.9.1-fixed']);
    expect(npmPackagesFor('0.9.1', knownSolcRelease)).toEqual(['0.9.1']);
    expect(npmPackagesFor('0.9.2', knownSolcRelease, listed)).toEqual(['0.9.2']);
    expect(npmPackagesFor('0.9.1-nightly.2025.1.1', knownSolcRelease, listed)).toEqual([]);
  });

  it('what the registry learned from a loaded compiler counts; a release only seen in a mirror list does not settle npm', () => {
    const registry = new ReleaseRegistry(null, () => null);
    registry.learnMany(['0.9.3+commit.0123abcd']);
    registry.learn('0.9.4+commit.89abcdef', '0.9.4-fixed');
    expect(npmPackagesFor('0.9.3', registry.lookup)).toEqual([]);
    expect(npmPackagesFor('0.9.3', registry.npmLookup)).toEqual(['0.9.3']);
    expect(npmPackagesFor('0.9.4', registry.npmLookup, listed)).toEqual(['0.9.4-fixed']);
  });
});
