/**
 * A deployment on this machine made of real processes: an anvil of the file's own, PostgreSQL
 * and Redis reached through TCP relays the test can cut (the machine's servers are never
 * stopped), and `solproof start --role ...` processes sharing them.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { type Abi, createPublicClient, createWalletClient, encodeDeployData, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type Devnet, devnetAccounts, startDevnet } from '../../src/chain/devnet.js';
import type { Address, Hex } from '../../src/core/types.js';
import { probeRedis } from '../../src/limits/redisRateLimits.js';
import { available } from '../helpers/requirements.js';
import { type RunningService, startService } from '../helpers/service.js';
import { probePostgres } from '../helpers/testDatabase.js';

export const REDIS_URL = process.env.SOLPROOF_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Null when PostgreSQL and Redis both answer; else why not (and a failure under SOLPROOF_REQUIRE). */
export async function clusterUnavailable(): Promise<string | null> {
  const [pg, redis] = await Promise.all([probePostgres(), probeRedis(REDIS_URL)]);
  const pgOk = available('postgres', pg && `no PostgreSQL (${pg})`);
  const redisOk = available('redis', redis && `no Redis at ${REDIS_URL} (${redis})`);
  return pgOk && redisOk ? null : [pg, redis].filter(Boolean).join(', ');
}

/** A TCP relay to `host:port` that can be cut (its listener closed, its connections dropped) and restored on the same port. */
export interface Relay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startRelay(host: string, port: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let listenPort = 0;
  const listen = async () => {
    const s = createServer((client) => {
      const upstream = connect(port, host);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.on('error', () => b.destroy());
        a.on('close', () => {
          sockets.delete(a);
          b.destroy();
        });
      }
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(listenPort, '127.0.0.1', () => resolve());
    });
    listenPort = (s.address() as AddressInfo).port;
    server = s;
  };
  const cut = async () => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  await listen();
  return { port: listenPort, cut, restore: listen, close: cut };
}

/** The chain of a test file: its own anvil and a deployer. */
export interface OwnChain {
  devnet: Devnet;
  deploy(abi: Abi, bytecode: Hex, args?: readonly unknown[], account?: number): Promise<Address>;
  mine(blocks: number): Promise<void>;
}

export async function startOwnChain(): Promise<OwnChain> {
  const devnet = await startDevnet({ accounts: 4 });
  const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
  const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const wallets = devnetAccounts(4).map((a) => createWalletClient({ chain, account: privateKeyToAccount(a.privateKey), transport: http(devnet.rpcUrl) }));
  return {
    devnet,
    async deploy(abi, bytecode, args = [], account = 0) {
      const wallet = wallets[account]!;
      const data = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0]);
      const hash = await wallet.sendTransaction({ account: wallet.account, chain, data, gas: 10_000_000n });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
      return receipt.contractAddress.toLowerCase() as Address;
    },
    async mine(blocks) {
      await publicClient.request({ method: 'anvil_mine' as 'eth_blockNumber', params: [`0x${blocks.toString(16)}`] as unknown as undefined });
    },
  };
}

/**
 * A JSON-RPC relay that, while `held`, keeps every eth_getCode request waiting (a job reads the
 * deployed code first): a job stays in the middle of its work for as long as the test wants.
 */
export async function startHoldingRelay(upstream: string) {
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const state = { held: 0, hold: () => {}, release: () => {} };
  state.hold = () => {
    gate = new Promise<void>((r) => (release = r));
  };
  state.release = () => release();
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString();
        if (body.includes('"eth_getCode"')) {
          state.held++;
          await gate;
          state.held--;
        }
        const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}

export type HoldingRelay = Awaited<ReturnType<typeof startHoldingRelay>>;

/** `url` with its host and port replaced by the relay's. */
export function throughRelay(url: string, relay: Relay): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(relay.port);
  return u.toString();
}

/** Starts `solproof start --role <role>` on the shared store, Redis and node. */
export function startRole(
  role: 'api' | 'worker',
  options: { databaseUrl: string; redisUrl: string; rpcUrl: string; dataDir?: string; args?: string[] },
): Promise<RunningService> {
  return startService({
    rpcUrl: options.rpcUrl,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    args: ['--role', role, '--database-url', options.databaseUrl, '--redis-url', options.redisUrl, ...(options.args ?? [])],
  });
}

/** Waits until `check` returns a value other than undefined (polling every 100 ms), or throws after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A sample of a metrics family: its name (with suffix), labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/**
 * Parses Prometheus text exposition (0.0.4) strictly: every line a HELP, a TYPE (once per
 * family, before its samples) or a sample of a declared family; names, labels and numbers
 * well-formed; histogram buckets cumulative and ending in `+Inf` equal to `_count`. Throws on
 * the first line that is not.
 */
export function parsePrometheusText(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] !== '') throw new Error('exposition must end with a newline');
  for (const [i, line] of lines.slice(0, -1).entries()) {
    const fail = (why: string) => new Error(`line ${i + 1}: ${why}: ${line}`);
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (!m) throw fail('a comment that is neither HELP nor TYPE');
      if (!NAME.test(m[2]!)) throw fail('bad metric name');
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3]!)) throw fail('unknown type');
        if (types.has(m[2]!)) throw fail('TYPE given twice');
        if (samples.some((s) => familyOf(s.name, types) === m[2])) throw fail('TYPE after samples');
        types.set(m[2]!, m[3]!);
      }
      continue;
    }
    if (line.trim() === '') continue; // the format ignores empty lines
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)( -?\d+)?$/.exec(line);
    if (!m) throw fail('not a sample');
    const labels: Record<string, string> = {};
    let rest = m[2] ? m[2].slice(1, -1) : '';
    while (rest.length) {
      const l = LABEL.exec(rest);
      if (!l) throw fail('bad labels');
      if (l[1]! in labels) throw fail('label given twice');
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
      rest = rest.slice(l[0].length);
    }
    const raw = m[3]!;
    // Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case: prom-client
    // writes `Nan` (an event-loop lag mean before its first sample).
    const special = raw.toLowerCase();
    const value = special === '+inf' ? Infinity : special === '-inf' ? -Infinity : special === 'nan' ? NaN : Number(raw);
    if (!/^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|\+inf|-inf|nan)$/i.test(raw) || (Number.isNaN(value) && special !== 'nan')) throw fail('bad value');
    if (familyOf(m[1]!, types) === null) throw fail('sample of an undeclared family');
    samples.push({ name: m[1]!, labels, value });
  }
  // Histograms: cumulative buckets, +Inf equals _count.
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const groups = new Map<string, Sample[]>();
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels;
      if (le === undefined) throw new Error(`${family}_bucket without le`);
      const key = JSON.stringify(rest);
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    for (const [key, buckets] of groups) {
      let last = -1;
      for (const b of buckets) {
        if (b.value < last) throw new Error(`${family} buckets not cumulative for ${key}`);
        last = b.value;
      }
      const inf = buckets.find((b) => b.labels.le === '+Inf');
      const count = samples.find((s) => s.name === `${family}_count` && JSON.stringify(s.labels) === key);
      if (!inf || !count || inf.value !== count.value) throw new Error(`${family}: +Inf bucket and _count differ for ${key}`);
    }
  }
  return { types, samples };
}

function familyOf(name: string, types: Map<string, string>): string | null {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count', '_total', '_created']) {
    if (name.endsWith(suffix) && types.has(name.slice(0, -suffix.length))) return name.slice(0, -suffix.length);
  }
  return null;
}

/** Scrapes `/metrics` of a process and parses it strictly. */
export async function scrape(service: { baseUrl: string }): Promise<Sample[]> {
  const res = await fetch(`${service.baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  if (!(res.headers.get('content-type') ?? '').startsWith('text/plain')) throw new Error(`/metrics content type ${res.headers.get('content-type')}`);
  return parsePrometheusText(await res.text()).samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}

/** `/health/ready`'s status and body. */
export async function readiness(service: {
  baseUrl: string;
}): Promise<{ status: number; body: { ready: boolean; status: string; checks: Record<string, { ok: boolean }> } }> {
  const res = await fetch(`${service.baseUrl}/health/ready`);
  return { status: res.status, body: (await res.json()) as never };
}
