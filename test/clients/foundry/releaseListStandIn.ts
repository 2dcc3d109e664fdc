import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { promisify } from 'node:util';
import { INSTALLED_SOLC_VERSIONS, installedLongVersion } from '../../helpers/compilerCache.js';

const run = promisify(execFile);
const HOST = 'binaries.soliditylang.org';

export interface ReleaseListStandIn {
  /** What forge's environment needs to reach the stand-in instead of the internet. */
  env: Record<string, string>;
  /** The hosts forge asked the proxy for (CONNECT), in order: only the release list's is served. */
  connects: string[];
  /** The paths asked of the release list's host. */
  paths: string[];
  close(): Promise<void>;
}

/**
 * A local stand-in for `https://binaries.soliditylang.org/bin/list.txt`. When forge verifies
 * the contracts of a script it knows their compiler only as `0.8.28` and looks the commit up in
 * that list (`lookup_compiler_version` in foundry-block-explorers, a plain `reqwest::get`), so
 * no `.svm` directory name helps. That client takes `HTTPS_PROXY` and trusts the certificates
 * in `SSL_CERT_FILE` (rustls-platform-verifier reads the system's store, which that variable
 * replaces): a proxy on 127.0.0.1 answers the CONNECT to that host with a TLS server of its
 * own, under a certificate signed by a throwaway authority, and serves the list of the solc
 * builds installed from npm. Every other host is refused, so nothing leaves the machine.
 */
export async function startReleaseListStandIn(): Promise<ReleaseListStandIn> {
  const dir = mkdtempSync(join(tmpdir(), 'solproof-release-list-'));
  const file = (name: string) => join(dir, name);
  // A throwaway authority, and the host's certificate signed by it (rustls refuses a CA as the server's own certificate).
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=solproof test authority',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  ]);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${HOST}`, '-keyout', file('host.key'), '-out', file('host.csr')]);
  const extensions = file('host.ext');
  writeFileSync(extensions, `subjectAltName=DNS:${HOST}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n`);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('host.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    extensions,
    '-out',
    file('host.pem'),
  ]);

  // The real list names one build per line, newest first: `soljson-v0.8.28+commit.7893614a.js`.
  const longs = await Promise.all(INSTALLED_SOLC_VERSIONS.map((v) => installedLongVersion(v)));
  const list = `${longs
    .reverse()
    .map((long) => `soljson-v${long}.js`)
    .join('\n')}\n`;

  const paths: string[] = [];
  const connects: string[] = [];
  const tls = createTlsServer({ key: readFileSync(file('host.key')), cert: readFileSync(file('host.pem')) }, (socket) => {
    // A bare HTTP/1.1 server on the decrypted stream: one GET, answered and closed.
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = head.split(' ')[1] ?? '';
      paths.push(path);
      const found = path === '/bin/list.txt';
      const body = found ? list : 'not found\n';
      socket.end(
        `HTTP/1.1 ${found ? '200 OK' : '404 Not Found'}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
    socket.on('error', () => undefined);
  });
  const proxy: Server = createServer((_req, res) => {
    res.writeHead(403).end('only CONNECT to the release list host');
  });
  proxy.on('connect', (req, socket: Socket) => {
    const target = req.url ?? '';
    connects.push(target);
    if (target !== `${HOST}:443`) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n', () => tls.emit('connection', socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    env: {
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
      https_proxy: `http://127.0.0.1:${port}`,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
      SSL_CERT_FILE: file('ca.pem'),
    },
    connects,
    paths,
    close: async () => {
      proxy.closeAllConnections?.();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      tls.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
