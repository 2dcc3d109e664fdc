/**
 * Part of `npm run bench`: verifications per second with one and with two worker processes
 * (`--role worker`) behind one API node (`--role api`), on PostgreSQL, on this machine. Each
 * worker runs one job at a time with one compiler thread, so the ratio is what a second
 * process adds. Prints numbers, asserts nothing, talks only to 127.0.0.1.
 *
 * PostgreSQL: SOLPROOF_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
 * a schema of its own is made and dropped. Skipped, saying so, when PostgreSQL does not answer.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { type Devnet, startDevnet } from '../src/chain/devnet.js';
import { clearProxyEnv, type ServiceProcess, startServiceProcess } from './serviceProcess.js';
import { sourceDeployer } from './sourceDeployer.js';

/** Verifications timed per configuration. */
const N = Number(process.env.SOLPROOF_BENCH_WORKER_JOBS ?? 12);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const PG_URL = process.env.SOLPROOF_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const source = (i: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Bench${i} {
  uint256 public constant EDITION = ${i};
  mapping(address => uint256) public balances;
  event Moved(address indexed from, address indexed to, uint256 amount);
  function deposit() external payable { balances[msg.sender] += msg.value; }
  function move(address to, uint256 amount) external {
    require(balances[msg.sender] >= amount, "too little");
    balances[msg.sender] -= amount; balances[to] += amount; emit Moved(msg.sender, to, amount);
  }
}
`;

async function main(): Promise<void> {
  clearProxyEnv();
  const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
  } catch (error) {
    process.stdout.write(`workers: skipped, PostgreSQL does not answer at ${PG_URL} (${(error as Error).message})\n`);
    return;
  }
  const schema = `bench_${Date.now().toString(36)}`;
  await probe.query(`create schema ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.toString();

  const tmp = mkdtempSync(join(tmpdir(), 'solproof-bench-workers-'));
  const services: ServiceProcess[] = [];
  let devnet: Devnet | undefined;
  try {
    devnet = await startDevnet();
    const deploy = sourceDeployer(devnet, tmp, 'Bench', source);

    const common = ['--database-url', databaseUrl, '--follow-chain', 'false'];
    const api = await startServiceProcess(CLI, devnet.rpcUrl, tmp, [...common, '--role', 'api', '--rate-free', '100000', '--key-queued-jobs', '0']);
    services.push(api);
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'keys', 'create', '--data-dir', tmp, '--database-url', databaseUrl]);
    const key = stdout.trim().split('\n').pop()!.trim();
    const workerArgs = [...common, '--role', 'worker', '--job-concurrency', '1', '--compiler-threads', '1'];

    const submit = async (fields: Record<string, string>): Promise<string> => {
      const res = await fetch(api.apiUrl, { method: 'POST', body: new URLSearchParams({ ...fields, apikey: key }) });
      const env = (await res.json()) as { status: string; result: string };
      if (env.status !== '1') throw new Error(`submission refused: ${env.result}`);
      return env.result;
    };
    const verdict = async (receipt: string): Promise<void> => {
      for (;;) {
        const res = await fetch(`${api.apiUrl}?module=contract&action=checkverifystatus&guid=${receipt}&apikey=${key}`);
        const env = (await res.json()) as { result: string };
        if (env.result === 'Pass - Verified') return;
        if (env.result !== 'Pending in queue') throw new Error(`verification did not pass: ${env.result}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    /** Deploys first, then submits `count` at once and times until the last verdict. */
    const run = async (count: number): Promise<number> => {
      const fields: Record<string, string>[] = [];
      for (let i = 0; i < count; i++) fields.push(await deploy());
      const t0 = performance.now();
      const receipts = await Promise.all(fields.map(submit));
      await Promise.all(receipts.map(verdict));
      return performance.now() - t0;
    };

    process.stdout.write(
      `workers: ${N} verifications each (one job and one compiler thread per worker), ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}\n`,
    );
    const results: number[] = [];
    for (const workers of [1, 2]) {
      while (services.length - 1 < workers) services.push(await startServiceProcess(CLI, devnet.rpcUrl, tmp, workerArgs));
      // Every worker loads its compiler before the timed run, and warms it up while idle.
      await run(workers * 2);
      await Promise.all(services.map((s) => s.warmedUp()));
      const ms = await run(N);
      const perSecond = (N * 1000) / ms;
      results.push(perSecond);
      process.stdout.write(`  ${workers} worker process${workers > 1 ? 'es' : ''}: ${perSecond.toFixed(2)} verifications/s (${N} in ${Math.round(ms)} ms)\n`);
    }
    process.stdout.write(`  ratio 2 : 1 = ${(results[1]! / results[0]!).toFixed(2)}x\n`);
  } finally {
    for (const s of services.splice(0)) await s.stop().catch(() => undefined);
    await devnet?.stop().catch(() => undefined);
    await probe.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await probe.end().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
