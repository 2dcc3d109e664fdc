/**
 * `npm run bench:scale [-- --contracts N] [-- --dialect sqlite|postgres]`: how the store and the
 * running service hold up with many verified contracts. Fills a store through the store's own
 * functions (compilations, input documents, deployments, verified contracts), then starts the
 * service on it and measures reads over HTTP with a fixed number of concurrent clients, next to
 * the same figures at 10,000 contracts. Prints numbers, asserts nothing, talks only to 127.0.0.1.
 *
 * The mix: 95% are copies of 50 distinct contracts (OpenZeppelin ERC-20 variants compiled once
 * with solc from npm); 5% are distinct, made from one of the 50 with a source of their own (an
 * edition comment appended), so each has its own source file, input document, compilation,
 * compiled contract and code (the metadata's source hash and the code's metadata hash are
 * rewritten, not recompiled: compiling 50,000 inputs would take hours).
 *
 * The rows were never deployed, and a record is served only while its address holds the code it
 * describes: the API reads go to 2,000 rows spread over the store, and the list pages show rows,
 * whose code is put at their addresses on the devnet (anvil_setCode); every read compares it
 * there once per check window, as a real store's reads do.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { keccak256, stringToHex } from 'viem';
import { startDevnet } from '../src/chain/devnet.js';
import type { Address } from '../src/core/types.js';
import { createApiKey } from '../src/store/apiKeys.js';
import { codeKey, saveCompilation } from '../src/store/compilations.js';
import { type NewDeployment, recordDeployments } from '../src/store/deployments.js';
import { saveInputDocument } from '../src/store/inputDocuments.js';
import { openStore, type Store, type StoreDialect } from '../src/store/openStore.js';
import { storeStats } from '../src/store/storeStats.js';
import { writeTransaction } from '../src/store/transactions.js';
import { formatListCursor, insertVerifiedContracts } from '../src/store/verifiedContracts.js';
import { type CompiledContract, codeFingerprint, compiledContractOf, type SolcInput, type SolcOutput } from '../src/verify/index.js';
import { sampleRecord } from '../test/helpers/sampleRecords.js';
import { clearProxyEnv, startServiceProcess } from './serviceProcess.js';
import { openZeppelinStandardInput } from './tokenInput.js';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(root, 'dist', 'cli', 'main.js');
const PG_URL = process.env['SOLPROOF_BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_BENCH_DB = 'solproof_bench';
const DISTINCT_TEMPLATES = 50;
const BATCH = 5000;
const CONCURRENCY = 16;
const REQUESTS = 2000;
const PAGE_REPEATS = 20;
const BASELINE = 10_000;
/** Distinct addresses the API reads go to (each compared with the code on the devnet once per check window). */
const READ_POOL = 2000;

interface SolcJs {
  compile(input: string): string;
  version(): string;
}

interface Template {
  path: string;
  name: string;
  input: SolcInput;
  compiled: CompiledContract;
  compilationId: string;
  contractId: string;
  inputDocumentId: string;
  runtimeCodeHash: string;
  fingerprint: string;
}

/** What one size on one database measured. */
interface Figures {
  contracts: number;
  fillSeconds: number;
  bytes: number;
  startMs: number;
  getabi: Load;
  getsourcecode: Load;
  listFirstMs: number;
  listAfterCursorMs: number;
  startPageMs: number;
  csvSeconds: number;
  csvBytes: number;
  csvPeakRssMiB: number;
  idleRps: number;
  busyRps: number;
  busyNote: string;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const median = (xs: number[]): number => quantile(xs, 0.5);
const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
const addressOf = (i: number): Address => `0x${sha256Hex(`scale-bench-address-${i}`).slice(0, 40)}` as Address;

/** 50 ERC-20 variants in one input; a contract's code and metadata depend only on the files it imports. */
function templateSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  for (let k = 0; k < DISTINCT_TEMPLATES; k++) {
    const burnable = k % 2 === 1;
    sources[`contracts/Token${k}.sol`] = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
${burnable ? 'import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";\n' : ''}
contract Token${k} is ERC20${burnable ? ', ERC20Burnable' : ''} {
    uint256 public constant EDITION = ${k + 1};

    constructor(uint256 supply) ERC20("Token ${k}", "TK${k}") {
        _mint(msg.sender, supply * ${k + 1});
    }

    function decimals() public pure override returns (uint8) {
        return ${6 + (k % 13)};
    }
}
`;
  }
  return sources;
}

/** Compiles the 50 templates once (cached under the system temp dir by input hash). */
function compileTemplates(): { input: SolcInput; output: SolcOutput; version: string } {
  const input = openZeppelinStandardInput(templateSources());
  input.settings = { ...input.settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'metadata'] } } };
  const solc = require('solc') as SolcJs;
  const version = solc.version().replace(/\.Emscripten\.clang$/, '');
  const text = JSON.stringify(input);
  const cache = join(tmpdir(), `solproof-scale-bench-${sha256Hex(version + text).slice(0, 16)}.json`);
  if (existsSync(cache)) return { input, output: JSON.parse(readFileSync(cache, 'utf8')) as SolcOutput, version };
  const t0 = performance.now();
  const output = JSON.parse(solc.compile(text)) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage ?? e.message).join('\n'));
  console.log(`compiled ${DISTINCT_TEMPLATES} contracts with solc ${version} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  writeFileSync(cache, JSON.stringify(output));
  return { input, output, version };
}

/** One contract's own input: the files its metadata names, with the full input's settings. */
function ownInput(full: SolcInput, metadata: string): SolcInput {
  const used = Object.keys((JSON.parse(metadata) as { sources: Record<string, unknown> }).sources);
  return { language: 'Solidity', sources: Object.fromEntries(used.map((p) => [p, full.sources[p]!])), settings: full.settings };
}

async function storeTemplates(store: Store, compiled: ReturnType<typeof compileTemplates>): Promise<Template[]> {
  const templates: Template[] = [];
  for (let k = 0; k < DISTINCT_TEMPLATES; k++) {
    const path = `contracts/Token${k}.sol`;
    const name = `Token${k}`;
    const contract = compiledContractOf(compiled.output.contracts![path]![name]!);
    const input = ownInput(compiled.input, contract.metadata);
    templates.push(await storeOne(store, compiled.version, input, path, name, contract));
  }
  return templates;
}

async function storeOne(
  store: Store | { db: Store['db'] },
  version: string,
  input: SolcInput,
  path: string,
  name: string,
  contract: CompiledContract,
): Promise<Template> {
  const { compilationId, contractIds } = await saveCompilation(store.db, version, input, [{ path, name, compiled: contract }]);
  const { outputSelection: _o, ...settings } = input.settings as Record<string, unknown>;
  const inputDocumentId = await saveInputDocument(store.db, { kind: 'standard-json', input: { language: 'Solidity', sources: input.sources, settings } });
  return {
    path,
    name,
    input,
    compiled: contract,
    compilationId,
    contractId: contractIds[0]!,
    inputDocumentId,
    runtimeCodeHash: keccak256(`0x${contract.runtime.code}`),
    fingerprint: codeFingerprint(contract.runtime.code),
  };
}

const METADATA_HASH_PREFIX = 'a2646970667358221220';

/** A distinct contract made from a template: its own source (an edition comment), metadata and code. */
function distinctVariant(t: Template, i: number): { input: SolcInput; contract: CompiledContract } {
  const own = t.input.sources[t.path]!.content!;
  const content = `${own}\n// edition ${i}\n`;
  const oldHash = keccak256(stringToHex(own));
  const newHash = keccak256(stringToHex(content));
  const metadata = t.compiled.metadata.split(oldHash).join(newHash);
  const at = t.compiled.runtime.code.lastIndexOf(METADATA_HASH_PREFIX);
  const oldIpfs = t.compiled.runtime.code.slice(at + METADATA_HASH_PREFIX.length, at + METADATA_HASH_PREFIX.length + 64);
  const newIpfs = sha256Hex(metadata);
  const swap = (code: string) => code.split(oldIpfs).join(newIpfs);
  return {
    input: { ...t.input, sources: { ...t.input.sources, [t.path]: { content } } },
    contract: {
      ...t.compiled,
      metadata,
      creation: { ...t.compiled.creation, code: swap(t.compiled.creation.code) },
      runtime: { ...t.compiled.runtime, code: swap(t.compiled.runtime.code) },
    },
  };
}

/**
 * Fills the store with `n` verified contracts; returns the verifiedAt of row 0 (row i has base + i)
 * and the runtime code row i's record describes.
 */
async function fill(
  store: Store,
  n: number,
  generation: string,
  compiled: ReturnType<typeof compileTemplates>,
): Promise<{ base: number; codeOf: (i: number) => string }> {
  const templates = await storeTemplates(store, compiled);
  const codeOf = (i: number): string => {
    const t = templates[i % DISTINCT_TEMPLATES]!;
    return `0x${i % 20 === 19 ? distinctVariant(t, i).contract.runtime.code : t.compiled.runtime.code}`;
  };
  const base = Date.now() - n;
  let distinct = 0;
  const t0 = performance.now();
  for (let start = 0; start < n; start += BATCH) {
    const end = Math.min(n, start + BATCH);
    // Compilations and deployments in one transaction, the verified contracts in a second.
    const records = await writeTransaction(store.db, async (trx) => {
      const targets: Template[] = [];
      for (let i = start; i < end; i++) {
        const t = templates[i % DISTINCT_TEMPLATES]!;
        if (i % 20 === 19) {
          const v = distinctVariant(t, i);
          targets.push(await storeOne({ db: trx }, compiled.version, v.input, t.path, t.name, v.contract));
          distinct++;
        } else {
          targets.push(t);
        }
      }
      const deployments: NewDeployment[] = targets.map((t, j) => ({
        address: addressOf(start + j),
        generation,
        transactionHash: `0x${sha256Hex(`tx-${start + j}`)}`,
        blockNumber: 1 + Math.floor((start + j) / 10),
        creator: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        factory: null,
        creationCodeHash: codeKey(t.compiled.creation.code),
        runtimeCodeHash: t.runtimeCodeHash,
        runtimeFingerprint: t.fingerprint,
        blockTimestamp: Math.floor((base + start + j) / 1000),
      }));
      const ids = await recordDeployments(trx, deployments);
      return targets.map((t, j) => {
        const i = start + j;
        const copy = i >= DISTINCT_TEMPLATES && i % 20 !== 19;
        return sampleRecord(
          {
            address: addressOf(i),
            compiledContractId: t.contractId,
            inputDocumentId: t.inputDocumentId,
            contractName: t.name,
            sourcePath: t.path,
            compilerVersion: `v${compiled.version}`,
            codeFormat: 'solidity-standard-json-input',
            licenseType: 3,
            constructorArguments: { hex: (i + 1).toString(16).padStart(64, '0'), creationCodeBytes: t.compiled.creation.code.length / 2 },
          },
          {
            deploymentId: ids[j]!,
            method: copy ? 'similar' : 'submitted',
            similarTo: copy ? addressOf(i % DISTINCT_TEMPLATES) : null,
            receipt: copy ? null : sha256Hex(`receipt-${i}`).slice(0, 50),
            verifiedAt: base + i,
          },
        );
      });
    });
    await insertVerifiedContracts(store.db, records);
    if (end % 100_000 === 0 || end === n) {
      const s = (performance.now() - t0) / 1000;
      console.log(`  ${end.toLocaleString('en')} verified contracts stored (${distinct.toLocaleString('en')} distinct) in ${s.toFixed(0)} s`);
    }
  }
  return { base, codeOf };
}

/**
 * Puts each row's code at its address on the devnet: a record is served only while its address
 * holds the code it describes, and the filled rows were never deployed. A few hundred
 * anvil_setCode calls per JSON-RPC batch.
 */
async function placeCodes(rpcUrl: string, rows: Iterable<number>, codeOf: (i: number) => string): Promise<void> {
  const all = [...new Set(rows)];
  for (let start = 0; start < all.length; start += 200) {
    const batch = all.slice(start, start + 200).map((i, j) => ({ jsonrpc: '2.0', id: j, method: 'anvil_setCode', params: [addressOf(i), codeOf(i)] }));
    const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
    const answers = (await res.json()) as { error?: unknown }[];
    const failed = answers.find((a) => a.error);
    if (failed) throw new Error(`anvil_setCode failed: ${JSON.stringify(failed.error)}`);
  }
}

/** `count` requests (or until `until` settles) with CONCURRENCY clients; latencies in ms. */
async function load(next: () => string, options: { count?: number; until?: Promise<unknown>; check?: (body: string) => boolean }): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  let done = false;
  void options.until?.finally(() => (done = true));
  const t0 = performance.now();
  const worker = async () => {
    for (;;) {
      if (options.count !== undefined ? sent >= options.count : done) return;
      sent++;
      const s = performance.now();
      try {
        const res = await fetch(next());
        const body = await res.text();
        if (res.status !== 200 || (options.check && !options.check(body))) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return { rps: latencies.length / seconds, p50: median(latencies), p99: quantile(latencies, 0.99), errors };
}

async function timeGet(url: string, repeats: number): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const s = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    times.push(performance.now() - s);
  }
  return median(times);
}

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Downloads the CSV, sampling the service's resident memory meanwhile. */
async function csvDownload(webUrl: string, pid: number): Promise<{ seconds: number; bytes: number; peakRssMiB: number }> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 25);
  const t0 = performance.now();
  try {
    const res = await fetch(`${webUrl}/verified-contracts.csv`);
    if (res.status !== 200) throw new Error(`CSV: HTTP ${res.status} ${await res.text()}`);
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
    return { seconds: (performance.now() - t0) / 1000, bytes, peakRssMiB: peak };
  } finally {
    clearInterval(timer);
  }
}

async function postgresAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function postgresReachable(): Promise<boolean> {
  try {
    await postgresAdmin((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

function benchDatabaseUrl(): string {
  const url = new URL(PG_URL);
  url.pathname = `/${PG_BENCH_DB}`;
  return url.toString();
}

function sqliteBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('solproof.sqlite'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const f0 = (x: number) => x.toFixed(0);
const f1 = (x: number) => x.toFixed(1);
const lat = (l: Load) => `${f1(l.p50)} / ${f1(l.p99)} ms, ${f0(l.rps)} req/s${l.errors ? ` (${l.errors} errors)` : ''}`;

async function measure(dialect: StoreDialect, n: number, rpcUrl: string, generation: string, compiled: ReturnType<typeof compileTemplates>): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), `solproof-scale-${dialect}-`));
  const databaseUrl = dialect === 'postgres' ? benchDatabaseUrl() : undefined;
  if (dialect === 'postgres') {
    await postgresAdmin(async (c) => {
      await c.query(`drop database if exists ${PG_BENCH_DB}`);
      await c.query(`create database ${PG_BENCH_DB}`);
    });
  }
  try {
    console.log(`${dialect}, ${n.toLocaleString('en')} contracts: filling`);
    const store = await openStore({ dataDir, databaseUrl });
    const t0 = performance.now();
    const { base, codeOf } = await fill(store, n, generation, compiled);
    const fillSeconds = (performance.now() - t0) / 1000;
    const { key } = await createApiKey(store.db, { owner: 'scale-bench', tier: 'pro' });
    let bytes: number;
    if (dialect === 'postgres') {
      await store.close();
      bytes = await postgresAdmin(async (c) => Number((await c.query(`select pg_database_size('${PG_BENCH_DB}') as b`)).rows[0].b));
    } else {
      await store.close(); // checkpoints the WAL into the file
      bytes = sqliteBytes(dataDir);
    }
    const stats = await (async () => {
      const s = await openStore({ dataDir, databaseUrl, migrate: false });
      try {
        return await storeStats(s.db, s.dialect, dataDir);
      } finally {
        await s.close();
      }
    })();
    console.log(`  filled in ${fillSeconds.toFixed(0)} s: ${stats.compilations} compilations, ${stats.sources} sources, ${(bytes / 1048576).toFixed(1)} MiB`);

    const service = await startServiceProcess(CLI, rpcUrl, dataDir, [
      '--follow-chain',
      'false',
      '--rate-pro',
      '1000000',
      ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ]);
    try {
      const apiUrl = service.apiUrl;
      const webUrl = apiUrl.replace(/\/api$/, '');
      // Reads go to READ_POOL rows spread over the store, and the list pages show the newest rows and
      // those past the deep cursor: each holds its code on the devnet, so every read compares it.
      const deepRow = Math.floor(n * 0.1); // 90% of the way down the newest-first list
      const pool = Array.from({ length: Math.min(READ_POOL, n) }, (_, k) => Math.floor((k * n) / Math.min(READ_POOL, n)));
      const listed = [...Array.from({ length: 30 }, (_, k) => n - 1 - k), ...Array.from({ length: 30 }, (_, k) => deepRow - 1 - k)].filter((i) => i >= 0);
      await placeCodes(rpcUrl, [...pool, ...listed], codeOf);
      let seed = 1;
      const randomAddress = () => addressOf(pool[(seed = (seed * 1103515245 + 12345) % 2147483648) % pool.length]!);
      const abiUrl = () => `${apiUrl}?module=contract&action=getabi&address=${randomAddress()}&apikey=${key}`;
      const okEnvelope = (body: string) => body.startsWith('{"status":"1"');
      // Warm-up: the first requests open connections and fill caches.
      await load(abiUrl, { count: 200, check: okEnvelope });
      // Each figure is printed as soon as it is measured, so a long run that fails late keeps them.
      const say = (line: string) => console.log(`  ${dialect} ${n.toLocaleString('en')}: ${line}`);
      say(`service started in ${f0(service.startMs)} ms`);
      const getabi = await load(abiUrl, { count: REQUESTS, check: okEnvelope });
      say(`getabi ${lat(getabi)}`);
      const getsourcecode = await load(() => `${apiUrl}?module=contract&action=getsourcecode&address=${randomAddress()}&apikey=${key}`, {
        count: REQUESTS,
        check: okEnvelope,
      });
      say(`getsourcecode ${lat(getsourcecode)}`);
      const listFirstMs = await timeGet(`${webUrl}/contracts`, PAGE_REPEATS);
      const cursor = formatListCursor({ verifiedAt: base + deepRow, address: addressOf(deepRow) });
      const listAfterCursorMs = await timeGet(`${webUrl}/contracts?after=${cursor}`, PAGE_REPEATS);
      const startPageMs = await timeGet(`${webUrl}/`, PAGE_REPEATS);
      say(`list page 1 ${f1(listFirstMs)} ms, deep page ${f1(listAfterCursorMs)} ms, start page ${f1(startPageMs)} ms`);
      const csv = await csvDownload(webUrl, service.pid);
      say(`CSV ${f1(csv.seconds)} s, ${f1(csv.bytes / 1048576)} MiB, peak RSS ${f0(csv.peakRssMiB)} MiB`);

      // getabi alone for a few seconds, then while a CSV download and deep list pages are served.
      const idle = await load(abiUrl, { until: new Promise((r) => setTimeout(r, 5000)), check: okEnvelope });
      say(`getabi idle ${f0(idle.rps)} req/s`);
      await new Promise((r) => setTimeout(r, 10_500)); // the CSV export's per-client interval
      const csvRun = csvDownload(webUrl, service.pid);
      const minBusy = new Promise((r) => setTimeout(r, 5000));
      let listing = true;
      const deepLister = (async () => {
        let pages = 0;
        while (listing) {
          await timeGet(`${webUrl}/contracts?after=${cursor}`, 1);
          pages += 1;
        }
        return pages;
      })();
      const busy = await load(abiUrl, { until: Promise.all([csvRun, minBusy]), check: okEnvelope });
      listing = false;
      const deepPages = await deepLister;
      const busyCsv = await csvRun;
      say(
        `getabi during CSV + deep pages ${f0(busy.rps)} req/s (${f0((100 * busy.rps) / idle.rps)}% of idle; CSV ${f1(busyCsv.seconds)} s, ${deepPages} deep pages)`,
      );
      return {
        contracts: n,
        fillSeconds,
        bytes,
        startMs: service.startMs,
        getabi,
        getsourcecode,
        listFirstMs,
        listAfterCursorMs,
        startPageMs,
        csvSeconds: csv.seconds,
        csvBytes: csv.bytes,
        csvPeakRssMiB: csv.peakRssMiB,
        idleRps: idle.rps,
        busyRps: busy.rps,
        busyNote: `CSV ${busyCsv.seconds.toFixed(1)} s, ${deepPages} deep list pages, getabi errors ${busy.errors}`,
      };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    // SOLPROOF_BENCH_KEEP_DB=1 keeps the last PostgreSQL store for a look at its query plans.
    if (dialect === 'postgres' && process.env['SOLPROOF_BENCH_KEEP_DB'] !== '1')
      await postgresAdmin((c) => c.query(`drop database if exists ${PG_BENCH_DB}`)).catch(() => {});
  }
}

function table(dialect: StoreDialect, runs: Figures[]): string {
  const rows: [string, (f: Figures) => string][] = [
    ['fill time', (f) => `${f0(f.fillSeconds)} s`],
    ['store size on disk', (f) => `${f1(f.bytes / 1048576)} MiB`],
    ['bytes per contract', (f) => f0(f.bytes / f.contracts)],
    ['service start', (f) => `${f0(f.startMs)} ms`],
    ['getabi p50 / p99, throughput', (f) => lat(f.getabi)],
    ['getsourcecode p50 / p99, throughput', (f) => lat(f.getsourcecode)],
    ['list page 1 (p50)', (f) => `${f1(f.listFirstMs)} ms`],
    ['list deep page ?after=cursor (90% down, p50)', (f) => `${f1(f.listAfterCursorMs)} ms`],
    ['start page (p50)', (f) => `${f1(f.startPageMs)} ms`],
    ['full CSV', (f) => `${f1(f.csvSeconds)} s, ${f1(f.csvBytes / 1048576)} MiB`],
    ['service peak RSS during CSV', (f) => `${f0(f.csvPeakRssMiB)} MiB`],
    ['getabi idle', (f) => `${f0(f.idleRps)} req/s`],
    ['getabi during CSV + deep pages', (f) => `${f0(f.busyRps)} req/s (${f.busyNote})`],
    ['ratio busy / idle (target ≥ 80%)', (f) => `${f0((100 * f.busyRps) / f.idleRps)}%`],
  ];
  const header = `| ${dialect} | ${runs.map((r) => `${r.contracts.toLocaleString('en')} contracts`).join(' | ')} |`;
  const sep = `|---|${runs.map(() => '---').join('|')}|`;
  return [header, sep, ...rows.map(([name, fn]) => `| ${name} | ${runs.map(fn).join(' | ')} |`)].join('\n');
}

async function main(): Promise<void> {
  clearProxyEnv();
  const n = Number(argValue('contracts') ?? 1_000_000);
  if (!Number.isInteger(n) || n < DISTINCT_TEMPLATES) throw new Error(`--contracts must be a whole number of at least ${DISTINCT_TEMPLATES}`);
  const dialectArg = argValue('dialect');
  if (dialectArg !== undefined && dialectArg !== 'sqlite' && dialectArg !== 'postgres') throw new Error('--dialect must be sqlite or postgres');
  const dialects: StoreDialect[] = dialectArg ? [dialectArg] : ['sqlite', 'postgres'];
  const sizes = n === BASELINE ? [n] : [Math.min(BASELINE, n), n];
  console.log(
    `scale bench: ${sizes.join(' and ')} verified contracts on ${dialects.join(', ')}; ${cpus().length} CPUs, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `mix: 95% copies of ${DISTINCT_TEMPLATES} contracts compiled once with solc; 5% distinct (own source, metadata and code derived from one of the ${DISTINCT_TEMPLATES}, not compiled); ${CONCURRENCY} concurrent HTTP clients`,
  );
  const compiled = compileTemplates();
  const devnet = await startDevnet();
  const tables: string[] = [];
  try {
    const genesis = await fetch(devnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x0', false] }),
    });
    const generation = ((await genesis.json()) as { result: { hash: string } }).result.hash;
    for (const dialect of dialects) {
      if (dialect === 'postgres' && !(await postgresReachable())) {
        console.log(`PostgreSQL at ${PG_URL} is not reachable: skipped`);
        continue;
      }
      const runs: Figures[] = [];
      for (const size of sizes) runs.push(await measure(dialect, size, devnet.rpcUrl, generation, compiled));
      tables.push(table(dialect, runs));
      console.log(`\n${tables[tables.length - 1]}\n`);
    }
  } finally {
    await devnet.stop();
  }
  console.log(`\n${tables.join('\n\n')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
