import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownSolcRelease } from '../core/solcReleases.js';
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
