/**
 * Keyless limits leave room for others, on two API nodes sharing one PostgreSQL database (as
 * `--role api` they queue jobs and nobody runs them, so receipts stay pending). A client is
 * what `clientKey` says: an IPv6 /64 is one client, an IPv4-mapped address is its IPv4
 * address. Self-service keys hold their daily limit across the nodes; receipt streams are
 * shared fairly; every 429 says the real wait in Retry-After. The service believes
 * X-Forwarded-For from 127.0.0.1, so each request comes from the address the test names.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiPost } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { available } from '../helpers/requirements.js';
import { CLI, cleanEnv, createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, probePostgres, type TestDatabase } from '../helpers/testDatabase.js';

const ACCOUNT = deployerAccount('limits/keylessClients');
const probed = await probePostgres();
const unavailable = available('postgres', probed) ? null : probed;
const CHAIN_ID = 31337;

const from = (address: string) => ({ 'x-forwarded-for': address });
/** Seconds from now to the next UTC midnight, as a daily limit's Retry-After says it. */
const toMidnight = () => Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);

async function keylessRead(service: RunningService, address: string): Promise<string> {
  const url = `${service.apiUrl}?module=contract&action=getabi&address=0x${'0'.repeat(40)}`;
  const envelope = (await (await fetch(url, { headers: from(address) })).json()) as { message: string; result: string };
  return envelope.result === 'Max rate limit reached, please use API Key for higher rate limit' ? 'refused' : 'served';
}

/** An open receipt event stream: its first event, and whether the service has ended it. */
interface Stream {
  status: number;
  retryAfter: string | null;
  first: string;
  ended: Promise<true>;
  close(): void;
}

async function openStream(service: RunningService, receipt: string, address: string): Promise<Stream> {
  const aborter = new AbortController();
  const res = await fetch(`${service.baseUrl}/receipt/${receipt}/events`, { headers: from(address), signal: aborter.signal });
  if (res.status !== 200) {
    await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), first: '', ended: Promise.resolve(true), close: () => {} };
  }
  const reader = res.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  const ended = (async (): Promise<true> => {
    try {
      while (!(await reader.read()).done) {
        // comments and states: read on until the service ends the stream
      }
    } catch {
      // aborted by the test
    }
    return true;
  })();
  return { status: 200, retryAfter: null, first, ended, close: () => aborter.abort() };
}

/** Which of `streams` have ended by now (a settled race against a resolved promise). */
const endedOnes = async (streams: Stream[]): Promise<number[]> => {
  const states = await Promise.all(streams.map((s) => Promise.race([s.ended, Promise.resolve(false as const)])));
  return states.flatMap((ended, i) => (ended ? [i] : []));
};

describe.skipIf(unavailable !== null)('keyless clients on two API nodes sharing PostgreSQL', () => {
  let database: TestDatabase;
  let nodes: RunningService[] = [];
  const streams: Stream[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const args = [
      '--role',
      'api',
      '--database-url',
      database.databaseUrl!,
      '--trusted-proxies',
      '127.0.0.1',
      '--self-service-keys',
      '2',
      '--receipt-streams',
      '16',
      '--keyless-interval-ms',
      '600000',
      '--sourcify-daily-quota',
      '1',
      '--sourcify-rate',
      '1',
      '--code-wait-ms',
      '0',
    ];
    const rpcUrl = inject('rpcUrl');
    nodes = [await startService({ rpcUrl, args }), await startService({ rpcUrl, dataDir: await newDataDir(false), args })];
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await database?.dispose();
  });

  it('self-service keys: requests at once on both nodes create exactly the daily limit per client, an IPv6 /64 being one', async () => {
    const clients = [['192.0.2.11'], ['192.0.2.12'], ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:ffff::9']];
    const asked = clients.flatMap((addresses, c) =>
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${nodes[i % 2]!.baseUrl}/keys`, { method: 'POST', headers: from(addresses[i % addresses.length]!) }).then(async (res) => ({
          client: c,
          status: res.status,
          retryAfter: Number(res.headers.get('retry-after')),
          page: await res.text(),
        })),
      ),
    );
    const answers = await Promise.all(asked);
    for (const c of clients.keys()) {
      const mine = answers.filter((a) => a.client === c);
      expect(mine.map((a) => a.status).sort(), clients[c]!.join()).toEqual([200, 200, 429, 429, 429, 429]);
      // Refused until the day ends: Retry-After is the wait to the next UTC midnight.
      for (const refused of mine.filter((a) => a.status === 429)) {
        expect(refused.retryAfter).toBeGreaterThan(toMidnight() - 120);
        expect(refused.retryAfter).toBeLessThanOrEqual(toMidnight() + 1); // the answer was worked out a moment earlier
      }
    }
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', 'list', '--database-url', database.databaseUrl!], { env: cleanEnv() });
    const owners = stdout
      .split('\n')
      .filter((line) => line.includes('\tself-service '))
      .map((line) => /\tself-service (\S+)\t/.exec(line)?.[1]);
    expect(owners.sort()).toEqual(['192.0.2.11', '192.0.2.11', '192.0.2.12', '192.0.2.12', '2001:db8:5:6::/64', '2001:db8:5:6::/64']);
  });

  it('keyless reads: one IPv6 /64 is one client, another /64 another; an IPv4-mapped address is its IPv4 address', async () => {
    const node = nodes[0]!;
    expect(await keylessRead(node, '2001:db8:7:8::1')).toBe('served');
    expect(await keylessRead(node, '2001:db8:7:8:1234:5678:9abc:def0')).toBe('refused');
    expect(await keylessRead(node, '2001:db8:7:9::1')).toBe('served');
    expect(await keylessRead(node, '::ffff:192.0.2.30')).toBe('served');
    expect(await keylessRead(node, '192.0.2.30')).toBe('refused');
    expect(await keylessRead(node, '192.0.2.31')).toBe('served');
  });

  it('receipt streams: at most 8 per client (a /64 is one); when all 16 are open a newcomer takes the oldest of the client holding the most', async () => {
    const node = nodes[0]!;
    const source = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Waiting { uint256 public n = 7; }\n`;
    const built = await build('0.8.28', standardInput({ 'Waiting.sol': source }), 'Waiting.sol', 'Waiting');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const key = await createKey(node.dataDir, ['--database-url', database.databaseUrl!]);
    const submit = await apiPost(node.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      contractaddress: address,
      sourceCode: source,
      contractname: 'Waiting',
      compilerversion: built.compilerVersion,
    });
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    const receipt = submit.result as string;

    // One at a time, so that the first of each client is its oldest.
    const first: Stream[] = [];
    const sixtyFour: Stream[] = [];
    for (let i = 0; i < 8; i++) first.push(await openStream(node, receipt, '198.51.100.1'));
    for (let i = 0; i < 8; i++) sixtyFour.push(await openStream(node, receipt, `2001:db8:9:9::${i + 1}`));
    streams.push(...first, ...sixtyFour);
    for (const s of [...first, ...sixtyFour]) {
      expect(s.status).toBe(200);
      expect(s.first).toMatch(/^event: state\ndata: \{"state":"queued",.*"done":false\}\n\n$/);
    }
    // Each client is at its 8: refused, told to wait until its oldest stream has run its 10 minutes at most.
    for (const address of ['198.51.100.1', '2001:db8:9:9:abcd::1', '::ffff:198.51.100.1']) {
      const refused = await openStream(node, receipt, address);
      expect(refused.status, address).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(500);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(600);
    }
    expect(await endedOnes([...first, ...sixtyFour])).toEqual([]);

    // All 16 are open: a newcomer gets a stream, and the oldest stream of a client holding 8 ends.
    const newcomer = await openStream(node, receipt, '203.0.113.50');
    streams.push(newcomer);
    expect(newcomer.status).toBe(200);
    expect(newcomer.first).toContain('"state":"queued"');
    await first[0]!.ended;
    expect(await endedOnes([...first, ...sixtyFour])).toEqual([0]);
    // The next newcomer takes from the other client holding 8.
    const second = await openStream(node, receipt, '203.0.113.51');
    streams.push(second);
    expect(second.status).toBe(200);
    await sixtyFour[0]!.ended;
    expect(await endedOnes([...first, ...sixtyFour])).toEqual([0, 8]);
    expect(await endedOnes([newcomer, second])).toEqual([]);
  });

  it("Sourcify's 429s say when to come back: its rate, the client's own job at the address, its daily quota", async () => {
    const node = nodes[1]!;
    const sources = [0, 1].map((i) => `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Quota${i} { uint256 public n = ${i}; }\n`);
    const targets = [];
    for (const [i, source] of sources.entries()) {
      const built = await build('0.8.28', standardInput({ [`Quota${i}.sol`]: source }), `Quota${i}.sol`, `Quota${i}`);
      const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
      targets.push({
        address,
        body: { stdJsonInput: built.input, compilerVersion: built.compilerVersion.slice(1), contractIdentifier: `Quota${i}.sol:Quota${i}` },
      });
    }
    const post = async (address: string, body: unknown, client: string) => {
      const res = await fetch(`${node.baseUrl}/sourcify/v2/verify/${CHAIN_ID}/${address}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from(client) },
        body: JSON.stringify(body),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { customCode?: string } };
    };
    const pause = (seconds: string | null) => new Promise((r) => setTimeout(r, Number(seconds) * 1000));

    const accepted = await post(targets[0]!.address, targets[0]!.body, '2001:db8:a:b::1');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    // --sourcify-rate 1: the same /64 at once is over its rate, and told to wait its second.
    const tooFast = await post(targets[1]!.address, targets[1]!.body, '2001:db8:a:b::2');
    expect([tooFast.status, tooFast.body.customCode, tooFast.retryAfter]).toEqual([429, 'too_many_requests', '1']);
    await pause(tooFast.retryAfter);
    // The same /64's own job for the address is queued: its duplicate is told to ask again in a few seconds.
    const busy = await post(targets[0]!.address, targets[0]!.body, '2001:db8:a:b::9');
    expect([busy.status, busy.body.customCode, busy.retryAfter]).toEqual([429, 'duplicate_verification_request', '5']);
    await pause(tooFast.retryAfter);
    // --sourcify-daily-quota 1, used by the /64's first submission: back at the next UTC midnight.
    const quota = await post(targets[1]!.address, targets[1]!.body, '2001:db8:a:b:c::3');
    expect([quota.status, quota.body.customCode]).toEqual([429, 'too_many_requests']);
    expect(Number(quota.retryAfter)).toBeGreaterThan(toMidnight() - 120);
    expect(Number(quota.retryAfter)).toBeLessThanOrEqual(toMidnight() + 1); // the answer was worked out a moment earlier
  });
});
