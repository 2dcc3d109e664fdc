import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_HINT_MS, keepAliveLongerThanTold } from './keepAlive.js';

/**
 * A client in a process of its own (its event loop must keep running while the server's
 * stalls): one request, then a second on the same kept-alive connection a second later. It
 * prints the server's Keep-Alive header, then what became of the second request.
 */
const CLIENT = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (path) => new Promise((resolve, reject) => {
  const r = http.request({ host: '127.0.0.1', port: Number(process.argv[1]), path, agent }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.headers['keep-alive']));
  });
  r.on('error', reject);
  r.end();
});
get('/first').then(async (hint) => {
  console.log(hint);
  await new Promise((r) => setTimeout(r, 1000));
  console.log(await get('/second').then(() => 'answered', (e) => e.code));
  agent.destroy();
});
`;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * Serves one client as above, with this process's event loop stalled (as a busy service's is)
 * from just after the first answer until past the told keep-alive time: the second request
 * arrives during the stall and waits unread. Returns what the client printed.
 */
async function stalledServer(prepare: (server: Server) => void): Promise<string[]> {
  const server = createServer((request, response) => {
    response.end('ok');
    if (request.url === '/first') {
      // An I/O callback's work: the loop then runs its timers before it reads the sockets again.
      setTimeout(
        () =>
          setImmediate(() => {
            const until = Date.now() + KEEP_ALIVE_HINT_MS + 1500;
            while (Date.now() < until) {
              // the stall
            }
          }),
        300,
      );
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_HINT_MS;
  prepare(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', CLIENT, String((server.address() as AddressInfo).port)]);
  return stdout.trim().split('\n');
}

describe('keep-alive: idle connections are kept longer than clients are told', () => {
  it('a request that arrives on a kept-alive connection while the loop is stalled past the told time is answered', async () => {
    expect(await stalledServer(keepAliveLongerThanTold)).toEqual([`timeout=${KEEP_ALIVE_HINT_MS / 1000}`, 'answered']);
  }, 30_000);

  it('(the fault it prevents) a server that keeps connections exactly as long as it tells resets that request', async () => {
    expect(await stalledServer(() => {})).toEqual([`timeout=${KEEP_ALIVE_HINT_MS / 1000}`, 'ECONNRESET']);
  }, 30_000);
});
