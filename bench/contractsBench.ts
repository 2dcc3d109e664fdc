/**
 * Part of `npm run bench`: submit to `Pass - Verified` through the running service for six
 * kinds of contract, each against a warm bare `solc.compile` of the same input in this process
 * and against lib-sourcify verifying the same deployment in this process (warm, same solc); then
 * a resubmission and a copy (no compile), a cold compiler fetched from the npm registry, 100
 * submissions at once, and the service's memory with four compilers warm. Prints numbers,
 * asserts nothing; talks to 127.0.0.1 (and to the npm registry for the cold compiler).
 *
 * Switches: SOLPROOF_BENCH_RUNS (verifications per contract, default 3),
 * SOLPROOF_BENCH_BURST (submissions at once, default 100; 0 skips),
 * SOLPROOF_BENCH_COLD=0 skips the download, SOLPROOF_BENCH_LIBSOURCIFY=0 skips lib-sourcify,
 * SOLPROOF_BENCH_ONLY=tiny,governor picks contracts by label prefix.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  parseAbiParameters,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type Devnet, startDevnet } from '../src/chain/devnet.js';
import type { SolcInput, SolcOutput } from '../src/verify/index.js';
import {
  type BenchContract,
  ERC20_TOKEN,
  FACTORY_CHILD,
  GOVERNOR,
  LIBRARY_PATH,
  libraryInput,
  minimalOutputs,
  OLD_05,
  TINY,
  tinyFor,
  usesLibContract,
  VOTES_TOKEN_PATH,
  votesTokenInput,
} from './benchContracts.js';
import { type LibSourcify, loadLibSourcify, type SourcifyChainLike } from './libSourcify.js';
import { apiCall, clearProxyEnv, createKey, type ServiceCompileLog, type ServiceProcess, startServiceProcess } from './serviceProcess.js';

const RUNS = Number(process.env.SOLPROOF_BENCH_RUNS ?? 3);
const BURST = Number(process.env.SOLPROOF_BENCH_BURST ?? 100);
const COLD = process.env.SOLPROOF_BENCH_COLD !== '0';
const LIBSOURCIFY = process.env.SOLPROOF_BENCH_LIBSOURCIFY !== '0';
/** Jobs of the bench's one key at once: every job slot (the default keeps one for other keys). */
const KEY_RUNNING = Number(process.env.SOLPROOF_BENCH_KEY_RUNNING ?? cpus().length);
const ONLY = (process.env.SOLPROOF_BENCH_ONLY ?? '').split(',').filter(Boolean);
/** A status poll this often: a Pass is seen at most this late (a client polls far less often). */
const POLL_MS = Number(process.env.SOLPROOF_BENCH_POLL_MS ?? 20);
/** In the burst each receipt is polled this often, so the polls do not take the service's time. */
const BURST_POLL_MS = 500;
const VERDICT_TIMEOUT_MS = 300_000;
/** A version the service has not got: fetched from the npm registry in the cold run. */
const COLD_PACKAGE = 'solc-0.8.26';
const NPM_REGISTRY = process.env.SOLPROOF_BENCH_NPM_REGISTRY ?? 'https://registry.npmjs.org';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** SOLPROOF_BENCH_CLI: another build of the service (to compare two builds under the same load). */
const CLI = process.env.SOLPROOF_BENCH_CLI ?? join(root, 'dist', 'cli', 'main.js');

interface SolcJs {
  compile(input: string): string;
  version(): string;
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ms = (x: number | null | undefined): string => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : `${Math.round(x)} ms`);
const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : 'n/a');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const out = (line: string) => process.stdout.write(`${line}\n`);

const solcs = new Map<string, SolcJs>();
function solcOf(pkg: string): SolcJs {
  let solc = solcs.get(pkg);
  if (!solc) {
    solc = require(pkg) as SolcJs;
    solcs.set(pkg, solc);
  }
  return solc;
}
const longVersionOf = (solc: SolcJs): string => /^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(solc.version())![1]!;

function compileChecked(solc: SolcJs, input: SolcInput): SolcOutput {
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  return output;
}

interface Submitted {
  totalMs: number;
  /** Submit to the moment the service recorded the verdict (its log line, ms resolution; same clock). */
  recordedMs: number;
  /** POST to its answer (the receipt). */
  submitMs: number;
  verdict: string;
  compiles: ServiceCompileLog[];
}

/** Submits and polls every POLL_MS until the receipt has a final status. */
async function submitAndWait(service: ServiceProcess, apiKey: string, fields: Record<string, string>): Promise<Submitted> {
  const seen = service.compiles.length;
  const t0 = performance.now();
  const submit = await apiCall(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...fields }, 'POST');
  const submitMs = performance.now() - t0;
  if (submit.status !== '1') throw new Error(`submission refused: ${String(submit.result)}`);
  const done = await waitFor(service, apiKey, String(submit.result), t0);
  // The service's log may reach this process a moment after the verdict.
  await sleep(100);
  const recordedAt = service.jobsDone.get(String(submit.result));
  const recordedMs = recordedAt === undefined ? Number.NaN : recordedAt - (performance.timeOrigin + t0);
  return { ...done, recordedMs, submitMs, compiles: service.compiles.slice(seen) };
}

async function waitFor(service: ServiceProcess, apiKey: string, guid: string, t0: number, pollMs = POLL_MS): Promise<{ totalMs: number; verdict: string }> {
  for (;;) {
    const status = await apiCall(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid, apikey: apiKey }, 'GET');
    if (status.result !== 'Pending in queue') return { totalMs: performance.now() - t0, verdict: String(status.result) };
    if (performance.now() - t0 > VERDICT_TIMEOUT_MS) throw new Error(`still pending after ${VERDICT_TIMEOUT_MS} ms`);
    await sleep(pollMs);
  }
}

/** A lib-sourcify compiler over the solc-js instances of this process (warm, like the bare compile). */
function sourcifyCompiler() {
  return {
    async compile(version: string, input: unknown) {
      const pkg = [...solcs.entries()].find(([, s]) => longVersionOf(s) === version.replace(/^v/, ''))?.[0];
      if (!pkg) throw new Error(`no solc ${version} loaded`);
      return JSON.parse(solcOf(pkg).compile(JSON.stringify(input)));
    },
  };
}

interface Deployment {
  fields: Record<string, string>;
  address: string;
  /** The transaction that created it (the factory call for a created contract). */
  txHash: Hex;
  /** Whether the transaction is the contract's own creation (lib-sourcify's creation match needs that). */
  directCreation: boolean;
  /** The metadata and sources lib-sourcify starts from. */
  metadata: string;
  sources: Record<string, string>;
  input: SolcInput;
}

async function main(): Promise<void> {
  clearProxyEnv();
  const started = performance.now();
  const loadStart = loadavg()[0]!.toFixed(2);
  const tmp = mkdtempSync(join(tmpdir(), 'solproof-bench-contracts-'));
  const services: ServiceProcess[] = [];
  let devnet: Devnet | undefined;
  try {
    out(`contracts bench: ${cpus().length} cores, load ${loadStart}, ${RUNS} runs per contract`);
    devnet = await startDevnet();
    const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
    const account = privateKeyToAccount(devnet.accounts[0]!.privateKey);
    const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
    const walletClient = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });

    const send = async (data: Hex, to?: Hex) => {
      const hash = to ? await walletClient.sendTransaction({ to, data }) : await walletClient.sendTransaction({ data });
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== 'success') throw new Error(`transaction failed: ${hash}`);
      return receipt;
    };
    const deployCode = async (code: string, args: Hex = '0x') => {
      const receipt = await send(`0x${code}${args.slice(2)}` as Hex);
      return { address: receipt.contractAddress!, txHash: receipt.transactionHash };
    };

    // --- fixed deployments: the library, the governor's token ---
    const solc = solcOf('solc');
    const libOut = compileChecked(solc, libraryInput());
    const library = await deployCode(libOut.contracts![LIBRARY_PATH]!.MathLib!.evm!.bytecode!.object!);
    const tokenOut = compileChecked(solc, votesTokenInput());
    const votesToken = await deployCode(tokenOut.contracts![VOTES_TOKEN_PATH]!.VotesToken!.evm!.bytecode!.object!);

    const contracts: BenchContract[] = [TINY, ERC20_TOKEN, usesLibContract(library.address), FACTORY_CHILD, OLD_05, GOVERNOR].filter(
      (c) => ONLY.length === 0 || ONLY.some((o) => c.label.toLowerCase().startsWith(o)),
    );
    let editions = 0;
    /** Deploys a new edition of `contract` (or edition `n` again) and says how to submit it. */
    const deploy = async (contract: BenchContract, n = ++editions): Promise<Deployment> => {
      const input = contract.input(n);
      const c = solcOf(contract.solcPackage);
      const output = compileChecked(c, input);
      const compiled = output.contracts![contract.path]!;
      let args: Hex;
      let address: string;
      let txHash: Hex;
      let directCreation = true;
      if (contract === FACTORY_CHILD) {
        const factory = await deployCode(compiled.Factory!.evm!.bytecode!.object!);
        const abi = compiled.Factory!.abi as Abi;
        args = encodeAbiParameters(parseAbiParameters('uint256'), [BigInt(n)]);
        const receipt = await send(encodeFunctionData({ abi, functionName: 'make', args: [BigInt(n)] }), factory.address);
        const log = decodeEventLog({ abi, data: receipt.logs[0]!.data, topics: receipt.logs[0]!.topics });
        address = (log.args as unknown as { child: string }).child;
        txHash = receipt.transactionHash;
        directCreation = false;
      } else {
        args =
          contract === ERC20_TOKEN
            ? encodeAbiParameters(parseAbiParameters('string, string, uint256'), ['Bench Token', 'BENCH', 10n ** 24n + BigInt(n)])
            : contract === GOVERNOR
              ? encodeAbiParameters(parseAbiParameters('address'), [votesToken.address])
              : encodeAbiParameters(parseAbiParameters('uint256'), [BigInt(n)]);
        const deployed = await deployCode(compiled[contract.name]!.evm!.bytecode!.object!, args);
        address = deployed.address;
        txHash = deployed.txHash;
      }
      return {
        address,
        txHash,
        directCreation,
        input,
        metadata: compiled[contract.name]!.metadata!,
        sources: Object.fromEntries(Object.entries(input.sources).map(([p, s]) => [p, s.content ?? ''])),
        fields: {
          contractaddress: address.toLowerCase(),
          sourceCode: JSON.stringify(input),
          codeformat: 'solidity-standard-json-input',
          contractname: `${contract.path}:${contract.name}`,
          compilerversion: `v${longVersionOf(c)}`,
          constructorArguements: args.slice(2),
          chainid: String(devnet!.chainId),
        },
      };
    };

    // --- lib-sourcify, in this process ---
    let sourcify: LibSourcify | null = null;
    let sourcifyChain: SourcifyChainLike | null = null;
    if (LIBSOURCIFY) {
      sourcify = loadLibSourcify(join(root, '.bench-cache'), out);
      sourcify.setLibSourcifyLoggerLevel(0);
      sourcifyChain = new sourcify.SourcifyChain({ name: 'devnet', chainId: devnet.chainId, rpc: [devnet.rpcUrl], supported: true });
    }
    const verifyWithSourcify = async (d: Deployment): Promise<{ ms: number; match: string }> => {
      if (!sourcify || !sourcifyChain) return { ms: Number.NaN, match: 'skipped' };
      const t0 = performance.now();
      const checked = new sourcify.CheckedContract(sourcifyCompiler(), JSON.parse(d.metadata), d.sources);
      const match = await sourcify.verifyDeployed(checked, sourcifyChain, d.address, d.directCreation ? d.txHash : undefined);
      return { ms: performance.now() - t0, match: `${match.runtimeMatch ?? 'none'}/${match.creationMatch ?? 'none'}` };
    };

    // --- the service: every compiler it needs is in its cache, none loaded yet ---
    const dataDir = join(tmp, 'warm');
    mkdirSync(join(dataDir, 'compilers'), { recursive: true });
    for (const pkg of ['solc', 'solc-0.5.17', 'solc-0.7.6']) {
      copyFileSync(require.resolve(`${pkg}/soljson.js`), join(dataDir, 'compilers', `soljson-v${longVersionOf(solcOf(pkg))}.js`));
    }
    const key = await createKey(CLI, dataDir);
    const extra = [
      '--key-running-jobs',
      String(KEY_RUNNING),
      '--rate-free',
      '100000',
      '--daily-verify-quota',
      '100000',
      '--key-queued-jobs',
      '0',
      '--follow-chain',
      'false',
    ];
    const service = await startServiceProcess(
      CLI,
      devnet.rpcUrl,
      dataDir,
      extra,
      process.env.SOLPROOF_BENCH_CPU_PROF ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.SOLPROOF_BENCH_CPU_PROF}`] } : {},
    );
    services.push(service);

    // --- 1. per contract ---
    interface Row {
      label: string;
      bare: number;
      service: number;
      /** Submit to the verdict recorded (seen by no poll yet). */
      recorded: number;
      /** Median of recorded/bare per run (each pair measured back to back, under the same load). */
      pairedRatio: number;
      submit: number;
      sourcify: number;
      match: string;
      compiles: string;
    }
    const rows: Row[] = [];
    const verified = new Map<BenchContract, Deployment>();
    for (const contract of contracts) {
      // Warms both sides up: the service's worker and this process's compiler.
      const warmUp = await submitAndWait(service, key, (await deploy(contract)).fields);
      if (warmUp.verdict !== 'Pass - Verified') throw new Error(`${contract.label}: ${warmUp.verdict}`);
      // A compiler loaded by that verification is warmed up by the service while idle.
      await service.warmedUp();
      const c = solcOf(contract.solcPackage);
      const bare: number[] = [];
      const inService: number[] = [];
      const recorded: number[] = [];
      const submits: number[] = [];
      const viaSourcify: number[] = [];
      let match = '';
      let compiles = '';
      for (let run = 0; run < RUNS; run++) {
        const d = await deploy(contract);
        const v = await submitAndWait(service, key, d.fields);
        if (v.verdict !== 'Pass - Verified') throw new Error(`${contract.label}: ${v.verdict}`);
        inService.push(v.totalMs);
        recorded.push(v.recordedMs);
        submits.push(v.submitMs);
        compiles = v.compiles.map((x) => `${Math.round(x.compileMs)}`).join('+');
        verified.set(contract, d);
        const t0 = performance.now();
        compileChecked(c, minimalOutputs(d.input, contract.path, contract.name));
        bare.push(performance.now() - t0);
        const s = await verifyWithSourcify(d);
        viaSourcify.push(s.ms);
        match = s.match;
      }
      const row = {
        label: contract.label,
        bare: median(bare),
        service: median(inService),
        recorded: median(recorded),
        pairedRatio: median(recorded.map((x, i) => x / bare[i]!)),
        submit: median(submits),
        sourcify: median(viaSourcify),
        match,
        compiles,
      };
      rows.push(row);
      out(
        `  ${row.label}: service ${recorded.map(ms).join(', ')} (seen by the poll ${inService.map(ms).join(', ')}; compiles in the service ${compiles} ms); bare ${bare.map(ms).join(', ')}; lib-sourcify ${viaSourcify.map(ms).join(', ')} (${match})`,
      );
    }
    const table: string[][] = [
      [
        'contract',
        'submit→Pass recorded',
        '(POST)',
        `seen (poll ${POLL_MS} ms)`,
        'bare compile',
        'recorded/compile',
        '(paired)',
        'lib-sourcify',
        'recorded/lib',
        'seen/lib',
      ],
      ...rows.map((r) => [
        r.label,
        ms(r.recorded),
        ms(r.submit),
        ms(r.service),
        ms(r.bare),
        ratio(r.recorded, r.bare),
        `${r.pairedRatio.toFixed(2)}x`,
        ms(r.sourcify),
        ratio(r.recorded, r.sourcify),
        ratio(r.service, r.sourcify),
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    out(
      `\nwarm, median of ${RUNS}: submit→Pass "recorded" is when the service recorded the verdict (its log line; a status check answers Pass from then on), "seen" when a client polling every ${POLL_MS} ms saw it; bare = solc.compile of the same input, minimal outputs; lib-sourcify verifies in this process, with no HTTP and no polling:`,
    );
    for (const r of table) out(`  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`);

    // --- 1b. what the legacy assembly costs (the service asks for it only where the code cannot prove its auxdata) ---
    out('\nthe legacy assembly (asked only for factories, old compilers and hashes other than IPFS), bare compiles alternated:');
    for (const contract of contracts.filter((c) => c === ERC20_TOKEN || c === GOVERNOR)) {
      const c = solcOf(contract.solcPackage);
      const lean: number[] = [];
      const withAssembly: number[] = [];
      let bytes = [0, 0];
      for (let run = 0; run < RUNS; run++) {
        const input = minimalOutputs(contract.input(10_000 + run), contract.path, contract.name);
        const assembly = minimalOutputs(contract.input(20_000 + run), contract.path, contract.name);
        assembly.settings!.outputSelection![contract.path]![contract.name]!.push('evm.legacyAssembly');
        const t0 = performance.now();
        const a = c.compile(JSON.stringify(input));
        const t1 = performance.now();
        const b = c.compile(JSON.stringify(assembly));
        withAssembly.push(performance.now() - t1);
        lean.push(t1 - t0);
        bytes = [a.length, b.length];
      }
      out(
        `  ${contract.label}: without ${ms(median(lean))}, with ${ms(median(withAssembly))} (${ratio(median(withAssembly), median(lean))}); output ${Math.round(bytes[0]! / 1024)} KB, with it ${Math.round(bytes[1]! / 1024)} KB`,
      );
    }

    // --- 2. resubmission and copy ---
    const again = verified.get(ERC20_TOKEN) ?? verified.values().next().value;
    if (again) {
      const contract = [...verified.entries()].find(([, d]) => d === again)![0];
      const n = Number(/edition (\d+)/.exec(JSON.stringify(again.input))![1]);
      const resubmitted: number[] = [];
      const copied: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        // The same input for a new deployment of the same code: compiled before, not again.
        const same = await deploy(contract, n);
        const r = await submitAndWait(service, key, same.fields);
        resubmitted.push(r.totalMs);
        if (r.compiles.length > 0 || r.verdict !== 'Pass - Verified') out(`  resubmission: ${r.verdict}, ${r.compiles.length} compiles`);
        // A copy nobody submits: the first read of its source verifies it.
        const copy = await deploy(contract, n);
        const t0 = performance.now();
        const read = await apiCall(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: copy.address, apikey: key }, 'GET');
        copied.push(performance.now() - t0);
        const first = (read.result as { SourceCode?: string }[])[0];
        if (!first?.SourceCode) out('  copy: getsourcecode did not verify it');
      }
      out(
        `\nno compile (${contract.label}): resubmission of a compiled input ${ms(median(resubmitted))} median submit→Pass [${resubmitted.map(ms).join(', ')}]; ` +
          `copy verified by getsourcecode ${ms(median(copied))} median [${copied.map(ms).join(', ')}] (goal < 50 ms)`,
      );
    }

    // --- 4. throughput ---
    if (BURST > 0) {
      const fields: Record<string, string>[] = [];
      for (let i = 0; i < BURST; i++) fields.push((await deploy(TINY)).fields);
      const t0 = performance.now();
      const receipts = await Promise.all(
        fields.map(async (f) => {
          const r = await apiCall(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: key, ...f }, 'POST');
          if (r.status !== '1') throw new Error(`burst submission refused: ${String(r.result)}`);
          return String(r.result);
        }),
      );
      const submittedMs = performance.now() - t0;
      const verdicts = await Promise.all(receipts.map(async (g) => (await waitFor(service, key, g, t0, BURST_POLL_MS)).verdict));
      const drainMs = performance.now() - t0;
      const passed = verdicts.filter((v) => v === 'Pass - Verified').length;
      out(
        `\nthroughput: ${BURST} different tiny contracts submitted at once: accepted in ${ms(submittedMs)}, drained in ${ms(drainMs)}, ` +
          `${((passed * 1000) / drainMs).toFixed(1)} verifications/s (${passed} passed), ${cpus().length} cores, ` +
          `compiler threads = job concurrency = ${cpus().length} (the defaults), jobs of one key at once: ${KEY_RUNNING}; receipts polled every ${BURST_POLL_MS} ms`,
      );
    }

    // --- memory with four compilers warm ---
    for (const [pkg, pragma] of [
      ['solc-0.7.6', '^0.7.0'],
      ['solc-0.5.17', '^0.5.0'],
    ] as const) {
      const v = await submitAndWait(service, key, (await deploy(tinyFor(pkg, pragma))).fields);
      if (v.verdict !== 'Pass - Verified') out(`  ${pkg}: ${v.verdict}`);
    }
    out(`\nservice memory after compiles with 0.8.28, 0.5.17, 0.7.6 (+0.8.26 below): ${rssOf(service.pid)}`);

    // --- 3. cold: a compiler fetched from the npm registry ---
    if (COLD) {
      const coldDir = join(tmp, 'cold');
      mkdirSync(coldDir, { recursive: true });
      const coldKey = await createKey(CLI, coldDir);
      const coldService = await startServiceProcess(CLI, devnet.rpcUrl, coldDir, [...extra, '--npm-registry', NPM_REGISTRY]);
      services.push(coldService);
      const coldContract = tinyFor(COLD_PACKAGE, '^0.8.0');
      const d = await deploy(coldContract);
      try {
        const v = await submitAndWait(coldService, coldKey, d.fields);
        const c = v.compiles[0];
        out(
          `\ncold (${longVersionOf(solcOf(COLD_PACKAGE))} not cached, fetched from ${NPM_REGISTRY}): submit→${v.verdict} ${ms(v.totalMs)}; ` +
            `download ${ms(c?.resolveMs)}, load ${ms(c?.loadMs)}, compile ${ms(c?.compileMs)}`,
        );
      } catch (error) {
        out(`\ncold: ${(error as Error).message}`);
      }
      // The same version, now in the warm service's cache: four versions loaded there.
      copyFileSync(require.resolve(`${COLD_PACKAGE}/soljson.js`), join(dataDir, 'compilers', `soljson-v${longVersionOf(solcOf(COLD_PACKAGE))}.js`));
      await submitAndWait(service, key, (await deploy(coldContract)).fields);
      out(`service memory with four compilers warm (0.8.28, 0.5.17, 0.7.6, 0.8.26): ${rssOf(service.pid)}`);
    }
    out(`\ncontracts bench: ${ms(performance.now() - started)}, load at end ${loadavg()[0]!.toFixed(2)}`);
  } finally {
    for (const s of services.splice(0)) await s.stop().catch(() => undefined);
    await devnet?.stop().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

function rssOf(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return `resident ${Math.round(Number(rss) / 1024)} MiB (peak ${Math.round(Number(hwm) / 1024)} MiB)`;
  } catch {
    return 'n/a';
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`contracts bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
