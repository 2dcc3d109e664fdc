/**
 * `/compilers.json` and `/compilers` on a service of its own: no mirror, an npm registry stub
 * on 127.0.0.1, the test compilers seeded in the cache; then the registry gone and the service
 * restarted on the same data dir.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CompilerListing } from '../../src/core/compilerListing.js';
import { SOLC_RELEASES } from '../../src/core/solcReleases.js';
import { INSTALLED_SOLC_VERSIONS } from '../helpers/compilerCache.js';
import { type RunningService, startService } from '../helpers/service.js';

const HOSTILE = '0.9.0-<script>alert(1)</script>';
/** Every npm package the table names, solc@0.8.7 (it holds 0.7.5), a release newer than the table, and junk. */
const NPM_VERSIONS = [...SOLC_RELEASES.flatMap(([, npm]) => (npm ? [npm] : [])), '0.8.7', '0.8.99', HOSTILE];

/** An npm registry that has only the `solc` packument; `requests` counts what it was asked. */
async function startRegistry(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const packument = JSON.stringify({ name: 'solc', versions: Object.fromEntries(NPM_VERSIONS.map((v) => [v, { version: v }])) });
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/solc') res.writeHead(200, { 'content-type': 'application/vnd.npm.install-v1+json' }).end(packument);
    else res.writeHead(404).end();
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

async function compilersJson(service: RunningService): Promise<CompilerListing> {
  const res = await fetch(`${service.baseUrl}/compilers.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as CompilerListing;
}

const TABLE_RELEASES = SOLC_RELEASES.map(([long]) => long.split('+')[0]!);
/** The releases some npm package holds, as the table says. */
const ON_NPM = new Set(SOLC_RELEASES.flatMap(([long, npm]) => (npm ? [long.split('+')[0]!] : [])));

describe('the published compiler list', () => {
  let registry: Awaited<ReturnType<typeof startRegistry>>;
  let service: RunningService;
  let first: CompilerListing;

  beforeAll(async () => {
    registry = await startRegistry();
    service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--npm-registry', registry.url] });
  });
  afterAll(async () => {
    await service?.stop();
    await registry?.close();
  });

  it('lists every release from 0.4.11 to the newest npm offers, the cached ones marked', async () => {
    first = await compilersJson(service);
    expect(registry.requests).toEqual(['/solc']);
    expect(first.sources).toEqual({
      npm: { url: registry.url, fetchedAt: expect.any(String), ageSeconds: expect.any(Number), builds: ON_NPM.size + 1 },
    });
    const versions = first.builds.map((b) => b.version);
    expect(versions).toEqual(['0.8.99', ...[...TABLE_RELEASES].reverse()]);
    expect(first.builds[0]).toEqual({
      version: '0.8.99',
      longVersion: null,
      compilerVersion: null,
      nightly: false,
      known: false,
      cached: false,
      sources: ['npm'],
      npmPackage: '0.8.99',
    });
    for (const b of first.builds.slice(1)) {
      const cached = (INSTALLED_SOLC_VERSIONS as readonly string[]).includes(b.version);
      expect(b).toMatchObject({ known: true, nightly: false, cached, compilerVersion: `v${b.longVersion}` });
      // No npm package holds 0.4.12 or 0.8.1 (solc@0.8.1 is 0.8.0); every other release is on npm.
      const sources = [...(cached ? ['cache'] : []), ...(ON_NPM.has(b.version) ? ['npm'] : [])];
      expect(b.sources, b.version).toEqual(sources);
    }
    expect(ON_NPM.has('0.8.1') || ON_NPM.has('0.4.12')).toBe(false);
    expect(first.builds.find((b) => b.version === '0.8.7')).toMatchObject({ longVersion: '0.8.7+commit.e28d00a7', npmPackage: '0.8.7-fixed' });
    expect(first.builds.find((b) => b.version === '0.8.26')).toMatchObject({ compilerVersion: 'v0.8.26+commit.8a97fa7a', cached: true });
    expect(JSON.stringify(first)).not.toContain('<script>');
  });

  it('renders the list as a page, searched on the server, linked from every page', async () => {
    const home = await (await fetch(`${service.baseUrl}/`)).text();
    expect(home).toContain('<a href="/compilers">Compilers</a>');
    const res = await fetch(`${service.baseUrl}/compilers?q=0.8.2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await res.text();
    expect(page).toContain('<td class="mono">v0.8.26+commit.8a97fa7a</td>');
    expect(page).not.toContain('v0.8.10+commit');
    expect(page).toContain(registry.url);
    const evil = await (await fetch(`${service.baseUrl}/compilers?q=${encodeURIComponent(HOSTILE)}`)).text();
    expect(evil).toContain('value="0.9.0-&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(evil).not.toContain('<script>alert');
    expect(evil).toContain('No compiler matches');
  });

  it('after a restart with the registry gone, answers from its copy on disk, with its age', async () => {
    await registry.close();
    await service.stop();
    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir: service.dataDir, args: ['--npm-registry', registry.url] });
    const again = await compilersJson(service);
    // The list fetched before the restart, not a new one: the registry could not have answered.
    expect(again.sources.npm).toMatchObject({ url: registry.url, fetchedAt: first.sources.npm!.fetchedAt, builds: first.sources.npm!.builds });
    expect(again.sources.npm!.ageSeconds).toBeGreaterThanOrEqual(first.sources.npm!.ageSeconds!);
    expect(again.builds).toEqual(first.builds);
    const page = await (await fetch(`${service.baseUrl}/compilers`)).text();
    expect(page).toContain(`list fetched <time datetime="${first.sources.npm!.fetchedAt}">`);
  });
});
