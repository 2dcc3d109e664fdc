/**
 * The Vyper compiler family with real compilers (the installed virtual environments). Vyper's
 * release binaries cannot be downloaded here, so the release list and the binaries come from a
 * mirror on 127.0.0.1; its binary is a stand-in script that runs an installed compiler, so a
 * downloaded, checked and cached binary really compiles. Other stand-ins misbehave on purpose.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../test/helpers/rejection.js';
import { VYPER_DIR, vyperAvailable } from '../../test/helpers/vyper.js';
import type { VyperInput } from '../core/types.js';
import { errorSentence } from '../texts/index.js';
import { createSolcCompiler } from './solcCompiler.js';
import { buildVyperListing, createVyperCompiler, type VyperCompilerService } from './vyperCompiler.js';

const ready = vyperAvailable();

const input: VyperInput = {
  language: 'Vyper',
  sources: { 'Store.vy': { content: 'stored: public(uint256)\n\n@external\ndef put(v: uint256):\n    self.stored = v\n' } },
  settings: { outputSelection: { 'Store.vy': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

/** Whether a process is still there (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Mirror {
  url: string;
  files: Map<string, Buffer>;
  hits: Map<string, number>;
  close(): Promise<void>;
}

async function startMirror(): Promise<Mirror> {
  const files = new Map<string, Buffer>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = files.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, files, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A release list in GitHub's shape with one Linux binary per entry. */
function releaseList(entries: { release: string; commit: string; bytes: Buffer | null; digest?: string | null }[]): Buffer {
  return Buffer.from(
    JSON.stringify(
      entries.map((e) => ({
        tag_name: `v${e.release}`,
        draft: false,
        prerelease: /[a-z]/.test(e.release),
        assets: [
          { name: `vyper.${e.release}+commit.${e.commit}.darwin`, digest: null },
          {
            name: `vyper.${e.release}+commit.${e.commit}.linux`,
            digest: e.digest !== undefined ? e.digest : e.bytes ? `sha256:${createHash('sha256').update(e.bytes).digest('hex')}` : null,
          },
        ],
      })),
    ),
  );
}

describe.skipIf(!ready)('the Vyper compiler', () => {
  let work: string;
  const services: VyperCompilerService[] = [];
  const make = (options: Partial<Parameters<typeof createVyperCompiler>[0]> = {}) => {
    const service = createVyperCompiler({
      cacheDir: join(work, `cache-${services.length}`),
      localDir: VYPER_DIR,
      releaseListUrl: null,
      maxThreads: 2,
      ...options,
    });
    services.push(service);
    return service;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'solproof-vyper-test-'));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    await rm(work, { recursive: true, force: true });
  });

  it('compiles with an installed release named in any client spelling, the commit filled in from the table', async () => {
    const compiler = make();
    for (const spelling of ['vyper:0.4.3', '0.4.3+commit.bff19ea2', 'v0.4.3+commit.bff19ea']) {
      expect(await compiler.resolve(spelling)).toMatchObject({ longVersion: '0.4.3+commit.bff19ea2', source: 'local' });
    }
    expect(await compiler.resolve('v0.4.1-rc2+commit.305813c9')).toMatchObject({ longVersion: '0.4.1rc2+commit.305813c9', source: 'local' });
    // 0.3.1 from PyPI reports no commit: the release's own is the table's.
    expect(await compiler.resolve('vyper:0.3.1')).toMatchObject({ longVersion: '0.3.1+commit.0463ea4c', source: 'local' });
    const output = await compiler.compile('vyper:0.4.3', input);
    expect(output.compiler).toBe('vyper-0.4.3');
    expect(output.contracts?.['Store.vy']?.['Store']?.evm?.bytecode?.object).toMatch(/^0x[0-9a-f]+$/);
  });

  it("compiles in solc's pool when given it: one concurrency bound, one count of compiles", async () => {
    const solc = createSolcCompiler({ cacheDir: join(work, 'solc'), mirrorUrl: null, npmRegistryUrl: null, maxThreads: 1, warmUpCompiles: 0 });
    try {
      const compiler = make({ pool: solc.pool });
      await compiler.compile('vyper:0.4.3', input);
      expect(solc.stats()).toMatchObject({ compiles: 1, threads: 1 });
    } finally {
      await solc.close();
    }
  });

  it('refuses a known release with another commit, a release before 0.2.5 and a release nobody has', async () => {
    const compiler = make();
    const wrong = await rejection(compiler.resolve('0.4.3+commit.deadbeef'));
    expect(wrong).toMatchObject({
      code: 'compiler_version_not_found',
      details: { why: 'not_a_release', longVersion: '0.4.3+commit.bff19ea2', compiler: 'vyper' },
    });
    expect(errorSentence(wrong)).toBe('Compiler version vyper:0.4.3+commit.deadbeef is not a Vyper release: 0.4.3 is vyper:0.4.3+commit.bff19ea2');
    expect(await rejection(compiler.resolve('vyper:0.2.4'))).toMatchObject({ code: 'compiler_version_not_found', details: { why: 'not_available' } });
    const absent = await rejection(compiler.resolve('vyper:0.4.2'));
    expect(absent).toMatchObject({ code: 'compiler_version_not_found', details: { why: 'not_available', compiler: 'vyper' } });
    expect(errorSentence(absent)).toBe('Compiler version vyper:0.4.2+commit.c216787f is not available from any compiler source');
  });

  it('downloads a release binary listed by the mirror, checks its sha256, keeps it and compiles with it', async () => {
    const mirror = await startMirror();
    try {
      // The stand-in binary runs the installed 0.4.1 (the mirror's "0.4.2").
      const binary = Buffer.from(`#!/bin/sh\nexec ${join(VYPER_DIR, '0.4.1', 'bin', 'vyper')} "$@"\n`);
      mirror.files.set('/list.json', releaseList([{ release: '0.4.2', commit: 'c216787f', bytes: binary }]));
      mirror.files.set('/download/v0.4.2/vyper.0.4.2+commit.c216787f.linux', binary);
      const compiler = make({ localDir: null, releaseListUrl: `${mirror.url}/list.json`, downloadUrl: `${mirror.url}/download` });
      const [a, b] = await Promise.all([compiler.resolve('vyper:0.4.2'), compiler.resolve('0.4.2+commit.c216787f')]);
      expect(a).toMatchObject({ longVersion: '0.4.2+commit.c216787f', source: 'mirror' });
      expect(b.path).toBe(a.path);
      // One download for the two who asked at once; the next is from the cache.
      expect(mirror.hits.get('/download/v0.4.2/vyper.0.4.2+commit.c216787f.linux')).toBe(1);
      expect(await compiler.resolve('vyper:0.4.2')).toMatchObject({ source: 'cache' });
      expect(await readFile(a.path)).toEqual(binary);
      const output = await compiler.compile('vyper:0.4.2', input);
      expect(output.contracts?.['Store.vy']?.['Store']?.evm?.bytecode?.object).toMatch(/^0x/);
      expect(compiler.stats()).toMatchObject({ downloads: 1, compiles: 1 });
      const listing = await compiler.listing();
      expect(listing.builds.find((b) => b.version === '0.4.2')).toEqual({
        version: '0.4.2',
        longVersion: '0.4.2+commit.c216787f',
        compilerVersion: 'vyper:0.4.2',
        prerelease: false,
        known: true,
        cached: true,
        sources: ['cache', 'mirror'],
      });
      expect(listing.mirror).toMatchObject({ url: `${mirror.url}/list.json`, builds: 1 });
    } finally {
      await mirror.close();
    }
  });

  it('never runs a binary whose sha256 differs from the list, nor one the list gives no digest for', async () => {
    const mirror = await startMirror();
    try {
      const binary = Buffer.from('#!/bin/sh\necho pwned\n');
      mirror.files.set(
        '/list.json',
        releaseList([
          { release: '0.4.2', commit: 'c216787f', bytes: binary, digest: `sha256:${'0'.repeat(64)}` },
          { release: '0.4.1', commit: '8a93dd27', bytes: binary, digest: null },
        ]),
      );
      mirror.files.set('/download/v0.4.2/vyper.0.4.2+commit.c216787f.linux', binary);
      mirror.files.set('/download/v0.4.1/vyper.0.4.1+commit.8a93dd27.linux', binary);
      const cacheDir = join(work, 'checked');
      const compiler = make({ cacheDir, localDir: null, releaseListUrl: `${mirror.url}/list.json`, downloadUrl: `${mirror.url}/download` });
      const mismatch = await rejection(compiler.resolve('vyper:0.4.2'));
      expect(mismatch).toMatchObject({ code: 'compiler_download_failed', retryable: true, details: { compiler: 'vyper' } });
      expect(String(mismatch.details.failures)).toMatch(/sha256 [0-9a-f]{64} does not match the listed 0{64}/);
      const unlisted = await rejection(compiler.resolve('vyper:0.4.1'));
      expect(String(unlisted.details.failures)).toContain('gives no sha256 digest');
      expect(mirror.hits.get('/download/v0.4.1/vyper.0.4.1+commit.8a93dd27.linux')).toBeUndefined();
      expect((await readdir(cacheDir).catch(() => [])).filter((n) => !n.startsWith('.'))).toEqual([]);
    } finally {
      await mirror.close();
    }
  });

  it('says the download failed (to be tried again) when the mirror cannot be reached', async () => {
    const mirror = await startMirror();
    const url = `${mirror.url}/list.json`;
    await mirror.close();
    const compiler = make({ localDir: null, releaseListUrl: url, connectTimeoutMs: 2000 });
    const error = await rejection(compiler.resolve('vyper:0.4.2'));
    expect(error).toMatchObject({ code: 'compiler_download_failed', retryable: true });
    expect(errorSentence(error)).toBe('Compiler version vyper:0.4.2+commit.c216787f could not be downloaded; try again later');
  });

  it('kills a compiler at the time limit, and every process it started', async () => {
    const dir = await mkdtemp(join(work, 'hang-'));
    const pidFile = join(dir, 'child.pid');
    // A stand-in that starts a child and waits on it (as a PyInstaller binary runs its Python).
    await writeFile(join(dir, 'vyper.0.4.2+commit.c216787f.linux'), `#!/bin/sh\nsleep 600 &\necho $! > ${pidFile}\nwait\n`, { mode: 0o755 });
    await chmod(join(dir, 'vyper.0.4.2+commit.c216787f.linux'), 0o755);
    const compiler = make({ localDir: dir, timeoutMs: 1500 });
    const error = await rejection(compiler.compile('vyper:0.4.2', input));
    expect(error).toMatchObject({ code: 'compile_timeout', details: { timeoutMs: 1500 } });
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    // SIGKILL to the group is immediate; the kernel reaps the child once its parent is gone.
    for (let i = 0; i < 50 && alive(child); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(child)).toBe(false);
  });

  it('counts the memory of the processes a compiler starts against the limit', async () => {
    const dir = await mkdtemp(join(work, 'memory-'));
    // The shell stays small; its child takes 400 MB and holds it.
    const script = `#!/bin/sh\npython3 -c "x = b'x' * (400 << 20); import time; time.sleep(60)"\n`;
    await writeFile(join(dir, 'vyper.0.4.2+commit.c216787f.linux'), script, { mode: 0o755 });
    const compiler = make({ localDir: dir, maxMemoryMb: 200, timeoutMs: 30_000 });
    const error = await rejection(compiler.compile('vyper:0.4.2', input));
    expect(error).toMatchObject({ code: 'compile_out_of_memory', details: { maxMemoryMb: 200 } });
  });
});

describe('the Vyper compiler list', () => {
  it('lists the releases from 0.2.5 newest first, a prerelease after its release, with where each can be had', () => {
    const listing = buildVyperListing({
      table: [
        ['0.2.4', 'aaaaaaaa'],
        ['0.3.10', '91361694'],
        ['0.4.1rc2', '305813c9'],
        ['0.4.1', '8a93dd27'],
      ],
      local: [
        { release: '0.3.10', commit: '9136169' },
        { release: '0.4.1', commit: null },
      ],
      cached: [{ release: '0.4.1', commit: 'deadbeef' }],
      mirror: [
        { release: '0.4.3', commit: 'bff19ea2' },
        { release: '0.4.1', commit: '8a93dd27' },
      ],
    });
    expect(listing.builds.map((b) => [b.compilerVersion, b.longVersion, b.sources.join(',')])).toEqual([
      ['vyper:0.4.3', '0.4.3+commit.bff19ea2', 'mirror'],
      ['vyper:0.4.1', '0.4.1+commit.8a93dd27', 'local,mirror'],
      ['vyper:0.4.1rc2', '0.4.1rc2+commit.305813c9', ''],
      ['vyper:0.3.10', '0.3.10+commit.91361694', 'local'],
    ]);
    expect(listing.builds.find((b) => b.version === '0.4.3')).toMatchObject({ known: false, cached: false, prerelease: false });
    expect(listing.builds.find((b) => b.version === '0.4.1rc2')).toMatchObject({ known: true, prerelease: true, cached: false });
  });
});
