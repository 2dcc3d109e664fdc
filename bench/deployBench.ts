/**
 * Part of `npm run bench`: a whole deployment verified the way Foundry users do it,
 * `forge script … --broadcast --verify` (forge 1.7.1, the Etherscan verifier) on a script that
 * deploys six contracts (a linked library, a CREATE2 contract, constructor arguments, a factory
 * and its child: test/clients/foundry/deployProject.ts), against a warm service:
 * - before: `--status-wait-ms 0`, status checks answered at once (forge sleeps 15 s after each
 *   `Pending in queue`);
 * - after: the default, a check of a young running job waits briefly for its verdict.
 * Each figure is the median of SOLPROOF_BENCH_DEPLOY_RUNS runs (default 1) of the whole
 * command, broadcast included, each on a fresh project whose code no earlier run deployed.
 * Prints numbers and their ratio, asserts nothing, talks only to 127.0.0.1 (forge's release
 * list lookup goes to a local stand-in).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devnetAccounts, startDevnet } from '../src/chain/devnet.js';
import { DEPLOYED, FORGE, foundryEnv, runFoundry, writeDeployProject } from '../test/clients/foundry/deployProject.js';
import { installSolcForForge } from '../test/clients/foundry/offlineSolc.js';
import { startReleaseListStandIn } from '../test/clients/foundry/releaseListStandIn.js';
import { seedCompilerCache } from '../test/helpers/compilerCache.js';
import { clearProxyEnv, createKey, type ServiceProcess, startServiceProcess } from './serviceProcess.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const RUNS = Math.max(1, Number(process.env.SOLPROOF_BENCH_DEPLOY_RUNS ?? 1));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  clearProxyEnv();
  const work = mkdtempSync(join(tmpdir(), 'solproof-deploy-bench-'));
  const devnet = await startDevnet({ accounts: 4 });
  const releases = await startReleaseListStandIn();
  const home = join(work, 'home');
  await installSolcForForge(home, '0.8.28');
  let flavour = 930_000 + (process.pid % 1000) * 10;
  const services: ServiceProcess[] = [];
  try {
    const figures: Record<string, number> = {};
    for (const [label, args] of [
      ['before (--status-wait-ms 0)', ['--status-wait-ms', '0']],
      ['after (default status wait)', []],
    ] as const) {
      const dataDir = join(work, `data-${services.length}`);
      await seedCompilerCache(join(dataDir, 'compilers'), ['0.8.28']);
      const key = await createKey(CLI, dataDir);
      const service = await startServiceProcess(CLI, devnet.rpcUrl, dataDir, ['--rate-free', '1000', ...args], { logLevel: 'warn' });
      services.push(service);
      const account = devnetAccounts(4)[services.length]!;
      const run = async (): Promise<number> => {
        const dir = join(work, `project-${flavour}`);
        mkdirSync(dir, { recursive: true });
        writeDeployProject(dir, { flavour: flavour++, etherscanUrl: service.apiUrl });
        const env = foundryEnv(home, { ...releases.env, SOLPROOF_API_KEY: key });
        const built = await runFoundry(FORGE, ['build'], { cwd: dir, env });
        if (built.code !== 0) throw new Error(built.transcript);
        const result = await runFoundry(
          FORGE,
          [
            'script',
            'script/Deploy.s.sol:Deploy',
            '--rpc-url',
            devnet.rpcUrl,
            '--private-key',
            account.privateKey,
            '--broadcast',
            '--verify',
            '--verifier-url',
            service.apiUrl,
          ],
          { cwd: dir, env, timeoutMs: 600_000 },
        );
        if (result.code !== 0 || !result.stdout.includes(`All (${DEPLOYED.length}) contracts were verified!`)) throw new Error(result.transcript);
        return result.ms;
      };
      // A warm service: its compiler loaded and warmed up by a first deployment, not timed.
      await run();
      await service.warmedUp();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await run());
      figures[label] = median(times);
      process.stdout.write(
        `deploy: ${label}: forge script --broadcast --verify, ${DEPLOYED.length} contracts: ${seconds(median(times))} (runs: ${times.map(seconds).join(', ')})\n`,
      );
      await service.stop();
    }
    const [before, after] = Object.values(figures) as [number, number];
    process.stdout.write(
      `deploy: ${DEPLOYED.length}-contract forge script --verify, before ${seconds(before)}, after ${seconds(after)}: ${(before / after).toFixed(1)}x faster (${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)})\n`,
    );
  } finally {
    for (const service of services) await service.stop();
    await releases.close();
    await devnet.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
