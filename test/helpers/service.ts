import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../../src/chain/devnet.js';
import { seedCompilerCache } from './compilerCache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(root, 'dist', 'cli', 'main.js');

export interface RunningService {
  baseUrl: string;
  apiUrl: string;
  dataDir: string;
  port: number;
  process: ChildProcess;
  /** Output so far (stdout + stderr). */
  output(): string;
  /**
   * The output once it holds `text`. The log reaches this process through a pipe, with no order
   * against the answers it gets over HTTP: a line written before an answer may arrive after it.
   */
  outputWith(text: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
  /** SIGINT, as Ctrl-C in a terminal sends it: to the whole process group when started with `ownProcessGroup`. Resolves on exit. */
  interrupt(): Promise<void>;
  kill(): Promise<void>;
}

export interface StartServiceOptions {
  rpcUrl?: string;
  dataDir?: string;
  port?: number;
  args?: string[];
  env?: Record<string, string>;
  /** Copy the npm-installed compilers into the data dir's cache first (default true). */
  seedCompilers?: boolean;
  /** Run in a process group of its own, as a terminal runs `npm start` (see interrupt()). */
  ownProcessGroup?: boolean;
}

/** A data dir with the test compilers seeded, so the service never downloads one. */
export async function newDataDir(seed = true): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'solproof-test-'));
  if (seed) await seedCompilerCache(join(dir, 'compilers'));
  return dir;
}

/** Starts `solproof start` (the built CLI) as a real process and waits for /health. */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const dataDir = options.dataDir ?? (await newDataDir(options.seedCompilers ?? true));
  const port = options.port ?? (await freePort());
  const args = [CLI, 'start', '--port', String(port), '--data-dir', dataDir, '--solc-mirror', '', '--vyper-dir', join(root, '.vyper'), '--vyper-releases', ''];
  if (options.rpcUrl) args.push('--rpc-url', options.rpcUrl);
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, {
    // On the suite's shared devnet a new service follows from the head: reading back through
    // every earlier file's blocks would only slow it (a flag overrides this).
    env: { ...cleanEnv(), SOLPROOF_LOG_LEVEL: 'warn', SOLPROOF_FOLLOW_BACKFILL_BLOCKS: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-200_000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });
  return {
    baseUrl,
    apiUrl: `${baseUrl}/api`,
    dataDir,
    port,
    process: child,
    output: () => output,
    outputWith: async (text, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (Date.now() > deadline) throw new Error(`the service did not print ${JSON.stringify(text)} within ${timeoutMs} ms:\n${output.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return output;
    },
    stop: async () => {
      const done = exited();
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(t);
    },
    interrupt: async () => {
      const done = exited();
      if (options.ownProcessGroup) process.kill(-child.pid!, 'SIGINT');
      else child.kill('SIGINT');
      const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await done;
      clearTimeout(t);
    },
    kill: async () => {
      const done = exited();
      child.kill('SIGKILL');
      await done;
    },
  };
}

/** The environment without proxy settings (clients must talk to 127.0.0.1 directly). */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY']) delete env[k];
  return env;
}

/** Creates an API key with the CLI; returns the key (the last line of stdout). */
export async function createKey(dataDir: string, extra: string[] = [], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', 'create', '--data-dir', dataDir, ...extra], {
    env: { ...cleanEnv(), ...env },
  });
  const lines = stdout.trim().split('\n');
  return lines[lines.length - 1]!.trim();
}
