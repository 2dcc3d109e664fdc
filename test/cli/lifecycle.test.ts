import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/chain/devnet.js';
import { CONFIG_OPTIONS } from '../../src/core/config.js';
import { CLI, cleanEnv, createKey, newDataDir } from '../helpers/service.js';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Whether a JSON-RPC node answers at `url`. */
async function rpcAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

async function httpAnswers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check` is false (gone), up to a generous bound; returns whether it went. */
async function gone(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 150; i++) {
    if (!(await check())) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  explorer: string;
  api: string;
  rpc: string;
}

/** Runs `command` and waits for the banner; reads the URLs it prints. */
async function startAndReadBanner(command: string, args: string[], last = /Next: create an API key[^\n]*\n[^\n]*keys create[^\n]*\n/): Promise<Started> {
  const child = spawn(command, args, { cwd: root, env: { ...cleanEnv(), SOLPROOF_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; !last.test(output); i++) {
    if (child.exitCode !== null || i > 1200) throw new Error(`no banner:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const field = (name: string) => new RegExp(`^ {2}${name}:\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '';
  return { child, output: () => output, explorer: field('Explorer'), api: field('API'), rpc: field('Chain RPC') };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('the command line', () => {
  it('--help exits 0 and lists every command and every option; --version prints the package version', async () => {
    const { stdout } = await run(process.execPath, [CLI, '--help'], { env: cleanEnv() });
    for (const command of ['start', 'keys create', 'keys list', 'keys revoke', 'store stats']) expect(stdout).toContain(`  ${command}`);
    for (const option of CONFIG_OPTIONS) expect(stdout).toContain(`--${option.flag} `);
    for (const flag of ['--owner', '--tier', '--help', '--version']) expect(stdout).toContain(flag);
    expect((await run(process.execPath, [CLI, 'help'], { env: cleanEnv() })).stdout).toBe(stdout);
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect((await run(process.execPath, [CLI, '--version'], { env: cleanEnv() })).stdout).toBe(`solproof ${version}\n`);
    // Nothing asked is a usage error.
    await expect(run(process.execPath, [CLI], { env: cleanEnv() })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: solproof') });
  });

  it('a busy --port ends with the port and the flag to change it, not a stack, and a non-zero exit', async () => {
    const holder: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const dataDir = await newDataDir(false);
      const failed = await run(process.execPath, [CLI, 'start', '--port', String(port), '--data-dir', dataDir], { env: cleanEnv() }).then(
        () => null,
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe(
        `solproof: port ${port} on 127.0.0.1 is in use (another solproof, or another server?): stop it, or start with another port, e.g. --port ${port + 1} (or PORT=${port + 1})\n`,
      );
      // Checked before a devnet was started.
      expect(failed?.stdout).not.toContain('devnet');
    } finally {
      holder.close();
    }
  });
});

describe('npm start', () => {
  it('reports its steps; the banner gives the explorer, the API, the devnet and the next step; SIGTERM to its PID stops the service and the devnet', async () => {
    const dataDir = await newDataDir(false);
    const port = await freePort();
    const s = await startAndReadBanner('npm', ['start', '--', '--port', String(port), '--data-dir', dataDir, '--solc-mirror', '']);
    try {
      const out = s.output();
      const steps = [
        'solproof: ',
        'Starting a local devnet (anvil)',
        'started a local devnet (anvil) at',
        'Opening the store',
        'solproof is serving',
        'Explorer:',
      ];
      const at = steps.map((step) => out.indexOf(step));
      expect(
        at.every((i) => i >= 0),
        out,
      ).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      expect(out).toMatch(/solproof: (dist\/ is up to date with src\/: no build needed|built in \d+ s)/);
      expect(s.explorer).toBe(`http://127.0.0.1:${port}/`);
      expect(s.api).toBe(`http://127.0.0.1:${port}/api`);
      expect(s.rpc).toBe(/started a local devnet \(anvil\) at (\S+), chain id/.exec(out)?.[1]);
      expect(out).toContain(`npm run solproof -- keys create --owner you --data-dir ${dataDir}\n`);
      expect((await fetch(s.explorer)).status).toBe(200);
      expect(await rpcAnswers(s.rpc)).toBe(true);

      // The banner gives the service's PID and how to stop it; a signal to that PID stops the
      // service and its devnet, says so, and npm ends with it.
      const pid = Number(/solproof is serving chain \d+ at \S+ \(pid (\d+);/.exec(out)?.[1]);
      expect(pid, out).toBeGreaterThan(0);
      expect(out).toContain(`  Stop it:     Ctrl-C, or kill ${pid} (the devnet stops with it)\n`);
      process.kill(pid, 'SIGTERM');
      await exited(s.child);
      expect(s.output()).toContain('solproof is stopping (SIGTERM): finishing requests and jobs in flight');
      expect(s.output()).toContain(`solproof stopped (pid ${pid})\n`);
      expect(await gone(() => httpAnswers(s.explorer))).toBe(true);
      expect(await gone(() => rpcAnswers(s.rpc))).toBe(true);
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('with keys in the store, the banner says so instead of asking for one', async () => {
    const dataDir = await newDataDir(false);
    await createKey(dataDir, ['--owner', 'earlier']);
    const s = await startAndReadBanner(
      process.execPath,
      [CLI, 'start', '--port', '0', '--data-dir', dataDir, '--solc-mirror', ''],
      /API keys:[^\n]*\n[^\n]*keys create[^\n]*\n/,
    );
    try {
      expect(s.output()).toContain(`  API keys:    1 in this store (list them: npm run solproof -- keys list --data-dir ${dataDir})\n`);
      expect(s.output()).not.toContain('Next: create an API key');
    } finally {
      s.child.kill('SIGKILL');
      await exited(s.child);
    }
  });

  it('SIGKILL to npm: the service notices its parent is gone and stops, with its devnet', async () => {
    const dataDir = await newDataDir(false);
    const s = await startAndReadBanner('npm', ['start', '--', '--port', '0', '--data-dir', dataDir, '--solc-mirror', '']);
    expect(await rpcAnswers(s.rpc)).toBe(true);
    expect(await httpAnswers(s.api)).toBe(true);
    s.child.kill('SIGKILL');
    await exited(s.child);
    expect(await gone(() => httpAnswers(s.api))).toBe(true);
    expect(await gone(() => rpcAnswers(s.rpc))).toBe(true);
  });

  it('SIGKILL to the service itself: its devnet stops', async () => {
    const dataDir = await newDataDir(false);
    const s = await startAndReadBanner(process.execPath, [CLI, 'start', '--port', '0', '--data-dir', dataDir, '--solc-mirror', '']);
    expect(await rpcAnswers(s.rpc)).toBe(true);
    s.child.kill('SIGKILL');
    await exited(s.child);
    expect(await gone(() => rpcAnswers(s.rpc))).toBe(true);
  });

  it('a busy 8545 is named: the devnet takes another port, and the banner gives the one it took', async () => {
    // Held by this test for the whole check: a devnet another test holds it with may stop
    // meanwhile (a clean-clone run saw this service then take the freed 8545). Something that
    // holds it for a whole minute keeps it busy just as well.
    const holder: Server = createServer();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const held = await new Promise<boolean>((resolve) => {
        holder.once('error', () => resolve(false));
        holder.listen(8545, '127.0.0.1', () => resolve(true));
      });
      if (held) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    try {
      const dataDir = await newDataDir(false);
      const s = await startAndReadBanner(process.execPath, [CLI, 'start', '--port', '0', '--data-dir', dataDir, '--solc-mirror', '']);
      try {
        const out = s.output();
        expect(out).toContain('Starting a local devnet (anvil), as no --rpc-url was given; port 8545 is in use (another node?), so it takes a free port...');
        expect(s.rpc).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(s.rpc).not.toBe('http://127.0.0.1:8545');
        expect(out).toContain(`Port 8545 was in use: point wallets and Hardhat or Foundry configs at ${s.rpc}, not :8545.`);
        expect(await rpcAnswers(s.rpc)).toBe(true);
      } finally {
        s.child.kill('SIGTERM');
        await exited(s.child);
      }
    } finally {
      holder.close();
    }
  });
});
