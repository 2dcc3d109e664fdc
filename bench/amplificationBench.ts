/**
 * `npm run bench:amplification`: the attack review's "compiler output amplification" input
 * (about 227 KB: 1,700 contracts in one file, sources copied into the metadata) submitted to
 * a running service, which is watched meanwhile: its peak resident memory (VmHWM, all of
 * its threads), and how long getabi takes to answer while the input compiles (a stalled
 * event loop shows as a slow read). Prints numbers, asserts nothing, talks only to 127.0.0.1.
 *
 *   node dist-bench/bench/amplificationBench.js [--cli path/to/dist/cli/main.js] [--contracts 1700]
 *
 * `--cli` runs another build of the service (an older checkout) against the same input.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startDevnet } from '../src/chain/devnet.js';
import type { Hex } from '../src/core/types.js';
import type { SolcOutput } from '../src/verify/index.js';
import { AMPLIFICATION_PATH, AMPLIFICATION_TARGET, amplificationInput } from './amplificationInput.js';
import { clearProxyEnv, createKey, startServiceProcess } from './serviceProcess.js';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Resident and peak resident memory of a process, in MB, from /proc. */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function main(): Promise<void> {
  clearProxyEnv();
  const { values } = parseArgs({ options: { cli: { type: 'string' }, contracts: { type: 'string' } } });
  const cli = values.cli ?? join(root, 'dist', 'cli', 'main.js');
  const contracts = Number(values.contracts ?? 1700);
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const longVersion = /^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(solc.version())![1]!;
  const input = amplificationInput(contracts);
  const inputText = JSON.stringify(input);

  // The deployer builds only the contract it deploys.
  const own = { ...input, settings: { ...input.settings, outputSelection: { [AMPLIFICATION_PATH]: { [AMPLIFICATION_TARGET]: ['evm.bytecode.object'] } } } };
  const output = JSON.parse(solc.compile(JSON.stringify(own))) as SolcOutput;
  const bytecode = `0x${output.contracts![AMPLIFICATION_PATH]![AMPLIFICATION_TARGET]!.evm!.bytecode!.object}` as Hex;

  const tmp = mkdtempSync(join(tmpdir(), 'solproof-amplification-'));
  const devnet = await startDevnet();
  try {
    const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
    const account = privateKeyToAccount(devnet.accounts[0]!.privateKey);
    const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
    const walletClient = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });
    const hash = await walletClient.sendTransaction({ data: bytecode });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const address = receipt.contractAddress!;

    const dataDir = join(tmp, 'data');
    mkdirSync(join(dataDir, 'compilers'), { recursive: true });
    copyFileSync(require.resolve('solc/soljson.js'), join(dataDir, 'compilers', `soljson-v${longVersion}.js`));
    const key = await createKey(cli, dataDir);
    const service = await startServiceProcess(cli, devnet.rpcUrl, dataDir, ['--compile-timeout-ms', '300000']);
    try {
      const before = memoryOf(service.pid);
      const reads: number[] = [];
      let peak = before.peakMb;
      let done = false;
      const watch = (async () => {
        while (!done) {
          const t0 = performance.now();
          await fetch(`${service.apiUrl}?module=contract&action=getabi&address=${address}&apikey=${key}`).then((r) => r.text());
          reads.push(performance.now() - t0);
          peak = Math.max(peak, memoryOf(service.pid).peakMb);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const t0 = performance.now();
      const submit = (await (
        await fetch(service.apiUrl, {
          method: 'POST',
          body: new URLSearchParams({
            apikey: key,
            module: 'contract',
            action: 'verifysourcecode',
            contractaddress: address,
            codeformat: 'solidity-standard-json-input',
            sourceCode: inputText,
            contractname: `${AMPLIFICATION_PATH}:${AMPLIFICATION_TARGET}`,
            compilerversion: `v${longVersion}`,
          }),
        })
      ).json()) as { status: string; result: string };
      let verdict = submit.result;
      if (submit.status === '1') {
        for (;;) {
          const status = (await (
            await fetch(`${service.apiUrl}?module=contract&action=checkverifystatus&guid=${submit.result}&apikey=${key}&verbose=1`)
          ).json()) as { result: string };
          if (status.result !== 'Pending in queue') {
            verdict = status.result;
            break;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const seconds = (performance.now() - t0) / 1000;
      done = true;
      await watch;
      const after = memoryOf(service.pid);
      reads.sort((a, b) => a - b);
      console.log(`service: ${cli}`);
      console.log(`input: ${(inputText.length / 1024).toFixed(0)} KB, one file, ${contracts} contracts, useLiteralContent`);
      console.log(`verdict: ${verdict} after ${seconds.toFixed(1)} s`);
      console.log(`service memory: ${before.rssMb.toFixed(0)} MB resident before; peak ${Math.max(peak, after.peakMb).toFixed(0)} MB (VmHWM)`);
      console.log(
        `getabi during the verification: ${reads.length} reads, median ${reads[Math.floor(reads.length / 2)]?.toFixed(0)} ms, max ${reads[reads.length - 1]?.toFixed(0)} ms`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    await devnet.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
