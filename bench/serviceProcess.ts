import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { freePort } from '../src/chain/devnet.js';

/** One `compiled` debug line of the service: where a compile's time went inside the worker. */
export interface ServiceCompileLog {
  loadMs: number | null;
  compileMs: number;
  /** Time to find the compiler (a download when it was missing). */
  resolveMs?: number;
}

export interface ServiceProcess {
  apiUrl: string;
  pid: number;
  /** Spawn to first healthy answer. */
  startMs: number;
  /** The `compiled` log lines seen so far, in order. */
  compiles: ServiceCompileLog[];
  /** When each job was finished (its verdict recorded), by receipt: the epoch ms of its log line. */
  jobsDone: Map<string, number>;
  /**
   * Resolves once every compiler warm-up the service started has ended (it compiles a little
   * while idle after loading a compiler): a "warm" figure is measured with warm compilers.
   */
  warmedUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL, as a machine lost or `kill -9`: resolves once the process is gone. */
  kill(): Promise<void>;
}

const PROXY_VARS = ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'];

/** Drops proxy settings so this process and its children reach 127.0.0.1 directly. */
export function clearProxyEnv(): void {
  for (const name of PROXY_VARS) delete process.env[name];
}

/** Creates an API key with the CLI; the key is the last line it prints. */
export async function createKey(cli: string, dataDir: string, extraArgs: string[] = []): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'keys', 'create', '--data-dir', dataDir, ...extraArgs]);
  const key = stdout.trim().split('\n').pop()?.trim();
  if (!key) throw new Error(`keys create printed nothing: ${stdout}`);
  return key;
}

export interface ServiceProcessOptions {
  /** Flags for node itself, before the CLI (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Log level (default debug, where the per-compile split is logged). */
  logLevel?: string;
}

/**
 * Runs `solproof start` as its own process against `rpcUrl` and waits for /health.
 * Only local sources for compilers (the cache must be seeded), and a status-poll rate
 * high enough for 50 ms polling.
 */
export async function startServiceProcess(
  cli: string,
  rpcUrl: string,
  dataDir: string,
  extraArgs: string[] = [],
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const args = [
    ...(options.nodeArgs ?? []),
    cli,
    'start',
    '--rpc-url',
    rpcUrl,
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--solc-mirror',
    '',
    '--npm-registry',
    '',
    '--rate-free',
    '100',
    ...extraArgs,
  ];
  const t0 = performance.now();
  // Debug level by default, because the per-compile load/compile split is logged there.
  // SOLPROOF_BENCH_NODE_ARGS: node flags for every service a bench starts (`--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const envNodeArgs = (process.env.SOLPROOF_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, options.nodeArgs ? args : [...envNodeArgs, ...args], {
    env: { ...process.env, SOLPROOF_LOG_LEVEL: options.logLevel ?? 'debug' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let partial = '';
  const compiles: ServiceCompileLog[] = [];
  const warmUps = { started: 0, ended: 0 };
  const jobsDone = new Map<string, number>();
  child.stdout!.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-20_000)));
  child.stderr!.on('data', (d: Buffer) => {
    const text = d.toString();
    tail = (tail + text).slice(-20_000);
    if (process.env.SOLPROOF_BENCH_SERVICE_LOG) appendFileSync(process.env.SOLPROOF_BENCH_SERVICE_LOG, text);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"warming up a compiler"')) warmUps.started++;
      if (line.includes('"compiler warmed up"')) warmUps.ended++;
      if (line.includes('"verification job done"')) {
        try {
          const entry = JSON.parse(line) as { receipt?: string; time?: number };
          if (entry.receipt && typeof entry.time === 'number') jobsDone.set(entry.receipt, entry.time);
        } catch {
          // not a log line
        }
      }
      if (!line.includes('"compiled"')) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; loadMs?: number | null; compileMs?: number; resolveMs?: number };
        if (entry.msg === 'compiled' && typeof entry.compileMs === 'number') {
          compiles.push({
            loadMs: entry.loadMs ?? null,
            compileMs: entry.compileMs,
            ...(typeof entry.resolveMs === 'number' ? { resolveMs: entry.resolveMs } : {}),
          });
        }
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const apiUrl = `http://127.0.0.1:${port}/api`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${tail}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`service did not become healthy within 60 s:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const warmedUp = async (timeoutMs = 30_000): Promise<void> => {
    const until = Date.now() + timeoutMs;
    // The log line of a warm-up that starts with a verdict may reach this process a moment after it.
    await new Promise((r) => setTimeout(r, 50));
    while (warmUps.ended < warmUps.started && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  };
  const kill = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  return { apiUrl, pid: child.pid!, startMs: performance.now() - t0, compiles, jobsDone, warmedUp, stop, kill };
}

/** An /api answer. */
export interface ApiEnvelope {
  status: string;
  message: string;
  result: unknown;
}

/** One /api call, GET with a query or POST with a form body; throws on an HTTP status other than 200. */
export async function apiCall(apiUrl: string, params: Record<string, string>, method: 'GET' | 'POST'): Promise<ApiEnvelope> {
  const body = new URLSearchParams(params).toString();
  const res =
    method === 'GET'
      ? await fetch(`${apiUrl}?${body}`)
      : await fetch(apiUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${apiUrl}`);
  return (await res.json()) as ApiEnvelope;
}
