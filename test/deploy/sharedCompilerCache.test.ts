import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { installedLongVersion } from '../helpers/compilerCache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What each worker process runs: the service's compiler on the shared cache, one compile. */
const WORKER = `
import { createSolcCompiler } from ${JSON.stringify(join(root, 'dist', 'compilers', 'index.js'))};
const [cacheDir, mirrorUrl, version] = process.argv.slice(1);
const compiler = createSolcCompiler({ cacheDir, mirrorUrl, npmRegistryUrl: null, useNative: false, maxThreads: 1 });
const input = { language: 'Solidity', sources: { 'Store.sol': { content: 'pragma solidity >=0.4.24;\\ncontract Store { uint256 public value; }\\n' } },
  settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } } };
const output = await compiler.compile(version, input);
process.stdout.write(JSON.stringify({ bytecode: output.contracts?.['Store.sol']?.Store?.evm?.bytecode?.object ?? null, downloads: compiler.stats().downloads }));
await compiler.close();
`;

describe('one compiler cache directory shared by the worker processes of a host', () => {
  it('two processes downloading the same compiler at once both get it whole, checksummed, stored once', async () => {
    const version = await installedLongVersion('0.6.12');
    const soljson = readFileSync(join(root, 'node_modules', 'solc-0.6.12', 'soljson.js'));
    const sha256 = `0x${createHash('sha256').update(soljson).digest('hex')}`;
    const list = JSON.stringify({
      builds: [{ path: `soljson-v${version}.js`, version: '0.6.12', build: `commit.${version.split('commit.')[1]}`, longVersion: version, sha256, urls: [] }],
    });
    // The mirror holds the build until both processes ask for it: the downloads overlap for certain.
    const waiting: ServerResponse[] = [];
    let downloads = 0;
    const server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/wasm/list.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(list);
      if (path !== `/wasm/soljson-v${version}.js`) return void res.writeHead(404).end();
      downloads++;
      waiting.push(res);
      if (waiting.length === 2) {
        for (const r of waiting.splice(0)) {
          // In pieces, so the two writes interleave too.
          r.writeHead(200, { 'content-length': soljson.length });
          const step = Math.ceil(soljson.length / 8);
          let at = 0;
          const next = () => {
            if (at >= soljson.length) return void r.end();
            r.write(soljson.subarray(at, (at += step)));
            setTimeout(next, 20);
          };
          next();
        }
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const mirrorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cacheDir = join(mkdtempSync(join(tmpdir(), 'solproof-shared-cache-')), 'compilers');
    try {
      const run = () =>
        promisify(execFile)(process.execPath, ['--input-type=module', '-e', WORKER, cacheDir, mirrorUrl, version], { timeout: 120_000 }).then(
          ({ stdout }) => JSON.parse(stdout) as { bytecode: string | null; downloads: { mirror: number } },
        );
      const results = await Promise.all([run(), run()]);
      expect(downloads).toBe(2);
      for (const r of results) {
        expect(r.bytecode).toMatch(/^6080/);
        expect(r.downloads.mirror).toBe(1);
      }
      // One file, byte for byte the checksummed build; no partial download left beside it.
      const files = readdirSync(cacheDir).filter((f) => f !== 'package.json');
      expect(files).toEqual([`soljson-v${version}.js`]);
      expect(readFileSync(join(cacheDir, files[0]!)).equals(soljson)).toBe(true);
      // A third process finds it cached and downloads nothing.
      const third = await run();
      expect(third.bytecode).toMatch(/^6080/);
      expect(third.downloads.mirror).toBe(0);
      expect(downloads).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 180_000);
});
