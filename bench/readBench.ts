/**
 * `npm run bench:reads` (also part of `npm run bench`): how many `getabi` and `getsourcecode`
 * answers per second the service gives, next to a bare `node:http` server sending the very same
 * bytes, with the same load generator and connections, measured right after it. Prints numbers,
 * asserts nothing, talks only to 127.0.0.1.
 *
 * Contracts: an OpenZeppelin ERC-20 and a contract whose compilation has 300 files, both
 * deployed on the devnet and verified through the API from standard JSON. Callers: 64 API keys,
 * one per connection; or no key, each request from another address (X-Forwarded-For from a
 * trusted proxy) of a pool large enough that the keyless interval is never hit. Stores: SQLite,
 * then PostgreSQL (a schema of its own, dropped after; skipped, saying so, when it does not answer).
 *
 * SOLPROOF_BENCH_READ_SECONDS: measured seconds per case (default 4, after a 1 s warm-up).
 * SOLPROOF_BENCH_JSON: a file to write the figures to, for before/after comparisons.
 * SOLPROOF_BENCH_CLI: the service build to measure (default this checkout's dist/cli/main.js).
 * SOLPROOF_BENCH_CPU_PROF: a directory; when given, a service started with `--cpu-prof` on the
 * SQLite store serves getsourcecode of the ERC-20 to keyed callers, and its top self-time
 * functions during that load are printed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Abi, createPublicClient, createWalletClient, encodeAbiParameters, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type Devnet, startDevnet } from '../src/chain/devnet.js';
import { defaultConfig } from '../src/core/config.js';
import type { Hex } from '../src/core/types.js';
import { createApiKey } from '../src/store/apiKeys.js';
import { openStore } from '../src/store/openStore.js';
import type { SolcInput, SolcOutput } from '../src/verify/index.js';
import type { BareAnswer } from './bareServer.js';
import type { LoadRequest, LoadResult } from './loadGenerator.js';
import { formatTop, type ProfileSummary, readProfile, topSelfTime } from './profileTop.js';
import { clearProxyEnv, createKey, type ServiceProcess, startServiceProcess } from './serviceProcess.js';
import { TOKEN_NAME, TOKEN_PATH, tokenStandardInput } from './tokenInput.js';
import { WIDE_NAME, WIDE_PATH, wideStandardInput } from './wideInput.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
/** SOLPROOF_BENCH_CLI: another build of the service (an earlier commit's, for a before/after in one sitting). */
const CLI = process.env['SOLPROOF_BENCH_CLI'] ?? join(root, 'dist', 'cli', 'main.js');
const OTHER_BUILD = process.env['SOLPROOF_BENCH_CLI'] !== undefined;
const PG_URL = process.env['SOLPROOF_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env['SOLPROOF_BENCH_READ_SECONDS'] ?? 4);
const WARMUP_MS = 1000;
const CONNECTIONS = 64;
/** Keyless callers' addresses: 10.0.0.0 up, used in turn, so one comes back only after POOL_SIZE requests. */
const POOL_SIZE = 1 << 20;
const WIDE_FILES = 300;
const VERDICT_TIMEOUT_MS = 180_000;

type Action = 'getabi' | 'getsourcecode';
type Caller = 'keyed' | 'keyless';
type StoreKind = 'sqlite' | 'postgres';

interface SolcJs {
  compile(input: string): string;
  version(): string;
}

interface Contract {
  label: string;
  address: string;
  /** The verifysourcecode fields. */
  fields: Record<string, string>;
}

interface LoadFigures {
  perSecond: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  answers: number;
  notOk: number;
  notOkTexts: Record<string, number>;
}

interface CaseFigures {
  store: StoreKind;
  action: Action;
  contract: string;
  caller: Caller;
  answerBytes: number;
  service: LoadFigures;
  bare: LoadFigures;
  /** service answers/s ÷ bare answers/s */
  ratio: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const int = (x: number) => Math.round(x).toLocaleString('en');
const msText = (x: number | null) => (x === null || Number.isNaN(x) ? 'n/a' : `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)} ms`);

function compileChecked(solc: SolcJs, input: SolcInput): SolcOutput {
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  return output;
}

/** A data dir whose compiler cache holds the npm-installed solc under its solc-bin name. */
function seededDataDir(parent: string, name: string, longVersion: string): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, 'compilers'), { recursive: true });
  copyFileSync(require.resolve('solc/soljson.js'), join(dir, 'compilers', `soljson-v${longVersion}.js`));
  return dir;
}

/** The forked load generator: one load at a time. */
class LoadGenerator {
  private readonly child: ChildProcess = fork(join(here, 'loadGenerator.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

  run(request: LoadRequest): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (message: { result?: LoadResult; error?: string }) => {
        this.child.off('exit', onExit);
        if (message.result) resolve(message.result);
        else reject(new Error(`load generator failed: ${message.error}`));
      });
      this.child.send(request);
    });
  }

  stop(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

/** The bare baseline's process: one constant answer per port. */
async function startBare(answers: BareAnswer[]): Promise<{ ports: number[]; stop(): void }> {
  const child = fork(join(here, 'bareServer.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.once('message', (m: { ports?: number[]; error?: string }) => (m.ports ? resolve(m.ports) : reject(new Error(m.error))));
    child.send({ answers });
  });
  return { ports, stop: () => child.connected && child.disconnect() };
}

async function apiCall(url: string, init?: RequestInit): Promise<{ status: string; result: string }> {
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${url}`);
  return (await res.json()) as { status: string; result: string };
}

/** Submits every contract, then polls each receipt until it passes. */
async function verifyAll(service: ServiceProcess, apiKey: string, contracts: Contract[]): Promise<void> {
  const receipts: string[] = [];
  for (const c of contracts) {
    const body = new URLSearchParams({ module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...c.fields });
    const submit = await apiCall(service.apiUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    if (submit.status !== '1') throw new Error(`${c.label}: submission refused: ${submit.result}`);
    receipts.push(submit.result);
  }
  const t0 = performance.now();
  for (const [i, guid] of receipts.entries()) {
    for (;;) {
      const status = await apiCall(`${service.apiUrl}?module=contract&action=checkverifystatus&guid=${guid}&apikey=${apiKey}`);
      if (status.result === 'Pass - Verified') break;
      if (status.result !== 'Pending in queue') throw new Error(`${contracts[i]!.label}: verification did not pass: ${status.result}`);
      if (performance.now() - t0 > VERDICT_TIMEOUT_MS) throw new Error(`${contracts[i]!.label}: still pending after ${VERDICT_TIMEOUT_MS} ms`);
      await sleep(100);
    }
  }
}

const figuresOf = (r: LoadResult): LoadFigures => ({
  perSecond: r.perSecond,
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  maxMs: r.maxMs,
  answers: r.answers,
  notOk: r.notOk,
  notOkTexts: r.notOkTexts,
});

const CASE_COLUMNS = ['case', 'bytes', 'answers/s', 'p50', 'p99', 'max', 'not "1"', 'bare', 'bare p50', 'ratio'];

function caseRow(c: CaseFigures): string[] {
  return [
    `${c.action} ${c.contract} ${c.caller}`,
    int(c.answerBytes),
    `${int(c.service.perSecond)}/s`,
    msText(c.service.p50Ms),
    msText(c.service.p99Ms),
    msText(c.service.maxMs),
    String(c.service.notOk),
    `${int(c.bare.perSecond)}/s`,
    msText(c.bare.p50Ms),
    `${(100 * c.ratio).toFixed(0)}%`,
  ];
}

/** Column widths: rows are printed one at a time, as soon as each is measured. */
const STREAM_WIDTHS = [30, 7, 9, 8, 8, 8, 7, 9, 8, 5];

const formatRow = (row: string[], widths: number[]): string =>
  row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');

interface Bench {
  devnet: Devnet;
  generator: LoadGenerator;
  contracts: Contract[];
  longVersion: string;
  tmp: string;
  /** The next keyless address of the pool, carried over between cases. */
  poolCursor: number;
  profileDir: string | undefined;
}

/** One store: fresh keys, a service, both verifications, then every case against it and its bare twin. */
async function measureStore(bench: Bench, kind: StoreKind, databaseUrl: string | undefined): Promise<{ cases: CaseFigures[]; profile?: ProfileSummary }> {
  const dataDir = seededDataDir(bench.tmp, kind, bench.longVersion);
  const keys: string[] = [];
  if (OTHER_BUILD) {
    // That build's own schema: its keys are made by its own command.
    const storeArgs = databaseUrl ? ['--database-url', databaseUrl] : [];
    for (let i = 0; i < CONNECTIONS; i++) keys.push(await createKey(CLI, dataDir, ['--tier', 'pro', ...storeArgs]));
  } else {
    const store = await openStore({ dataDir, databaseUrl });
    try {
      for (let i = 0; i < CONNECTIONS; i++) keys.push((await createApiKey(store.db, { owner: `read-bench-${i}`, tier: 'pro' })).key);
    } finally {
      await store.close();
    }
  }
  const serviceArgs = [
    ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    '--trusted-proxies',
    '127.0.0.1',
    '--rate-pro',
    '1000000000',
    '--rate-free',
    '1000000000',
  ];
  const start = (nodeArgs: string[] = []) => startServiceProcess(CLI, bench.devnet.rpcUrl, dataDir, serviceArgs, { nodeArgs, logLevel: 'info' });
  const query = (action: Action, contract: Contract) => `/api?module=contract&action=${action}&address=${contract.address}&chainid=${bench.devnet.chainId}`;

  let service = await start();
  const cases: CaseFigures[] = [];
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    const t0 = performance.now();
    await verifyAll(service, keys[0]!, bench.contracts);
    process.stdout.write(`${kind}: service up in ${int(service.startMs)} ms, both contracts verified in ${int(performance.now() - t0)} ms\n`);
    const origin = new URL(service.apiUrl).origin;

    // The service's real answers, once each, for the bare server to send.
    const plan: { action: Action; contract: Contract; caller: Caller }[] = [];
    for (const contract of bench.contracts)
      for (const action of ['getabi', 'getsourcecode'] as const) for (const caller of ['keyed', 'keyless'] as const) plan.push({ action, contract, caller });
    const answers: BareAnswer[] = [];
    for (const [i, p] of plan.entries()) {
      const url = `${origin}${query(p.action, p.contract)}${p.caller === 'keyed' ? `&apikey=${keys[0]}` : ''}`;
      // An address outside the pool, another for each keyless answer.
      const res = await fetch(url, p.caller === 'keyless' ? { headers: { 'x-forwarded-for': `192.0.2.${i + 1}` } } : undefined);
      const body = await res.text();
      if (res.status !== 200 || !body.startsWith('{"status":"1"')) throw new Error(`${p.action} ${p.contract.label} ${p.caller}: ${body.slice(0, 300)}`);
      answers.push({ body, contentType: res.headers.get('content-type') ?? 'application/json' });
    }
    bare = await startBare(answers);

    const header = CASE_COLUMNS;
    process.stdout.write(`\n${kind}:\n`);
    for (const [i, p] of plan.entries()) {
      const load = (base: string): LoadRequest => {
        const request: LoadRequest = {
          url: `${base}${query(p.action, p.contract)}`,
          connections: CONNECTIONS,
          warmupMs: WARMUP_MS,
          durationMs: SECONDS * 1000,
        };
        if (p.caller === 'keyed') request.keys = keys;
        else request.forwardedFor = { start: bench.poolCursor % POOL_SIZE, size: POOL_SIZE };
        return request;
      };
      const s = await bench.generator.run(load(origin));
      bench.poolCursor += s.addressesUsed;
      const b = await bench.generator.run(load(`http://127.0.0.1:${bare.ports[i]}`));
      bench.poolCursor += b.addressesUsed;
      const figures: CaseFigures = {
        store: kind,
        action: p.action,
        contract: p.contract.label,
        caller: p.caller,
        answerBytes: Buffer.byteLength(answers[i]!.body),
        service: figuresOf(s),
        bare: figuresOf(b),
        ratio: s.perSecond / b.perSecond,
      };
      cases.push(figures);
      // Each row as soon as it is measured, so a run that fails late keeps them.
      if (cases.length === 1) process.stdout.write(`${formatRow(header, STREAM_WIDTHS)}\n`);
      process.stdout.write(`${formatRow(caseRow(figures), STREAM_WIDTHS)}\n`);
      for (const [text, count] of Object.entries(s.notOkTexts)) process.stdout.write(`    not "1" (${count}): ${text}\n`);
      if (b.notOk) process.stdout.write(`    bare not "1": ${b.notOk}\n`);
    }
    await service.stop();

    let profile: ProfileSummary | undefined;
    if (bench.profileDir && kind === 'sqlite') {
      service = await start(['--cpu-prof', `--cpu-prof-dir=${bench.profileDir}`]);
      profile = await profileService(bench, service, query('getsourcecode', bench.contracts[0]!), keys);
    }
    return profile ? { cases, profile } : { cases };
  } finally {
    bare?.stop();
    await service.stop();
  }
}

/** Runs getsourcecode of the ERC-20 for keyed callers against a service started with --cpu-prof, stops it, and summarises its main thread's profile. */
async function profileService(bench: Bench, service: ServiceProcess, path: string, keys: string[]): Promise<ProfileSummary> {
  const result = await bench.generator.run({
    url: `${new URL(service.apiUrl).origin}${path}`,
    connections: CONNECTIONS,
    keys,
    warmupMs: WARMUP_MS,
    durationMs: SECONDS * 1000,
  });
  await service.stop();
  // The main thread's file: CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile (workers have other thread ids).
  const file = readdirSync(bench.profileDir!)
    .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${service.pid}.0.`))
    .map((f) => join(bench.profileDir!, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!file) throw new Error(`no profile of process ${service.pid} in ${bench.profileDir}`);
  const summary = topSelfTime(readProfile(file), 15, { fromNs: BigInt(result.windowNs[0]), toNs: BigInt(result.windowNs[1]) });
  process.stdout.write(
    `\nCPU profile of the service (sqlite, getsourcecode erc20 keyed, ${int(result.perSecond)}/s while profiled): ${file}\n${formatTop(summary)}\n`,
  );
  return summary;
}

async function main(): Promise<void> {
  clearProxyEnv();
  const started = performance.now();
  const loadStart = loadAverage();
  process.stdout.write(`read bench: ${cpus().length} cores, load average ${loadStart}\n`);
  const keylessIntervalMs = defaultConfig().keylessIntervalMs;
  process.stdout.write(
    `${CONNECTIONS} keep-alive connections, ${WARMUP_MS / 1000} s warm-up then ${SECONDS} s per case; keyed: ${CONNECTIONS} pro keys, one per connection; ` +
      `keyless: X-Forwarded-For from a pool of ${int(POOL_SIZE)} addresses used in turn (the keyless interval is ${keylessIntervalMs} ms per address)\n`,
  );
  const tmp = mkdtempSync(join(tmpdir(), 'solproof-read-bench-'));
  let devnet: Devnet | undefined;
  let generator: LoadGenerator | undefined;
  const probe = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  let schema: string | undefined;
  try {
    const solc = require('solc') as SolcJs;
    const longVersion = /^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(solc.version())?.[1];
    if (!longVersion) throw new Error(`unexpected solc version ${solc.version()}`);
    const tokenInput = tokenStandardInput();
    const wideInput = wideStandardInput(WIDE_FILES);
    let t0 = performance.now();
    const token = compileChecked(solc, tokenInput).contracts![TOKEN_PATH]![TOKEN_NAME]!;
    const tokenMs = performance.now() - t0;
    t0 = performance.now();
    const wideOutput = compileChecked(solc, wideInput);
    const wide = wideOutput.contracts![WIDE_PATH]![WIDE_NAME]!;
    const wideSources = Object.keys((JSON.parse(wide.metadata!) as { sources: Record<string, unknown> }).sources).length;
    process.stdout.write(
      `solc ${longVersion}: ERC-20 (${Object.keys(tokenInput.sources).length} files) in ${int(tokenMs)} ms; ` +
        `wide contract (${Object.keys(wideInput.sources).length} files, ${wideSources} in its metadata) in ${int(performance.now() - t0)} ms\n`,
    );

    devnet = await startDevnet();
    const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
    const account = privateKeyToAccount(devnet.accounts[0]!.privateKey);
    const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
    const walletClient = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });
    const deployed = async (hash: Hex): Promise<string> => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
      return receipt.contractAddress.toLowerCase();
    };
    const tokenArgs = ['Bench Token', 'BENCH', 10n ** 24n] as const;
    const tokenAddress = await deployed(
      await walletClient.deployContract({ abi: token.abi as Abi, bytecode: `0x${token.evm!.bytecode!.object}` as Hex, args: tokenArgs }),
    );
    const wideAddress = await deployed(await walletClient.sendTransaction({ data: `0x${wide.evm!.bytecode!.object}` as Hex }));
    const common = { codeformat: 'solidity-standard-json-input', compilerversion: `v${longVersion}`, chainid: String(devnet.chainId) };
    const contracts: Contract[] = [
      {
        label: 'erc20',
        address: tokenAddress,
        fields: {
          ...common,
          contractaddress: tokenAddress,
          sourceCode: JSON.stringify(tokenInput),
          contractname: `${TOKEN_PATH}:${TOKEN_NAME}`,
          constructorArguements: encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], tokenArgs).slice(2),
        },
      },
      {
        label: `${WIDE_FILES}-file`,
        address: wideAddress,
        fields: { ...common, contractaddress: wideAddress, sourceCode: JSON.stringify(wideInput), contractname: `${WIDE_PATH}:${WIDE_NAME}` },
      },
    ];

    generator = new LoadGenerator();
    const profileDir = process.env['SOLPROOF_BENCH_CPU_PROF'] || undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const bench: Bench = { devnet, generator, contracts, longVersion, tmp, poolCursor: 0, profileDir };

    const results: Partial<Record<StoreKind, CaseFigures[]>> = {};
    const sqlite = await measureStore(bench, 'sqlite', undefined);
    results.sqlite = sqlite.cases;

    let postgresNote = '';
    try {
      await probe.connect();
      schema = `read_bench_${Date.now().toString(36)}`;
      await probe.query(`create schema ${schema}`);
    } catch (error) {
      schema = undefined;
      postgresNote = `skipped, PostgreSQL does not answer at ${PG_URL} (${(error as Error).message})`;
      process.stdout.write(`\npostgres: ${postgresNote}\n`);
    }
    if (schema) {
      const url = new URL(PG_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      results.postgres = (await measureStore(bench, 'postgres', url.toString())).cases;
    }

    const loadEnd = loadAverage();
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `\nload average at start ${loadStart}, at end ${loadEnd} (${cpus().length} cores); ` +
        `${int(bench.poolCursor)} keyless addresses used; bench took ${seconds.toFixed(0)} s\n`,
    );
    const jsonPath = process.env['SOLPROOF_BENCH_JSON'];
    if (jsonPath) {
      const json = {
        at: new Date().toISOString(),
        cores: cpus().length,
        loadAverageStart: loadStart,
        loadAverageEnd: loadEnd,
        connections: CONNECTIONS,
        warmupSeconds: WARMUP_MS / 1000,
        seconds: SECONDS,
        keylessPool: POOL_SIZE,
        keylessIntervalMs,
        ...(postgresNote ? { postgres: postgresNote } : {}),
        cases: [...(results.sqlite ?? []), ...(results.postgres ?? [])],
        ...(sqlite.profile ? { profile: sqlite.profile } : {}),
      };
      writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
      process.stdout.write(`figures written to ${jsonPath}\n`);
    }
  } finally {
    generator?.stop();
    await devnet?.stop().catch(() => undefined);
    if (schema) await probe.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await probe.end().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
