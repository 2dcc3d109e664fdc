import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { bytesToHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { knownAddress } from '../core/hex.js';
import type { Address, Hex } from '../core/types.js';
import { keepOwnGenesis } from './devnetState.js';

/** anvil's well-known development mnemonic: every key derived from it is public. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevnetAccount {
  address: Address;
  privateKey: Hex;
}

export interface Devnet {
  rpcUrl: string;
  chainId: number;
  accounts: DevnetAccount[];
  stop(): Promise<void>;
}

export interface StartDevnetOptions {
  host?: string;
  /** 0 or absent: pick a free port. */
  port?: number;
  chainId?: number;
  accounts?: number;
  /** anvil state file: the devnet keeps its chain across restarts when given. */
  stateFile?: string;
}

/** Path of the anvil binary shipped by the npm package @foundry-rs/anvil-linux-amd64. */
export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return pkg.replace(/package\.json$/, 'bin/anvil');
}

/** Whether `port` can be listened on at `host` right now. */
export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function devnetAccounts(count: number): DevnetAccount[] {
  return Array.from({ length: count }, (_, i) => {
    const acct = mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: i });
    const key = acct.getHdKey().privateKey;
    if (!key) throw new Error('no private key derived');
    return { address: knownAddress(acct.address), privateKey: bytesToHex(key) };
  });
}

/** Starts a local anvil devnet and resolves once it answers JSON-RPC. */
export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port && options.port > 0 ? options.port : await freePort(host);
  const chainId = options.chainId ?? 31337;
  const accounts = options.accounts ?? 10;
  const args = [
    '--host',
    host,
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--accounts',
    String(accounts),
    '--mnemonic',
    DEVNET_MNEMONIC,
    '--silent',
  ];
  if (options.stateFile) {
    // Block 0 stays the chain's own: its hash is the chain's identity (devnetState.ts).
    await keepOwnGenesis(options.stateFile);
    // The state is also written every few seconds, so a killed service keeps its devnet's chain.
    args.push('--state', options.stateFile, '--state-interval', '5');
  }
  // anvil runs under a small shell that holds a pipe from this process: when this process
  // ends in any way (even SIGKILL) the pipe closes, `read` returns and the shell stops anvil.
  const watchdog = '"$0" "$@" </dev/null & anvil=$!; read _ignored; kill $anvil 2>/dev/null; wait $anvil';
  const child: ChildProcess = spawn('/bin/sh', ['-c', watchdog, anvilBinaryPath(), ...args], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const rpcUrl = `http://${host}:${port}`;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`anvil exited with code ${code}: ${stderr.trim()}`))));
  exited.catch(() => undefined);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await Promise.race([
        fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        }),
        exited,
      ]);
      if (res.ok) break;
    } catch (e) {
      if (child.exitCode !== null) throw e;
    }
    if (Date.now() > deadline) {
      child.stdin?.end();
      throw new Error(`anvil did not start within 30 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    rpcUrl,
    chainId,
    accounts: devnetAccounts(accounts),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin?.end();
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
