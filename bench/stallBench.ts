/**
 * `npm run bench:stalls` (also part of `npm run bench`): what one keyless client costs everyone
 * else. A service on a devnet of its own verifies, through the keyless Sourcify API, a contract
 * whose source has 255,000 blank lines (it compiles). A probe in a process of its own then sends
 * an unrelated cheap request (a keyed getabi) back to back, and prints its p50 and max latency:
 * - quiet: nothing else runs;
 * - page views: one keyless client reads that contract's page, again and again;
 * - body flood: one keyless client sends Sourcify bodies back to back, two at a time: 14 MB of
 *   300,000 source entries, 3.4 MB of 120,000 entries, and valid submissions carrying a 15 MB and
 *   a 4 MB comment.
 * Meanwhile kept-alive clients send a request every 2.5 to 4.5 s; their connection errors are
 * counted. Prints numbers, asserts nothing, talks only to 127.0.0.1.
 *
 *   node dist-bench/bench/stallBench.js [--cli path/to/dist/cli/main.js] [--compare path/to/other/dist/cli/main.js]
 *                                       [--lines 255000] [--seconds 8]
 *
 * `--compare` runs the same phases against another build first (an older checkout's) and prints
 * the ratios: the machine is shared and noisy, so the two runs are compared, not the numbers.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startDevnet } from '../src/chain/devnet.js';
import { clearProxyEnv, createKey, startServiceProcess } from './serviceProcess.js';
import type { ProbeRequest, ProbeResult } from './stallProbe.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

interface Solc {
  compile(input: string): string;
  version(): string;
}

interface Phase {
  name: string;
  probe: ProbeResult;
  note: string;
}

interface Compiled {
  input: { language: string; sources: Record<string, { content: string }>; settings: Record<string, unknown> };
  bytecode: Hex;
}

function compile(solc: Solc, file: string, name: string, content: string): Compiled {
  const input = {
    language: 'Solidity',
    sources: { [file]: { content } },
    settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'metadata'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts?: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
    errors?: { severity: string; formattedMessage: string }[];
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return { input, bytecode: `0x${output.contracts![file]![name]!.evm.bytecode.object}` as Hex };
}

/** A POST of `body` on a connection of its own; the status, or the connection error. */
function post(url: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const r = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    r.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    r.end(body);
  });
}

function startProbe(): { ask(req: ProbeRequest): Promise<ProbeResult>; stop(): void } {
  const child: ChildProcess = fork(join(here, 'stallProbe.js'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    ask: (req) =>
      new Promise((resolve, reject) => {
        child.once('message', (message: { result?: ProbeResult; error?: string }) =>
          message.result ? resolve(message.result) : reject(new Error(message.error)),
        );
        child.send(req);
      }),
    stop: () => child.disconnect(),
  };
}

function count(items: string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([k, v]) => `${k} ×${v}`).join(', ');
}

async function runPhases(cli: string, solc: Solc, longVersion: string, lines: number, seconds: number): Promise<Phase[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'solproof-stalls-'));
  const devnet = await startDevnet();
  try {
    const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
    const account = privateKeyToAccount(devnet.accounts[0]!.privateKey);
    const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
    const walletClient = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });
    const deploy = async (bytecode: Hex): Promise<string> => {
      const hash = await walletClient.sendTransaction({ data: bytecode });
      return (await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })).contractAddress!;
    };
    const blankSource = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Blank { uint256 public n = 1; }\n${'\n'.repeat(lines)}`;
    const blank = compile(solc, 'Blank.sol', 'Blank', blankSource);
    const tinySource = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Tiny { uint256 public n = 2; }\n`;
    const tiny = compile(solc, 'Tiny.sol', 'Tiny', tinySource);
    const [blankAddress, tinyAddress] = [await deploy(blank.bytecode), await deploy(tiny.bytecode)];

    const dataDir = join(tmp, 'data');
    mkdirSync(join(dataDir, 'compilers'), { recursive: true });
    copyFileSync(require.resolve('solc/soljson.js'), join(dataDir, 'compilers', `soljson-v${longVersion}.js`));
    const key = await createKey(cli, dataDir, ['--tier', 'pro']);
    const service = await startServiceProcess(cli, devnet.rpcUrl, dataDir, ['--rate-pro', '1000000'], { logLevel: 'warn' });
    const base = service.apiUrl.replace(/\/api$/, '');
    const probe = startProbe();
    try {
      // The large contract, verified without a key.
      const submit = await fetch(`${base}/sourcify/v2/verify/${devnet.chainId}/${blankAddress}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stdJsonInput: blank.input, compilerVersion: longVersion, contractIdentifier: 'Blank.sol:Blank' }),
      });
      const { verificationId } = (await submit.json()) as { verificationId: string };
      for (;;) {
        const job = (await (await fetch(`${base}/sourcify/v2/verify/${verificationId}`)).json()) as { isJobCompleted: boolean; contract?: { match: string } };
        if (job.isJobCompleted) {
          if (!job.contract?.match) throw new Error(`the ${lines}-line contract did not verify: ${JSON.stringify(job)}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      const probeUrl = `${service.apiUrl}?module=contract&action=getabi&address=${blankAddress}&apikey=${key}`;
      const window: ProbeRequest = { url: probeUrl, durationMs: seconds * 1000, idleClients: 48 };
      const phases: Phase[] = [];

      phases.push({ name: 'quiet', probe: await probe.ask(window), note: '' });

      // One keyless client reads the page, one view after another.
      let reading = true;
      const views: number[] = [];
      let throttled = 0;
      const reader = (async () => {
        while (reading) {
          const res = await fetch(`${base}/address/${blankAddress}`);
          const page = await res.text();
          if (res.status === 200) views.push(page.length);
          else throttled++;
        }
      })();
      const pageProbe = await probe.ask(window);
      reading = false;
      await reader;
      phases.push({
        name: 'page views',
        probe: pageProbe,
        note: `${views.length} views of the ${lines.toLocaleString('en')}-line contract's page, ${(views[0]! / 1e6).toFixed(1)} MB each (${throttled} more refused by --web-rate)`,
      });

      // One keyless client floods the Sourcify API with large bodies, two at a time.
      const entries = (n: number, pad: string) =>
        `{"stdJsonInput":{"language":"Solidity","sources":{${Array.from({ length: n }, (_, i) => `"s${i}${pad}.sol":{"content":""}`).join(',')}}}}`;
      const withComment = (bytes: number) =>
        Buffer.from(
          JSON.stringify({
            stdJsonInput: { ...tiny.input, sources: { 'Tiny.sol': { content: `${tinySource}//${'x'.repeat(bytes)}\n` } } },
            compilerVersion: longVersion,
            contractIdentifier: 'Tiny.sol:Tiny',
          }),
        );
      // 14 MB and 3.4 MB of entries (too large, too many values), a 15 MB comment (too large), and a 4 MB one (the largest read, by default).
      const bodies = [Buffer.from(entries(300_000, 'x'.repeat(22))), Buffer.from(entries(120_000, '')), withComment(15_000_000), withComment(4_000_000)];
      const toTiny = new Set([2, 3]);
      let flooding = true;
      const answers: string[] = [];
      const flooder = async (first: number) => {
        for (let i = first; flooding; i++) {
          const body = bodies[i % bodies.length]!;
          answers.push(await post(`${base}/sourcify/v2/verify/${devnet.chainId}/${toTiny.has(i % bodies.length) ? tinyAddress : blankAddress}`, body));
        }
      };
      const flood = Promise.all([flooder(0), flooder(1)]);
      const floodProbe = await probe.ask(window);
      flooding = false;
      await flood;
      phases.push({
        name: 'body flood',
        probe: floodProbe,
        note: `${answers.length} bodies (${bodies.map((b) => `${(b.length / 1e6).toFixed(1)} MB`).join(', ')} in turn): ${count(answers)}`,
      });
      return phases;
    } finally {
      probe.stop();
      await service.stop();
    }
  } finally {
    await devnet.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const ms = (v: number | null) => (v === null ? '-' : `${v.toFixed(0)} ms`);

function print(cli: string, phases: Phase[]): void {
  console.log(`service: ${cli}`);
  for (const { name, probe, note } of phases) {
    const errors = Object.entries(probe.connectionErrors)
      .map(([code, n]) => `${code} ×${n}`)
      .join(', ');
    console.log(
      `  ${name.padEnd(11)} probe: ${probe.answers} answers, p50 ${ms(probe.p50Ms)}, p99 ${ms(probe.p99Ms)}, max ${ms(probe.maxMs)}${probe.notOk ? `, ${probe.notOk} not 200` : ''}; ` +
        `idle kept-alive clients: ${probe.idleRequests} requests, ${errors || 'no'} connection errors`,
    );
    if (note) console.log(`  ${''.padEnd(11)} ${note}`);
  }
}

async function main(): Promise<void> {
  clearProxyEnv();
  const { values } = parseArgs({ options: { cli: { type: 'string' }, compare: { type: 'string' }, lines: { type: 'string' }, seconds: { type: 'string' } } });
  const cli = values.cli ?? join(root, 'dist', 'cli', 'main.js');
  const lines = Number(values.lines ?? 255_000);
  const seconds = Number(values.seconds ?? 8);
  const solc = require('solc') as Solc;
  const longVersion = /^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(solc.version())![1]!;
  console.log(
    `stalls: a probe's latency while one keyless client reads a ${lines.toLocaleString('en')}-line contract's page, or floods the Sourcify API (${seconds} s each)`,
  );
  const before = values.compare ? await runPhases(values.compare, solc, longVersion, lines, seconds) : null;
  if (before && values.compare) print(values.compare, before);
  const after = await runPhases(cli, solc, longVersion, lines, seconds);
  print(cli, after);
  if (before) {
    console.log('ratios, compared build / this build (probe latency):');
    for (const [i, phase] of after.entries()) {
      const old = before[i]!.probe;
      const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? `${(a / b).toFixed(1)}x` : '-');
      console.log(`  ${phase.name.padEnd(11)} p50 ${ratio(old.p50Ms, phase.probe.p50Ms)}, max ${ratio(old.maxMs, phase.probe.maxMs)}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
