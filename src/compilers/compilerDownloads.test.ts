import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create as createTarball } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedLongVersion } from '../../test/helpers/compilerCache.js';
import { rejection } from '../../test/helpers/rejection.js';
import { errorSentence } from '../texts/index.js';
import type { SolcInput } from '../verify/index.js';
import { ReleaseRegistry } from './releaseRegistry.js';
import { createSolcCompiler, type SolcCompiler, type SolcCompilerOptions } from './solcCompiler.js';

/** The compilers in a cache (its package.json only declares the module type). */
async function cachedFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name !== 'package.json');
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const input: SolcInput = {
  language: 'Solidity',
  sources: { 'Store.sol': { content: 'pragma solidity >=0.4.24;\ncontract Store { uint256 public value; function set(uint256 v) public { value = v; } }\n' } },
  settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
};

function bytecodeOf(output: Awaited<ReturnType<SolcCompiler['compile']>>): string | undefined {
  return output.contracts?.['Store.sol']?.Store?.evm?.bytecode?.object;
}

/** A solc-bin mirror on 127.0.0.1 serving whatever files a test gives it, counting requests. */
interface LocalMirror {
  url: string;
  files: Map<string, Buffer>;
  hits: Map<string, number>;
  /** Paths that accept the connection and never answer. */
  silent: Set<string>;
  close(): Promise<void>;
}

async function startMirror(): Promise<LocalMirror> {
  const files = new Map<string, Buffer>();
  const hits = new Map<string, number>();
  const silent = new Set<string>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (silent.has(path)) return;
    const body = files.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    files,
    hits,
    silent,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A port with nothing listening: connections are refused at once. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

function listJson(builds: { path: string; longVersion: string; bytes: Buffer; sha256?: string }[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      builds: builds.map((b) => ({
        path: b.path,
        version: b.longVersion.split('+')[0],
        build: `commit.${b.longVersion.split('commit.')[1]}`,
        longVersion: b.longVersion,
        keccak256: '0x00',
        sha256: b.sha256 ?? `0x${createHash('sha256').update(b.bytes).digest('hex')}`,
        urls: [],
      })),
    }),
  );
}

/** Serves `soljson` as npm's `solc@<version>` from a local registry: packument with sha512 integrity, and tarball. */
async function publishSoljson(registry: LocalMirror, version: string, soljson: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'solproof-npm-'));
  dirs.push(dir);
  await mkdir(join(dir, 'package'));
  await copyFile(soljson, join(dir, 'package', 'soljson.js'));
  const tgz = join(dir, 'package.tgz');
  await createTarball({ gzip: true, cwd: dir, file: tgz }, ['package']);
  const bytes = await readFile(tgz);
  const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  registry.files.set(`/tarballs/solc-${version}.tgz`, bytes);
  registry.files.set(
    `/solc/${version}`,
    Buffer.from(JSON.stringify({ name: 'solc', version, dist: { tarball: `${registry.url}/tarballs/solc-${version}.tgz`, integrity } })),
  );
}

const dirs: string[] = [];
const compilers: SolcCompiler[] = [];

async function freshCompiler(options: Partial<SolcCompilerOptions>): Promise<{ compiler: SolcCompiler; cacheDir: string }> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'solproof-download-'));
  dirs.push(cacheDir);
  const compiler = createSolcCompiler({ cacheDir, maxThreads: 2, warmUpCompiles: 0, ...options });
  compilers.push(compiler);
  return { compiler, cacheDir };
}

afterAll(async () => {
  await Promise.all(compilers.map((c) => c.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('downloading from the npm registry', () => {
  // solc 0.5.0 is not installed locally and its tarball is small (1.8 MB).
  const long = '0.5.0+commit.1d4f565a';

  it('falls through an unreachable mirror, fetches once for concurrent requests, checks the commit and caches', async () => {
    // The default mirror: this machine cannot resolve binaries.soliditylang.org.
    const { compiler, cacheDir } = await freshCompiler({});
    const started = performance.now();
    const [a, b] = await Promise.all([compiler.compile(`v${long}`, input), compiler.compile(long, input)]);
    console.log(`solc ${long} from npm with the mirror unreachable: ${(performance.now() - started).toFixed(0)} ms (download, check, 2 compiles)`);
    expect(bytecodeOf(a)).toMatch(/^6080/);
    expect(bytecodeOf(b)).toBe(bytecodeOf(a));
    expect(compiler.stats().downloads).toEqual({ mirror: 0, npm: 1 });
    expect(await cachedFiles(cacheDir)).toEqual([`soljson-v${long}.js`]);
    expect((await stat(join(cacheDir, `soljson-v${long}.js`))).size).toBeGreaterThan(1_000_000);

    // Cached now: resolving again asks nobody.
    expect(await compiler.resolve(long)).toEqual({ kind: 'soljson', path: join(cacheDir, `soljson-v${long}.js`), longVersion: long });
    expect(compiler.stats().downloads).toEqual({ mirror: 0, npm: 1 });
  });

  it('refuses at once, without a download, a known release with another commit', async () => {
    const { compiler, cacheDir } = await freshCompiler({ mirrorUrl: await deadUrl() });
    const e = await rejection(compiler.compile('0.5.0+commit.deadbeef', input));
    expect(e.code).toBe('compiler_version_not_found');
    expect(errorSentence(e)).toBe('Compiler version v0.5.0+commit.deadbeef is not a solc release: 0.5.0 is v0.5.0+commit.1d4f565a');
    expect(compiler.stats().downloads).toEqual({ mirror: 0, npm: 0 });
    expect(await cachedFiles(cacheDir)).toEqual([]);
  });

  it('learns the commit of a release it did not ship with from the npm package, once, and remembers it', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'solproof-download-'));
    dirs.push(cacheDir);
    const unknownToTable = () => null;
    const first = createSolcCompiler({ cacheDir, maxThreads: 1, mirrorUrl: await deadUrl(), releases: ReleaseRegistry.inCache(cacheDir, unknownToTable) });
    compilers.push(first);
    const e = await rejection(first.compile('0.5.0+commit.deadbeef', input));
    expect(errorSentence(e)).toBe('Compiler version v0.5.0+commit.deadbeef is not available from any compiler source');
    expect(first.stats().downloads).toEqual({ mirror: 0, npm: 1 });
    // What npm really has is kept under its real name, and its commit is remembered.
    expect((await cachedFiles(cacheDir)).sort()).toEqual(['releases.json', `soljson-v${long}.js`]);
    const again = await rejection(first.compile('0.5.0+commit.0badc0de', input));
    expect(errorSentence(again)).toBe(`Compiler version v0.5.0+commit.0badc0de is not a solc release: 0.5.0 is v${long}`);
    expect(first.stats().downloads).toEqual({ mirror: 0, npm: 1 });
    // A restarted service knows it too.
    const second = createSolcCompiler({ cacheDir, maxThreads: 1, mirrorUrl: await deadUrl(), releases: ReleaseRegistry.inCache(cacheDir, unknownToTable) });
    compilers.push(second);
    expect(second.releases.lookup('0.5.0')).toEqual({ longVersion: long, npmPackage: '0.5.0' });
  });

  it('fetches the npm package that really holds a release: solc@0.8.7 holds 0.7.5, solc@0.8.7-fixed holds 0.8.7', async () => {
    const { compiler, cacheDir } = await freshCompiler({ mirrorUrl: await deadUrl() });
    const resolved = await compiler.resolve('v0.8.7+commit.e28d00a7');
    expect(resolved).toEqual({ kind: 'soljson', path: join(cacheDir, 'soljson-v0.8.7+commit.e28d00a7.js'), longVersion: '0.8.7+commit.e28d00a7' });
    expect(compiler.stats().downloads).toEqual({ mirror: 0, npm: 1 });
    const output = await compiler.compile('0.8.7+commit.e28d00a7', input);
    expect(bytecodeOf(output)).toMatch(/^6080/);
  });

  it('tries a republished package (X.Y.Z-fixed) of a release the table does not know when solc@X.Y.Z holds another compiler', async () => {
    const registry = await startMirror();
    try {
      const v0826 = await installedLongVersion('0.8.26');
      const v076 = await installedLongVersion('0.7.6');
      // A registry where solc@0.8.26 holds 0.7.6 and solc@0.8.26-fixed holds 0.8.26, like solc@0.8.7 and 0.8.7-fixed.
      await publishSoljson(registry, '0.8.26', join(root, 'node_modules', 'solc-0.7.6', 'soljson.js'));
      await publishSoljson(registry, '0.8.26-fixed', join(root, 'node_modules', 'solc-0.8.26', 'soljson.js'));
      registry.files.set('/solc', Buffer.from(JSON.stringify({ versions: { '0.8.26': {}, '0.8.26-fixed': {}, '0.8.26-beta.1': {} } })));
      const cacheDir = await mkdtemp(join(tmpdir(), 'solproof-download-'));
      dirs.push(cacheDir);
      const unknownToTable = () => null;
      const compiler = createSolcCompiler({
        cacheDir,
        maxThreads: 1,
        mirrorUrl: null,
        npmRegistryUrl: registry.url,
        releases: ReleaseRegistry.inCache(cacheDir, unknownToTable),
      });
      compilers.push(compiler);
      const resolved = await compiler.resolve(`v${v0826}`);
      expect(resolved).toEqual({ kind: 'soljson', path: join(cacheDir, `soljson-v${v0826}.js`), longVersion: v0826 });
      expect(compiler.stats().downloads).toEqual({ mirror: 0, npm: 2 });
      // What solc@0.8.26 really holds is kept under its own name; the beta was never asked for.
      expect((await cachedFiles(cacheDir)).sort()).toEqual(['releases.json', `soljson-v${v0826}.js`, `soljson-v${v076}.js`].sort());
      expect(registry.hits.get('/solc/0.8.26-beta.1')).toBeUndefined();
      // The package that holds it is remembered: a restarted service asks only that one.
      expect(ReleaseRegistry.inCache(cacheDir, unknownToTable).lookup('0.8.26')).toEqual({ longVersion: v0826, npmPackage: '0.8.26-fixed' });
    } finally {
      await registry.close();
    }
  });

  it('reports compiler_download_failed, retryable, when no source can be reached', async () => {
    const { compiler, cacheDir } = await freshCompiler({ mirrorUrl: await deadUrl(), npmRegistryUrl: await deadUrl() });
    const e = await rejection(compiler.compile('0.5.1+commit.c8a2cb62', input));
    expect(e.code).toBe('compiler_download_failed');
    expect(e.retryable).toBe(true);
    expect(errorSentence(e)).toBe('Compiler version v0.5.1+commit.c8a2cb62 could not be downloaded; try again later');
    expect(await cachedFiles(cacheDir)).toEqual([]);
  });
});

describe('downloading from a solc-bin mirror', () => {
  let mirror: LocalMirror;
  let v0612: string;
  let v0717: string;
  let v0826: string;
  let soljson0612: Buffer;

  beforeAll(async () => {
    mirror = await startMirror();
    v0612 = await installedLongVersion('0.6.12');
    v0717 = await installedLongVersion('0.7.6');
    v0826 = await installedLongVersion('0.8.26');
    soljson0612 = await readFile(join(root, 'node_modules', 'solc-0.6.12', 'soljson.js'));
    const soljson076 = await readFile(join(root, 'node_modules', 'solc-0.7.6', 'soljson.js'));
    // A stand-in for a native build: the solc 0.8.26 package behind the native CLI contract.
    const native0826 = Buffer.from(
      `#!${process.execPath}\nconst solc = require(${JSON.stringify(join(root, 'node_modules', 'solc-0.8.26'))});\n` +
        `process.stdout.write(solc.compile(require('fs').readFileSync(0, 'utf8')));\n`,
    );
    mirror.files.set(
      '/wasm/list.json',
      listJson([
        { path: `soljson-v${v0612}.js`, longVersion: v0612, bytes: soljson0612 },
        { path: `soljson-v${v0717}.js`, longVersion: v0717, bytes: soljson076, sha256: `0x${'ab'.repeat(32)}` },
      ]),
    );
    mirror.files.set(`/wasm/soljson-v${v0612}.js`, soljson0612);
    mirror.files.set(`/wasm/soljson-v${v0717}.js`, soljson076);
    mirror.files.set('/linux-amd64/list.json', listJson([{ path: `solc-linux-amd64-v${v0826}`, longVersion: v0826, bytes: native0826 }]));
    mirror.files.set(`/linux-amd64/solc-linux-amd64-v${v0826}`, native0826);
  });

  afterAll(() => mirror.close());

  it('downloads a listed soljson once for concurrent requests, checks its sha256 and caches it', async () => {
    const { compiler, cacheDir } = await freshCompiler({ mirrorUrl: mirror.url, npmRegistryUrl: null });
    const outputs = await Promise.all([compiler.compile(v0612, input), compiler.compile(v0612, input), compiler.resolve(`v${v0612}`)]);
    expect(bytecodeOf(outputs[0] as Awaited<ReturnType<SolcCompiler['compile']>>)).toMatch(/^6080/);
    expect(mirror.hits.get(`/wasm/soljson-v${v0612}.js`)).toBe(1);
    expect(compiler.stats().downloads).toEqual({ mirror: 1, npm: 0 });
    const cached = await readFile(join(cacheDir, `soljson-v${v0612}.js`));
    expect(cached.equals(soljson0612)).toBe(true);
    expect(await cachedFiles(cacheDir)).toEqual([`soljson-v${v0612}.js`]);
  });

  it('rejects a build whose sha256 does not match the list and caches nothing', async () => {
    const { compiler, cacheDir } = await freshCompiler({ mirrorUrl: mirror.url, npmRegistryUrl: null });
    const e = await rejection(compiler.compile(v0717, input));
    expect(e.code).toBe('compiler_download_failed');
    expect(e.details.failures).toEqual([expect.stringMatching(/^mirror wasm: .*sha256 [0-9a-f]{64} does not match the listed (ab){32}$/)]);
    expect(await cachedFiles(cacheDir)).toEqual([]);
  });

  it('prefers a native build when the mirror lists one', async () => {
    const { compiler, cacheDir } = await freshCompiler({ mirrorUrl: mirror.url, npmRegistryUrl: null, useNative: true });
    const resolved = await compiler.resolve(v0826);
    expect(resolved).toEqual({ kind: 'native', path: join(cacheDir, `solc-linux-amd64-v${v0826}`), longVersion: v0826 });
    expect((await stat(resolved.path)).mode & 0o111).not.toBe(0);
    expect(
      bytecodeOf(
        await compiler.compile(v0826, { ...input, sources: { 'Store.sol': { content: input.sources['Store.sol']!.content!.replace('>=0.4.24', '^0.8.0') } } }),
      ),
    ).toMatch(/^6080/);
  });

  it('says a version is not available when the mirror answers without it and npm is off', async () => {
    const { compiler } = await freshCompiler({ mirrorUrl: mirror.url, npmRegistryUrl: null });
    const e = await rejection(compiler.compile('v0.8.27-nightly.2024.5.1+commit.a6a2b8b8', input));
    expect(e.code).toBe('compiler_version_not_found');
    expect(errorSentence(e)).toBe('Compiler version v0.8.27-nightly.2024.5.1+commit.a6a2b8b8 is not available from any compiler source');
  });

  it('gives up on a mirror that does not answer after the connect timeout', async () => {
    const hanging = await startMirror();
    hanging.silent.add('/wasm/list.json');
    hanging.silent.add('/linux-amd64/list.json');
    try {
      const { compiler } = await freshCompiler({ mirrorUrl: hanging.url, npmRegistryUrl: null, connectTimeoutMs: 300 });
      // The mirror never answers: the failure is the connect timeout's.
      const e = await rejection(compiler.compile(v0612, input));
      expect(e.code).toBe('compiler_download_failed');
      expect(e.details.failures).toEqual([expect.stringMatching(/list\.json failed: timed out \(connect\)$/)]);
    } finally {
      await hanging.close();
    }
  });
});
