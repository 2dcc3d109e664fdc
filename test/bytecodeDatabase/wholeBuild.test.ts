/**
 * A whole build verified in one call: a real Hardhat project (five contracts: a library, a
 * contract linked to it, a plain contract, a factory and the child it creates) compiled by
 * Hardhat itself, deployed on a devnet, and its build-info file submitted once through
 * `verifybuild`. Every deployed contract and the factory's child become verified, for one
 * unit of the key's daily quota. Each dialect runs a devnet and a service of its own.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Abi, createPublicClient, createWalletClient, type Hex, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Devnet, devnetAccounts, freePort, startDevnet } from '../../src/chain/devnet.js';
import type { Address } from '../../src/core/types.js';
import type { SolcInput } from '../../src/verify/index.js';
import { apiGet, apiPost, waitForVerdict } from '../helpers/api.js';
import { describeOnDialects } from '../helpers/dialects.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { compileForTest } from '../helpers/solc.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROJECT = join(root, 'test', 'bytecodeDatabase', 'build-project');
const HARDHAT_CLI = join(root, 'node_modules', 'hardhat', 'internal', 'cli', 'cli.js');

interface Artifact {
  abi: Abi;
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

interface HardhatBuild {
  buildInfo: string;
  artifact: (file: string, name: string) => Artifact;
}

let outDir: string | undefined;
let compiled: Promise<HardhatBuild> | undefined;

/** Runs the real Hardhat CLI once for both dialects: `hardhat compile` in the fixture project. */
function hardhatBuild(): Promise<HardhatBuild> {
  compiled ??= (async () => {
    outDir = mkdtempSync(join(tmpdir(), 'solproof-build-'));
    for (const d of ['tmp', 'xdg-config', 'xdg-data', 'xdg-cache']) mkdirSync(join(outDir, d));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) delete env[k];
    Object.assign(env, {
      CI: 'true',
      HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
      TMPDIR: join(outDir, 'tmp'),
      XDG_CONFIG_HOME: join(outDir, 'xdg-config'),
      XDG_DATA_HOME: join(outDir, 'xdg-data'),
      XDG_CACHE_HOME: join(outDir, 'xdg-cache'),
      BUILD_TEST_OUT_DIR: outDir,
    });
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [HARDHAT_CLI, 'compile'], { cwd: PROJECT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
    if (run.code !== 0) throw new Error(`hardhat compile failed:\n${run.output}`);
    const artifacts = join(outDir, 'artifacts');
    const infos = readdirSync(join(artifacts, 'build-info')).filter((f) => f.endsWith('.json'));
    if (infos.length !== 1) throw new Error(`expected one build-info file, found ${infos.length}`);
    return {
      buildInfo: readFileSync(join(artifacts, 'build-info', infos[0]!), 'utf8'),
      artifact: (file, name) => JSON.parse(readFileSync(join(artifacts, 'contracts', file, `${name}.json`), 'utf8')) as Artifact,
    };
  })();
  return compiled;
}

/** Links an artifact's library placeholders to deployed addresses, as Hardhat's deploy would. */
function link(artifact: Artifact, libraries: Record<string, Address>): Hex {
  let code = artifact.bytecode.slice(2);
  for (const byName of Object.values(artifact.linkReferences)) {
    for (const [name, places] of Object.entries(byName)) {
      const address = libraries[name];
      if (!address) throw new Error(`no address for library ${name}`);
      for (const { start, length } of places) {
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
    }
  }
  return `0x${code}`;
}

describeOnDialects('a whole build in one call', (dialect) => {
  let port: number;
  let devnet: Devnet;
  let tdb: TestDatabase;
  let service: RunningService;
  let key: string;
  let build: HardhatBuild;

  const clients = () => {
    const rpcUrl = `http://127.0.0.1:${port}`;
    const chain = { ...foundry, rpcUrls: { default: { http: [rpcUrl] } } };
    const account = privateKeyToAccount(devnetAccounts(4)[3]!.privateKey);
    return {
      publicClient: createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient,
      walletClient: createWalletClient({ chain, account, transport: http(rpcUrl) }),
    };
  };
  const deploy = async (artifact: Artifact, args: readonly unknown[] = [], libraries: Record<string, Address> = {}): Promise<Address> => {
    const { publicClient, walletClient } = clients();
    const hash = await walletClient.deployContract({
      abi: artifact.abi,
      bytecode: link(artifact, libraries),
      args: args as unknown[],
      account: walletClient.account,
      chain: walletClient.chain,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return receipt.contractAddress!.toLowerCase() as Address;
  };
  const call = async (at: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<Address> => {
    const { publicClient, walletClient } = clients();
    const { result } = await publicClient.simulateContract({ address: at, abi, functionName, args, account: walletClient.account });
    const hash = await walletClient.writeContract({ address: at, abi, functionName, args, account: walletClient.account, chain: walletClient.chain });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return (result as string).toLowerCase() as Address;
  };
  /** The verified list's first page: reading it verifies nothing. */
  const listed = async (): Promise<string> => (await fetch(`${service.baseUrl}/contracts`)).text();
  const waitListed = async (addresses: Address[], timeoutMs = 20_000): Promise<void> => {
    const start = Date.now();
    for (;;) {
      const page = await listed();
      if (addresses.every((a) => page.includes(a))) return;
      if (Date.now() - start > timeoutMs) throw new Error(`not verified within ${timeoutMs} ms: ${addresses.filter((a) => !page.includes(a)).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    build = await hardhatBuild();
    port = await freePort();
    devnet = await startDevnet({ port });
    tdb = await createTestDatabase(dialect);
    const dbArgs = tdb.databaseUrl ? ['--database-url', tdb.databaseUrl] : [];
    key = await createKey(tdb.dataDir, dbArgs);
    // One verification a day: the build must use exactly that one unit.
    service = await startService({
      rpcUrl: `http://127.0.0.1:${port}`,
      dataDir: tdb.dataDir,
      args: ['--follow-poll-ms', '200', '--rate-free', '10000', '--daily-verify-quota', '1', ...dbArgs],
    });
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await devnet?.stop();
    await tdb?.dispose();
  });

  it('one verifybuild call verifies the library, the linked contract, the plain one, the factory and its child, for one quota unit; later copies follow', {
    timeout: 300_000,
  }, async () => {
    const shareMath = await deploy(build.artifact('ShareMath.sol', 'ShareMath'));
    const splitter = await deploy(build.artifact('Splitter.sol', 'Splitter'), [4n], { ShareMath: shareMath });
    const ledger = await deploy(build.artifact('Ledger.sol', 'Ledger'), ['Household', 1000n]);
    const factoryArtifact = build.artifact('Escrow.sol', 'EscrowFactory');
    const factory = await deploy(factoryArtifact);
    const beneficiary = devnetAccounts(1)[0]!.address as Address;
    const escrow = await call(factory, factoryArtifact.abi, 'open', [beneficiary, 1_900_000_000n]);
    const deployed = [shareMath, splitter, ledger, factory, escrow];

    // Nothing is verified before the build arrives (the follower has seen every deployment).
    const before = await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address: ledger });
    expect(before.result).toBe('Contract source code not verified');

    const submit = await apiPost(service.apiUrl, { module: 'contract', action: 'verifybuild', apikey: key, sourceCode: build.buildInfo });
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    const receipt = submit.result as string;
    // checkverifystatus answers a build's receipt as Etherscan's clients expect.
    const status = await waitForVerdict(service.apiUrl, receipt, key);
    expect(status.result, JSON.stringify(status)).toBe('Pass - Verified');

    // checkbuildstatus lists every contract of the build and every address it verified.
    const report = await apiGet(service.apiUrl, { module: 'contract', action: 'checkbuildstatus', guid: receipt, apikey: key });
    expect(report.status, JSON.stringify(report)).toBe('1');
    const result = report.result as { status: string; contracts: { name: string }[]; verified: { address: string; contractName: string }[] };
    expect(result.contracts.map((c) => c.name).sort()).toEqual(['Escrow', 'EscrowFactory', 'Ledger', 'ShareMath', 'Splitter']);
    expect(result.verified.map((v) => v.address).sort(), service.output().slice(-20_000)).toEqual([...deployed].sort());

    const names: Record<string, string> = {
      [shareMath]: 'ShareMath',
      [splitter]: 'Splitter',
      [ledger]: 'Ledger',
      [factory]: 'EscrowFactory',
      [escrow]: 'Escrow',
    };
    for (const address of deployed) {
      const source = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key });
      const record = (source.result as Record<string, string>[])[0]!;
      expect(record.ContractName, address).toBe(names[address]);
      expect(record.ABI).not.toBe('Contract source code not verified');
    }
    const splitterRecord = (
      (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: splitter, apikey: key })).result as Record<string, string>[]
    )[0]!;
    expect(splitterRecord.Library!.toLowerCase()).toContain(shareMath.slice(2));

    // The page says the contract was verified with a whole build.
    const page = await (await fetch(`${service.baseUrl}/address/${escrow}`)).text();
    expect(page).toContain('whole build');

    // Every contract of the build keeps its storage layout, the factory's child included: what
    // solc gives for the build's input.
    const { input } = JSON.parse(build.buildInfo) as { input: SolcInput };
    for (const [address, file, name] of [
      [ledger, 'contracts/Ledger.sol', 'Ledger'],
      [escrow, 'contracts/Escrow.sol', 'Escrow'],
    ] as const) {
      const own = compileForTest('solc', { ...input, settings: { ...input.settings, outputSelection: { [file]: { [name]: ['storageLayout'] } } } });
      const expected = (own.contracts?.[file]?.[name] as { storageLayout?: { storage: unknown[] } } | undefined)?.storageLayout;
      expect(expected?.storage.length).toBeGreaterThan(0);
      const served = (await (await fetch(`${service.baseUrl}/address/${address}/storage-layout.json`)).json()) as { storageLayout: unknown };
      expect(served.storageLayout, name).toEqual(expected);
    }

    // The one daily unit is spent: a further submission is refused for the quota.
    const again = await apiPost(service.apiUrl, { module: 'contract', action: 'verifybuild', apikey: key, sourceCode: build.buildInfo });
    expect(again.status).toBe('0');
    expect(String(again.result)).toMatch(/limit|quota/i);

    // Children created after the build are verified too, with nothing submitted.
    const later = await call(factory, factoryArtifact.abi, 'open', [beneficiary, 2_000_000_000n]);
    await waitListed([later]);
  });

  it('a file that is not a build is refused with a text that names the problem, without using the quota', async () => {
    const refused = await apiPost(service.apiUrl, { module: 'contract', action: 'verifybuild', apikey: key, sourceCode: '{"not":"a build"}' });
    expect(refused.status).toBe('0');
    expect(String(refused.result)).toMatch(/sourceCode/);
  });
});

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});
