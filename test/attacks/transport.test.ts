/**
 * Attacks 7, 8 and the transport items of attack 9, against a service of its own (and the
 * suite's service where a verified contract is needed): large bodies from unauthorised
 * senders, invented commits, the explorer's call routes, keys in logs, slow clients.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait, waitForVerdict } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('attacks/transport');
const V0_8_28 = 'v0.8.28+commit.7893614a';
const BOX = 'pragma solidity ^0.8.0;\ncontract Box { uint256 public value = 7; }\n';

/** An npm registry on 127.0.0.1 that has nothing, and counts what it was asked. */
async function emptyRegistry(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Sends a request head and the first `prefix` bytes of a body that would be `total` bytes,
 * then stops sending and waits for an answer. Resolves with the answer's body and whether
 * the rest was ever needed (it never is sent), or null when nothing came back in time.
 */
function sendPartialBody(port: number, target: string, total: number, prefix: Buffer, timeoutMs = 30_000): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, timeoutMs);
    socket.on('data', (d: Buffer) => {
      received += d.toString('utf8');
      const end = received.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? NaN);
      if (end >= 0 && received.length - end - 4 >= length) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.slice(end + 4));
      }
    });
    socket.on('error', () => undefined);
    socket.write(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${total}\r\n\r\n`);
    socket.write(prefix);
  });
}

describe('transport and compiler-source attacks on a service of its own', () => {
  let service: RunningService;
  let registry: Awaited<ReturnType<typeof emptyRegistry>>;
  let key: string;
  let box: Built;
  let boxAddress: string;

  beforeAll(async () => {
    registry = await emptyRegistry();
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      seedCompilers: false,
      args: ['--npm-registry', registry.url, '--daily-verify-quota', '1', '--rate-free', '1000'],
    });
    key = await createKey(service.dataDir);
    box = await build('0.8.28', standardInput({ 'Box.sol': BOX }), 'Box.sol', 'Box');
    ({ address: boxAddress } = await deployContract(box.abi, box.bytecode, [], ACCOUNT));
  });
  afterAll(async () => {
    await service?.stop();
    await registry?.close();
  });

  const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());

  it('attack 7: a large body is not read past its first MB without a valid key, nor for a read action', async () => {
    const total = 8 * 1024 * 1024;
    const head = { module: 'contract', action: 'verifysourcecode', contractaddress: boxAddress, contractname: 'Box', compilerversion: V0_8_28 };
    const prefix = Buffer.concat([form(head), Buffer.from('&sourceCode='), Buffer.alloc(2 * 1024 * 1024, 'a')]);
    // The rest of each body is never sent: every answer below came while 6 MB of it were missing.
    const keyless = await sendPartialBody(service.port, '/api', total, prefix);
    expect(JSON.parse(keyless!)).toEqual({
      status: '0',
      message: 'NOTOK',
      result:
        'Request bodies over 1048576 bytes are read only for submissions with a valid API key: send apikey in the query string or as the first body field',
    });
    const wrongKey = await sendPartialBody(service.port, '/api?apikey=NOTAKEY0000000000000000000000000000', total, prefix);
    expect(JSON.parse(wrongKey!)).toMatchObject({ status: '0', result: 'Invalid API Key' });
    const readPrefix = Buffer.concat([
      form({ apikey: key, module: 'contract', action: 'getabi' }),
      Buffer.from('&address='),
      Buffer.alloc(2 * 1024 * 1024, 'a'),
    ]);
    const read = await sendPartialBody(service.port, '/api', total, readPrefix);
    expect(JSON.parse(read!)).toMatchObject({
      status: '0',
      result: 'Request bodies over 1048576 bytes are accepted only for verifysourcecode, verifyproxycontract and verifybuild',
    });

    // A valid key's large submission is read and accepted as usual.
    const big = await apiPost(service.apiUrl, { apikey: key, ...head, sourceCode: `${BOX}//${'x'.repeat(3 * 1024 * 1024)}\n` });
    expect(big.status).toBe('1');
    // Its job compiles with the solc 0.8.28 installed with the service (never downloaded, so the
    // empty registry is not asked); let it end so attack 8 counts only its own requests.
    const before = registry.hits.length;
    const verdict = await waitForVerdict(service.apiUrl, big.result as string, key);
    expect(verdict.result).toBe('Pass - Verified');
    expect(registry.hits.length).toBe(before);
  });

  it('attack 8: an invented commit for a real release is refused at once: no download, no quota used', async () => {
    const submit = (compilerversion: string) =>
      apiPost(service.apiUrl, {
        module: 'contract',
        action: 'verifysourcecode',
        apikey: key,
        ...singleFileFields(boxAddress, box, 'Box', BOX),
        compilerversion,
      });
    // The service may refresh its release list (the package document, /solc) meanwhile; anything else is a download.
    const downloads = () => registry.hits.filter((url) => url.split('?')[0] !== '/solc').length;
    const hitsBefore = downloads();
    for (const invented of ['v0.8.28+commit.deadbeef', 'v0.8.28+commit.7893614b', 'v0.8.28+commit.789361']) {
      expect(await submit(invented)).toEqual({
        status: '0',
        message: 'NOTOK',
        result: `Invalid parameter compilerversion: "${invented}" is not a solc release; did you mean v0.8.28+commit.7893614a?`,
      });
    }
    expect(downloads()).toBe(hitsBefore);
    // The day's only verification (quota 1) was spent by the large submission above, not by these.
    // Run without blocking this process: pooled connections must see the service's keep-alive end while it runs.
    const { stdout: keys } = await promisify(execFile)(process.execPath, [
      join(process.cwd(), 'dist', 'cli', 'main.js'),
      'keys',
      'list',
      '--data-dir',
      service.dataDir,
    ]);
    expect(keys.trim().split('\n')[1]!.split('\t')[7]).toBe('1');
  });

  it('attack 9: explorer calls, address pages and the CSV are rate-limited per client', async () => {
    const reads = await Promise.all(
      Array.from({ length: 25 }, () =>
        fetch(`${service.baseUrl}/address/${boxAddress}/read`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"function":"value"}',
        }),
      ),
    );
    const limited = reads.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(await limited[0]!.json()).toEqual({ error: 'At most 10 contract calls per second; please slow down.' });
    const pages = await Promise.all(Array.from({ length: 25 }, () => fetch(`${service.baseUrl}/address/${boxAddress}`)));
    expect(pages.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(10);
    const first = await fetch(`${service.baseUrl}/verified-contracts.csv`);
    expect(first.status).toBe(200);
    await first.text();
    const second = await fetch(`${service.baseUrl}/verified-contracts.csv`);
    expect(second.status).toBe(429);
  });

  it('attack 9: a client that sends its request line and nothing more is cut off within seconds', async () => {
    const { closed, received } = await new Promise<{ closed: boolean; received: string }>((resolve) => {
      const socket = connect(service.port, '127.0.0.1');
      let received = '';
      socket.write('GET /api?module=contract&action=getabi HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      socket.on('data', (d: Buffer) => (received += d.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ closed: true, received }));
      setTimeout(() => {
        socket.destroy();
        resolve({ closed: false, received });
      }, 60_000);
    });
    expect(closed).toBe(true);
    // Cut off by the headers' time limit (10 s), which answers before closing: the idle limit
    // (30 s) closes without an answer.
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'The request took too long to arrive',
    });
  });

  it('attack 9: an API key in the query string is never logged in clear when a request fails inside', async () => {
    // Break the store under the running service: every read of verified contracts now fails.
    const db = new Database(join(service.dataDir, 'solproof.sqlite'));
    db.exec('DROP TABLE verified_contracts');
    db.close();
    const env = await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address: boxAddress, apikey: key });
    expect(env).toEqual({ status: '0', message: 'NOTOK', result: 'Internal error; please try again later' });
    // The service's log reaches this process through a pipe: wait for the line, however busy the machine.
    const log = await service.outputWith('"msg":"request failed"', 10_000);
    expect(log).toContain('apikey=[redacted]');
    expect(log).not.toContain(key);
  });
});

const BURN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Burner {
    function burn(uint256 rounds) external view returns (uint256 acc) {
        for (uint256 i = 0; i < rounds; i++) {
            assembly { mstore(0, acc) mstore(32, i) acc := keccak256(0, 64) }
        }
    }
}
`;

describe("attack 9: the explorer's eth_call gets a bounded gas allowance", () => {
  const { apiUrl, apiKey, baseUrl } = sharedService();
  it("a view that needs more gas than the allowance fails instead of running to the node's cap", async () => {
    const burner = await build('0.8.28', standardInput({ 'Burner.sol': BURN }), 'Burner.sol', 'Burner');
    const { address } = await deployContract(burner.abi, burner.bytecode, [], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, burner, 'Burner', BURN));
    expect(status?.result).toBe('Pass - Verified');
    const read = (rounds: number) =>
      fetch(`${baseUrl}/address/${address}/read`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ function: 'burn', args: [String(rounds)] }),
      });
    // About 125 gas a round: 50,000 rounds (6.3M gas) fit in the 10M allowance, 100,000 (12.5M)
    // do not; anvil alone answers eth_call for both.
    expect((await read(50_000)).status).toBe(200);
    const heavy = await read(100_000);
    expect(heavy.status).toBe(422);
    expect(await heavy.json()).toEqual({ error: 'The call to burn(uint256) reverted' });
  });
});
