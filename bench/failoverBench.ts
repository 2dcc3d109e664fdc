/**
 * Part of `npm run bench`: how long a worker's death stalls the queue, with the default
 * settings (the job lease, its renewal, the poll). Two API nodes (`--role api`) and two workers
 * (`--role worker`) share PostgreSQL (and Redis when it answers); one key submits a batch, a
 * worker is SIGKILLed while it runs jobs of it, and the time from the kill to the last verdict
 * is printed, with when the dead worker's jobs were taken over. Asserts nothing, talks only to
 * 127.0.0.1.
 *
 * PostgreSQL: SOLPROOF_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
 * a schema of its own is made and dropped. Redis: SOLPROOF_BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379). Skipped, saying so, when PostgreSQL does not answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Devnet, startDevnet } from '../src/chain/devnet.js';
import { DEFAULT_JOB_LEASE_MS } from '../src/core/config.js';
import { probeRedis } from '../src/limits/redisRateLimits.js';
import { clearProxyEnv, createKey, type ServiceProcess, startServiceProcess } from './serviceProcess.js';
import { sourceDeployer } from './sourceDeployer.js';

/** Verifications of the batch the kill lands in. */
const N = Number(process.env.SOLPROOF_BENCH_FAILOVER_JOBS ?? 12);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const PG_URL = process.env.SOLPROOF_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.SOLPROOF_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A contract whose compile takes a few hundred milliseconds: a kill lands in the middle of jobs. */
function source(i: number): string {
  let body = '';
  for (let f = 0; f < 24; f++) {
    body += `  function f${f}(uint256 a, uint256 b) external pure returns (uint256 r) { unchecked { r = a; for (uint256 k; k < b; k++) r = (r * ${f + 3} + k) ^ (r >> ${(f % 7) + 1}); } }\n`;
  }
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Failover${i} {\n  uint256 public constant EDITION = ${i};\n${body}}\n`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  clearProxyEnv();
  const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
  } catch (error) {
    process.stdout.write(`failover: skipped, PostgreSQL does not answer at ${PG_URL} (${(error as Error).message})\n`);
    return;
  }
  const redis = (await probeRedis(REDIS_URL)) === null;
  const schema = `bench_failover_${Date.now().toString(36)}`;
  await probe.query(`create schema ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.toString();

  const tmp = mkdtempSync(join(tmpdir(), 'solproof-bench-failover-'));
  const services: ServiceProcess[] = [];
  let devnet: Devnet | undefined;
  try {
    devnet = await startDevnet();
    const deploy = sourceDeployer(devnet, tmp, 'Failover', source);

    // Default settings but for what a bench needs: no chain follower, no rate limit in the way.
    const common = ['--database-url', databaseUrl, '--follow-chain', 'false', ...(redis ? ['--redis-url', REDIS_URL] : [])];
    const apiArgs = [...common, '--role', 'api', '--rate-free', '100000', '--key-queued-jobs', '0'];
    const apis = [await startServiceProcess(CLI, devnet.rpcUrl, tmp, apiArgs), await startServiceProcess(CLI, devnet.rpcUrl, tmp, apiArgs)];
    services.push(...apis);
    const key = await createKey(CLI, tmp, ['--database-url', databaseUrl]);
    const workers = [
      await startServiceProcess(CLI, devnet.rpcUrl, tmp, [...common, '--role', 'worker'], { logLevel: 'info' }),
      await startServiceProcess(CLI, devnet.rpcUrl, tmp, [...common, '--role', 'worker'], { logLevel: 'info' }),
    ];
    services.push(...workers);

    let submitted = 0;
    const submit = async (fields: Record<string, string>): Promise<string> => {
      const api = apis[submitted++ % 2]!;
      const res = await fetch(api.apiUrl, { method: 'POST', body: new URLSearchParams({ ...fields, apikey: key }) });
      const env = (await res.json()) as { status: string; result: string };
      if (env.status !== '1') throw new Error(`submission refused: ${env.result}`);
      return env.result;
    };
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    try {
      const states = async (receipts: string[]) =>
        (
          await sql.query<{ receipt: string; state: string; lease_owner: string | null; attempts: number; finished_at: string | null }>(
            'select receipt, state, lease_owner, attempts, finished_at from verification_jobs where receipt = any($1)',
            [receipts],
          )
        ).rows;
      const allFinished = async (receipts: string[], timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const rows = await states(receipts);
          if (rows.every((r) => r.state !== 'queued' && r.state !== 'running')) return rows;
          if (Date.now() > deadline) throw new Error(`jobs still unfinished after ${timeoutMs} ms`);
          await sleep(50);
        }
      };

      // Both workers load the compiler before the measured batch.
      const warm: string[] = [];
      for (let i = 0; i < 4; i++) warm.push(await submit(await deploy()));
      await allFinished(warm, 120_000);
      await Promise.all(workers.map((w) => w.warmedUp()));

      const fields: Record<string, string>[] = [];
      for (let i = 0; i < N; i++) fields.push(await deploy());
      const victim = workers[0]!;
      const ownerPrefix = `solproof-${victim.pid}-`;
      const receipts = await Promise.all(fields.map(submit));
      // SIGKILL as soon as the victim is seen running jobs of the batch.
      let killedAt = 0;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        if ((await states(receipts)).some((r) => r.state === 'running' && r.lease_owner?.startsWith(ownerPrefix))) {
          await victim.kill();
          killedAt = Date.now();
          break;
        }
        await sleep(5);
      }
      if (!killedAt) throw new Error('the worker to kill never ran a job of the batch');
      const orphaned = (await states(receipts)).filter((r) => r.state === 'running' && r.lease_owner?.startsWith(ownerPrefix)).map((r) => r.receipt);
      const rows = await allFinished(receipts, 600_000);
      const passed = rows.filter((r) => r.state === 'pass').length;
      const lastAt = Math.max(...rows.map((r) => Number(r.finished_at)));
      const orphanDone = rows.filter((r) => orphaned.includes(r.receipt)).map((r) => Number(r.finished_at) - killedAt);
      process.stdout.write(
        `failover: 2 api + 2 worker processes (${redis ? 'PostgreSQL and Redis' : 'PostgreSQL'}), default settings (lease ${DEFAULT_JOB_LEASE_MS} ms), ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}\n`,
      );
      process.stdout.write(`  ${N} verifications of one key, one worker SIGKILLed with ${orphaned.length} of them running\n`);
      process.stdout.write(
        `  kill -> last verdict: ${((lastAt - killedAt) / 1000).toFixed(1)} s; the dead worker's jobs done ${orphanDone.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ') || '(none was running)'} after the kill; ${passed}/${N} passed\n`,
      );
    } finally {
      await sql.end();
    }
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
