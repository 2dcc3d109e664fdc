/**
 * `npm run bench`: how much a verification through the running service costs on top of the
 * bare compile it cannot avoid. Prints numbers, asserts nothing, talks only to 127.0.0.1.
 *
 * warm: the service has already loaded solc 0.8.28 (one warm-up verification), then verifies
 *       N fresh deployments one after the other; compared with solc.compile in this process.
 * cold: a fresh service whose cache holds the compiler but has never loaded it; compared
 *       with loading soljson and compiling once in a fresh node process.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Abi, createPublicClient, createWalletClient, encodeAbiParameters, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type Devnet, startDevnet } from '../src/chain/devnet.js';
import type { Address, Hex } from '../src/core/types.js';
import type { SolcOutput } from '../src/verify/index.js';
import { apiCall, clearProxyEnv, createKey, type ServiceCompileLog, type ServiceProcess, startServiceProcess } from './serviceProcess.js';
import { TOKEN_NAME, TOKEN_PATH, tokenStandardInput } from './tokenInput.js';

const N = 5;
const POLL_MS = 50;
const VERDICT_TIMEOUT_MS = 180_000;
const COLD_CHILD_TIMEOUT_MS = 180_000;

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli', 'main.js');

interface SolcJs {
  compile(input: string): string;
  version(): string;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ms = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${Math.round(x)} ms`);
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

function compileChecked(solc: SolcJs, inputText: string): SolcOutput {
  const output = JSON.parse(solc.compile(inputText)) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  return output;
}

/** Loads soljson and compiles once in a fresh node process; the child times both itself. */
async function coldBareCompile(inputText: string): Promise<{ loadMs: number; compileMs: number; processMs: number }> {
  const script = `
    const input = require('node:fs').readFileSync(0, 'utf8');
    const t0 = performance.now();
    const solc = require(${JSON.stringify(require.resolve('solc'))});
    const t1 = performance.now();
    const out = JSON.parse(solc.compile(input));
    const t2 = performance.now();
    if ((out.errors || []).some((e) => e.severity === 'error')) { console.error(JSON.stringify(out.errors)); process.exit(1); }
    process.stdout.write(JSON.stringify({ loadMs: t1 - t0, compileMs: t2 - t1 }));
  `;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--input-type=commonjs', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.stdin.end(inputText);
  const timer = setTimeout(() => child.kill('SIGKILL'), COLD_CHILD_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  const processMs = performance.now() - t0;
  if (code !== 0) throw new Error(`cold compile process failed (${code}): ${stderr}`);
  return { ...(JSON.parse(stdout) as { loadMs: number; compileMs: number }), processMs };
}

interface Verified {
  /** POST verifysourcecode to the first `Pass - Verified`. */
  totalMs: number;
  polls: number;
  /** The service's own compiles for this verification. */
  compiles: ServiceCompileLog[];
}

/** Submits one verification and polls every POLL_MS until it passes. */
async function verify(service: ServiceProcess, apiKey: string, fields: Record<string, string>): Promise<Verified> {
  const seen = service.compiles.length;
  const t0 = performance.now();
  const submit = await apiCall(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...fields }, 'POST');
  if (submit.status !== '1') throw new Error(`submission refused: ${String(submit.result)}`);
  let polls = 0;
  for (;;) {
    const status = await apiCall(
      service.apiUrl,
      { module: 'contract', action: 'checkverifystatus', guid: String(submit.result), apikey: apiKey, chainid: '31337' },
      'GET',
    );
    polls++;
    if (status.result === 'Pass - Verified') {
      const totalMs = performance.now() - t0;
      // The compile log line is written before the job finishes, so it is already here.
      return { totalMs, polls, compiles: service.compiles.slice(seen) };
    }
    if (status.result !== 'Pending in queue') throw new Error(`verification did not pass: ${status.result}`);
    if (performance.now() - t0 > VERDICT_TIMEOUT_MS) throw new Error(`still pending after ${VERDICT_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** A data dir whose compiler cache holds the npm-installed solc 0.8.28 under its solc-bin name. */
function seededDataDir(parent: string, name: string, longVersion: string): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, 'compilers'), { recursive: true });
  copyFileSync(require.resolve('solc/soljson.js'), join(dir, 'compilers', `soljson-v${longVersion}.js`));
  return dir;
}

function describeCompiles(compiles: ServiceCompileLog[]): string {
  if (compiles.length === 0) return 'no compile log seen';
  return compiles.map((c) => (c.loadMs === null ? `compile ${ms(c.compileMs)} (warm)` : `load ${ms(c.loadMs)} + compile ${ms(c.compileMs)}`)).join(', ');
}

async function main(): Promise<void> {
  clearProxyEnv();
  const started = performance.now();
  const loadStart = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const tmp = mkdtempSync(join(tmpdir(), 'solproof-bench-'));
  const services: ServiceProcess[] = [];
  let devnet: Devnet | undefined;
  const stopAll = async () => {
    for (const s of services.splice(0)) await s.stop().catch(() => undefined);
    await devnet?.stop().catch(() => undefined);
    devnet = undefined;
    rmSync(tmp, { recursive: true, force: true });
  };
  const onSignal = () => void stopAll().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // --- bare compiler, in this process ---
    const input = tokenStandardInput();
    const inputText = JSON.stringify(input);
    const solc = require('solc') as SolcJs;
    const longVersion = /^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(solc.version())?.[1];
    if (!longVersion) throw new Error(`unexpected solc version ${solc.version()}`);
    process.stdout.write(`solc ${longVersion}; ${Object.keys(input.sources).length} source files, ${inputText.length} bytes of standard JSON\n`);

    // Warms the in-process compiler up.
    const abi = compileChecked(solc, inputText).contracts![TOKEN_PATH]![TOKEN_NAME]!.abi as Abi;
    const bareWarm: number[] = [];
    const bareCompile = (text: string): void => {
      const t0 = performance.now();
      compileChecked(solc, text);
      bareWarm.push(performance.now() - t0);
    };

    // --- chain ---
    devnet = await startDevnet();
    const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
    const account = privateKeyToAccount(devnet.accounts[0]!.privateKey);
    const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
    const walletClient = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });
    let deployments = 0;
    // Each deployment is an edition of its own (its code and compilation are new to the service:
    // a copy of code it has verified is verified without a submission, and an input it has
    // compiled is not compiled again) and mints a different supply.
    const deploy = async (): Promise<Record<string, string>> => {
      const edition = ++deployments;
      const editionText = JSON.stringify(tokenStandardInput(edition));
      const bytecode = `0x${compileChecked(solc, editionText).contracts![TOKEN_PATH]![TOKEN_NAME]!.evm!.bytecode!.object}` as Hex;
      const args = ['Bench Token', 'BENCH', 10n ** 24n + BigInt(edition)] as const;
      const hash = await walletClient.deployContract({ abi, bytecode, args });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
      const encoded = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], args);
      return {
        contractaddress: receipt.contractAddress.toLowerCase() as Address,
        sourceCode: editionText,
        codeformat: 'solidity-standard-json-input',
        contractname: `${TOKEN_PATH}:${TOKEN_NAME}`,
        compilerversion: `v${longVersion}`,
        constructorArguements: encoded.slice(2),
        chainid: String(devnet!.chainId),
      };
    };

    // --- warm service ---
    const warmDir = seededDataDir(tmp, 'warm', longVersion);
    const warmKey = await createKey(CLI, warmDir);
    const warmService = await startServiceProcess(CLI, devnet.rpcUrl, warmDir);
    services.push(warmService);
    const warmUp = await verify(warmService, warmKey, await deploy());
    process.stdout.write(`warm-up verification: ${ms(warmUp.totalMs)} [${describeCompiles(warmUp.compiles)}]\n`);
    const fresh: Record<string, string>[] = [];
    for (let i = 0; i < N; i++) fresh.push(await deploy());
    const warm: Verified[] = [];
    for (const fields of fresh) {
      const v = await verify(warmService, warmKey, fields);
      warm.push(v);
      // Alternating with the service keeps both under the same load from other processes.
      bareCompile(fields.sourceCode!);
      process.stdout.write(
        `warm verification: ${ms(v.totalMs)}, ${v.polls} polls [${describeCompiles(v.compiles)}]; bare solc.compile ${ms(bareWarm.at(-1))}\n`,
      );
    }
    await warmService.stop();
    services.splice(services.indexOf(warmService), 1);

    // --- cold service ---
    const coldDir = seededDataDir(tmp, 'cold', longVersion);
    const coldKey = await createKey(CLI, coldDir);
    const coldFields = await deploy();
    const coldService = await startServiceProcess(CLI, devnet.rpcUrl, coldDir);
    services.push(coldService);
    const cold = await verify(coldService, coldKey, coldFields);
    process.stdout.write(`cold verification: ${ms(cold.totalMs)}, ${cold.polls} polls [${describeCompiles(cold.compiles)}]\n`);
    const bareCold = await coldBareCompile(inputText);
    process.stdout.write(`bare cold process: load ${ms(bareCold.loadMs)} + compile ${ms(bareCold.compileMs)} (spawn to exit ${ms(bareCold.processMs)})\n`);

    // --- table ---
    const warmTotals = warm.map((v) => v.totalMs);
    const warmServiceCompile = warm.map((v) => v.compiles.reduce((sum, c) => sum + c.compileMs + (c.loadMs ?? 0), 0));
    const bareWarmMedian = median(bareWarm);
    const bareColdTotal = bareCold.loadMs + bareCold.compileMs;
    const coldServiceCompile = cold.compiles.reduce((sum, c) => sum + c.compileMs + (c.loadMs ?? 0), 0);
    const rows: string[][] = [
      ['', 'service submit→Pass', 'bare solc', 'ratio'],
      [`warm median (N=${N})`, ms(median(warmTotals)), ms(bareWarmMedian), ratio(median(warmTotals), bareWarmMedian)],
      [`warm min (N=${N})`, ms(Math.min(...warmTotals)), ms(Math.min(...bareWarm)), ratio(Math.min(...warmTotals), Math.min(...bareWarm))],
      ['cold (first)', ms(cold.totalMs), `${ms(bareColdTotal)} (load ${ms(bareCold.loadMs)})`, ratio(cold.totalMs, bareColdTotal)],
    ];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    process.stdout.write('\n');
    for (const r of rows) process.stdout.write(`${r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}\n`);
    process.stdout.write(
      `\ninside the service (worker load + compile, summed per verification): warm median ${ms(median(warmServiceCompile))}, ` +
        `cold ${ms(coldServiceCompile)}; compiles per verification: ${warm.map((v) => v.compiles.length).join('/')} warm, ${cold.compiles.length} cold\n` +
        `service start to healthy: ${ms(warmService.startMs)} (warm service), ${ms(coldService.startMs)} (cold service); ` +
        `status polled every ${POLL_MS} ms, so a Pass is seen up to ~${POLL_MS} ms late\n` +
        `load average at start ${loadStart}, at end ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')} (${cpus().length} cores)\n` +
        `total bench time ${ms(performance.now() - started)}\n`,
    );
  } finally {
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
