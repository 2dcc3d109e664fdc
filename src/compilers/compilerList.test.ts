import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompilerBuild, CompilerListing } from '../core/compilerListing.js';
import { SOLC_RELEASES } from '../core/solcReleases.js';
import { CompilerList, type CompilerListOptions } from './compilerList.js';
import { ReleaseRegistry } from './releaseRegistry.js';
import { createVyperCompiler } from './vyperCompiler.js';

/** An HTTP server on 127.0.0.1 answering fixed JSON documents by path, recording each request. */
interface Stub {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function startStub(documents: Record<string, unknown>): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, headers: req.headers });
    const doc = documents[path];
    if (doc === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A solc-bin list.json naming these long versions (only path, longVersion and sha256 are read). */
function listJson(longVersions: string[]): unknown {
  return { builds: longVersions.map((longVersion) => ({ path: `soljson-v${longVersion}.js`, longVersion, sha256: `0x${'0'.repeat(64)}` })) };
}

const MIRROR = {
  '/wasm/list.json': listJson([
    '0.4.10+commit.f0d539ae', // older than the service accepts
    '0.8.1+commit.00000000', // contradicts the release table: not a solc release
    '0.8.26+commit.8a97fa7a',
    '0.9.0+commit.0123abcd', // newer than the table: learned from the mirror
    '0.9.1-nightly.2026.1.2+commit.abcdef01',
    '0.9.1-nightly.2026.1.10+commit.abcdef02',
  ]),
  '/bin/list.json': listJson(['0.4.11+commit.68ef5810', '0.4.26+commit.4563c3fc', '0.8.26+commit.8a97fa7a']),
};
// npm's names are not always what they hold: solc@0.8.7 is 0.7.5, solc@0.8.1 is 0.8.0.
const NPM_VERSIONS = ['0.3.6', '0.4.11', '0.7.6', '0.8.1', '0.8.7', '0.8.7-fixed', '0.8.26', '0.9.0-beta.1', '0.9.2', '<script>'];
const NPM = { '/solc': { name: 'solc', versions: Object.fromEntries(NPM_VERSIONS.map((v) => [v, { version: v }])) } };

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A cache dir holding the named compiler files (names only; their bytes are never read). */
function cacheWith(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'solproof-list-'));
  dirs.push(dir);
  for (const name of files) writeFileSync(join(dir, name), '');
  return dir;
}

function listFor(cacheDir: string, mirrorUrl: string | null, npmRegistryUrl: string | null, extra: Partial<CompilerListOptions> = {}): CompilerList {
  const limits = { connectTimeoutMs: 2_000, downloadTimeoutMs: 5_000, maxBytes: 1024 * 1024 };
  return new CompilerList({ cacheDir, mirrorUrl, npmRegistryUrl, releases: ReleaseRegistry.inCache(cacheDir), limits, ...extra });
}

function build(listing: CompilerListing, version: string): CompilerBuild | undefined {
  return listing.builds.find((b) => b.version === version);
}

/** A port with nothing listening: connections are refused at once. */
async function deadUrl(): Promise<string> {
  const stub = await startStub({});
  await stub.close();
  return stub.url;
}

const TABLE_RELEASES = SOLC_RELEASES.map(([long]) => long.split('+')[0]!);

describe('the compiler list', () => {
  it("lists every release from 0.4.11 that the mirror, npm and the cache offer, with the table's commits and npm packages, newest first", async () => {
    const [mirror, npm] = await Promise.all([startStub(MIRROR), startStub(NPM)]);
    try {
      const cacheDir = cacheWith([
        'package.json',
        'soljson-v0.8.26+commit.8a97fa7a.js',
        'solc-linux-amd64-v0.8.28+commit.7893614a',
        'soljson-v0.8.27+commit.deadbeef.js', // not 0.8.27's commit: unusable, not listed
        '.partial-0123456789abcdef.js',
      ]);
      const compilers = listFor(cacheDir, mirror.url, npm.url);
      // Concurrent first requests share one refresh, and wait for it (there is no list yet).
      const [listing] = await Promise.all([compilers.list(), compilers.list(), compilers.list()]);
      expect(npm.requests.map((r) => r.path)).toEqual(['/solc']);
      expect(npm.requests[0]!.headers.accept).toMatch(/^application\/vnd\.npm\.install-v1\+json/);
      expect(mirror.requests.map((r) => r.path)).toEqual(['/wasm/list.json', '/bin/list.json']);

      const versions = listing.builds.map((b) => b.version);
      expect(versions.slice(0, 4)).toEqual(['0.9.2', '0.9.1-nightly.2026.1.10', '0.9.1-nightly.2026.1.2', '0.9.0']);
      expect(versions.at(-1)).toBe('0.4.11');
      expect(new Set(versions).size).toBe(versions.length);
      for (const release of TABLE_RELEASES) expect(versions).toContain(release);
      expect(versions).toHaveLength(TABLE_RELEASES.length + 4);

      expect(build(listing, '0.8.26')).toEqual({
        version: '0.8.26',
        longVersion: '0.8.26+commit.8a97fa7a',
        compilerVersion: 'v0.8.26+commit.8a97fa7a',
        nightly: false,
        known: true,
        cached: true,
        sources: ['cache', 'mirror', 'npm'],
        npmPackage: '0.8.26',
      });
      expect(build(listing, '0.8.28')).toMatchObject({ cached: true, sources: ['cache'], npmPackage: '0.8.28' });
      expect(build(listing, '0.8.27')).toMatchObject({ longVersion: '0.8.27+commit.40a35a09', cached: false, sources: [] });
      // solc@0.8.7-fixed holds 0.8.7; solc@0.8.7 (0.7.5) and solc@0.8.1 (0.8.0) are not listed under their names.
      expect(build(listing, '0.8.7')).toMatchObject({ sources: ['npm'], npmPackage: '0.8.7-fixed' });
      expect(build(listing, '0.8.1')).toMatchObject({ longVersion: '0.8.1+commit.df193b15', sources: [], npmPackage: null });
      expect(build(listing, '0.7.6')).toMatchObject({ sources: ['npm'] });
      expect(build(listing, '0.7.5')).toMatchObject({ sources: [] });
      expect(build(listing, '0.9.0')).toMatchObject({ longVersion: '0.9.0+commit.0123abcd', known: true, sources: ['mirror'], npmPackage: null });
      expect(build(listing, '0.9.1-nightly.2026.1.2')).toMatchObject({
        nightly: true,
        known: false,
        sources: ['mirror'],
        compilerVersion: 'v0.9.1-nightly.2026.1.2+commit.abcdef01',
      });
      // Newer than every table: npm has it, nobody has told its commit yet.
      expect(build(listing, '0.9.2')).toEqual({
        version: '0.9.2',
        longVersion: null,
        compilerVersion: null,
        nightly: false,
        known: false,
        cached: false,
        sources: ['npm'],
        npmPackage: '0.9.2',
      });

      expect(listing.sources.mirror).toMatchObject({ url: mirror.url, builds: 6, ageSeconds: 0 });
      expect(listing.sources.npm).toMatchObject({ url: npm.url, builds: 5 });
      expect(listing.sources.npm!.fetchedAt).toEqual(expect.any(String));
      expect(listing.sources.npm).not.toHaveProperty('error');
      expect(listing.fields['builds[].compilerVersion']).toContain('compilerversion');
      // What the mirror vouched for is learned, as when the compiler reads the list.
      expect(JSON.parse(readFileSync(join(cacheDir, 'releases.json'), 'utf8'))).toHaveProperty('0.9.0');
    } finally {
      await Promise.all([mirror.close(), npm.close()]);
    }
  });

  it('answers from the lists saved on disk when the sources are gone, with their age, and says why the refresh failed', async () => {
    const [mirror, npm] = await Promise.all([startStub(MIRROR), startStub(NPM)]);
    const cacheDir = cacheWith([]);
    const fetched = await listFor(cacheDir, mirror.url, npm.url).list();
    await Promise.all([mirror.close(), npm.close()]);

    // A restart eleven minutes later, with both sources unreachable.
    const later = Date.parse(fetched.generatedAt) + 11 * 60_000;
    const restarted = listFor(cacheDir, mirror.url, npm.url, { now: () => later });
    const first = await restarted.list();
    expect(first.sources.npm).toMatchObject({ fetchedAt: fetched.sources.npm!.fetchedAt, ageSeconds: 660 });
    expect(first.builds).toEqual(fetched.builds);
    await restarted.refreshIfStale(); // the background refresh the answer started
    expect(restarted.refreshIfStale()).toBeNull(); // a failed source waits before it is asked again

    const after = await restarted.list();
    expect(after.builds).toEqual(fetched.builds);
    for (const name of ['mirror', 'npm'] as const) {
      expect(after.sources[name]).toMatchObject({ fetchedAt: fetched.sources[name]!.fetchedAt, ageSeconds: 660, failedAt: new Date(later).toISOString() });
      // Refused, or a kept-alive socket found closed: the answer names the request that failed.
      expect(after.sources[name]!.error).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/\S+ failed: /);
    }
    // The failure is kept on disk too, beside the older list.
    const again = await listFor(cacheDir, mirror.url, npm.url, { now: () => later }).list();
    expect(again.sources.npm!.error).toBe(after.sources.npm!.error);
    expect(build(again, '0.9.2')?.sources).toEqual(['npm']);

    // A list saved for another registry is not this registry's.
    const elsewhere = await listFor(cacheDir, null, await deadUrl(), { now: () => later }).list();
    expect(elsewhere.sources).not.toHaveProperty('mirror');
    expect(elsewhere.sources.npm).toMatchObject({ fetchedAt: null, builds: 0 });
    expect(build(elsewhere, '0.9.2')).toBeUndefined();
  });

  it('with no source ever reached, still lists the shipped releases, each cached or not', async () => {
    const cacheDir = cacheWith(['soljson-v0.6.12+commit.27d51765.js']);
    const listing = await listFor(cacheDir, await deadUrl(), await deadUrl()).list();
    expect(listing.builds.map((b) => b.version)).toEqual([...TABLE_RELEASES].reverse());
    expect(listing.builds.every((b) => b.known && b.compilerVersion === `v${b.longVersion}`)).toBe(true);
    expect(build(listing, '0.6.12')).toMatchObject({ cached: true, sources: ['cache'] });
    expect(listing.builds.filter((b) => b.sources.length > 0)).toHaveLength(1);
    expect(listing.sources.mirror).toMatchObject({ fetchedAt: null, ageSeconds: null, builds: 0 });
    expect(listing.sources.npm!.error).toMatch(/ECONNREFUSED/);
  });

  it('lists the Vyper releases beside solc, the installed ones as cached, with what their fields mean', async () => {
    const cacheDir = cacheWith([]);
    const localDir = mkdtempSync(join(tmpdir(), 'solproof-vyper-local-'));
    dirs.push(localDir);
    // A release binary dropped in the directory of installed compilers.
    writeFileSync(join(localDir, 'vyper.0.4.1+commit.8a93dd27.linux'), '#!/bin/sh\n', { mode: 0o755 });
    const vyper = createVyperCompiler({ cacheDir: join(cacheDir, 'vyper'), localDir, releaseListUrl: null });
    try {
      const listing = await listFor(cacheDir, null, null, { vyper }).list();
      expect(listing.vyper?.builds[0]).toMatchObject({ version: '0.4.3', compilerVersion: 'vyper:0.4.3', known: true, cached: false });
      expect(listing.vyper?.builds.find((b) => b.version === '0.4.1')).toEqual({
        version: '0.4.1',
        longVersion: '0.4.1+commit.8a93dd27',
        compilerVersion: 'vyper:0.4.1',
        prerelease: false,
        known: true,
        cached: true,
        sources: ['local'],
      });
      expect(listing.vyper?.builds.at(-1)?.version).toBe('0.2.5');
      expect(listing.vyper?.mirror).toBeUndefined();
      expect(listing.fields['vyper.builds[].compilerVersion']).toMatch(/^what to send as compilerversion/);
      // Without Vyper compilers the list is solc's alone.
      expect((await listFor(cacheDir, null, null).list()).vyper).toBeUndefined();
    } finally {
      await vyper.close();
    }
  });
});
