import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployRaw } from '../helpers/chain.js';
import { cleanEnv } from '../helpers/service.js';
import { FORGE, type ForgeRun, foundryEnv, runFoundry } from './foundry/deployProject.js';
import { installSolcForForge } from './foundry/offlineSolc.js';
import { type ReleaseListStandIn, startReleaseListStandIn } from './foundry/releaseListStandIn.js';

/*
 * Every command a failed receipt suggests must work when pasted. A contract is deployed with
 * one optimizer setting and verified with another, the way users get there (forge: the build
 * in the cache is not the deployment's; Hardhat: the config changed since); the verification
 * fails with a diagnosis; the receipt page's Foundry and Hardhat blocks are then run as they
 * stand (Hardhat's config line written into hardhat.config), and the contract is verified.
 */

const ACCOUNT = deployerAccount('clients/receiptCommands');
const PRIVATE_KEY = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!.privateKey;
const RPC_URL = inject('rpcUrl');
const { baseUrl, apiUrl, apiKey } = sharedService();
const require = createRequire(import.meta.url);
const NODE_MODULES = dirname(dirname(require.resolve('hardhat/package.json')));
const HARDHAT_CLI = join(NODE_MODULES, 'hardhat', 'internal', 'cli', 'cli.js');

const meter = (tag: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Meter${tag} {
    uint256 public reading;
    mapping(address => uint256) public readings;

    function record(uint256 value) external {
        for (uint256 i = 0; i < 3; i++) reading += value * (i + ${tag});
        readings[msg.sender] = reading ^ 0xff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00;
    }

    // Wide constants: the optimizer's runs decide how they are built, so 200 and 1000 runs give other code.
    function mask(uint256 x) external pure returns (uint256) { return x & 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff; }
}
`;

/** The text of a `<pre id="…">` of the receipt page, as a browser shows it (and a user copies it). */
function block(page: string, id: string): string[] {
  const raw = new RegExp(`<pre class="source" id="${id}">([\\s\\S]*?)</pre>`).exec(page)?.[1];
  expect(raw, `no #${id} on the receipt page`).toBeDefined();
  const text = raw!.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** The receipt page a failure's text points to (`Diagnosis: <url>`). */
async function receiptPageOf(printed: string): Promise<string> {
  const url = /Diagnosis: (http:\/\/127\.0\.0\.1:\d+\/receipt\/[a-z0-9]{50})/.exec(printed)?.[1];
  expect(url, printed).toBeDefined();
  const res = await fetch(url!);
  expect(res.status).toBe(200);
  return res.text();
}

async function record(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  return env.result[0] as Record<string, string>;
}

describe("a failed receipt's suggested commands, pasted", () => {
  let root: string;
  let home: string;
  let releases: ReleaseListStandIn;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-receipt-commands-'));
    home = join(root, 'home');
    await installSolcForForge(home, '0.8.28');
    releases = await startReleaseListStandIn();
  });

  afterAll(async () => {
    await releases?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  describe('forge (1.7.1)', () => {
    const forge = (dir: string, args: string[]): Promise<ForgeRun> =>
      runFoundry(FORGE, args, { cwd: dir, env: foundryEnv(home, { ...releases.env, SOLPROOF_API_KEY: apiKey }) });

    async function project(tag: number): Promise<string> {
      const dir = join(root, `forge-${tag}`);
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'src', `Meter${tag}.sol`), meter(tag));
      writeFileSync(
        join(dir, 'foundry.toml'),
        [
          '[profile.default]',
          'src = "src"',
          'out = "out"',
          'libs = []',
          'optimizer = true',
          'optimizer_runs = 200',
          '',
          '[etherscan]',
          `devnet = { key = "\${SOLPROOF_API_KEY}", chain = 31337, url = "${apiUrl}" }`,
          '',
        ].join('\n'),
      );
      return dir;
    }

    /**
     * Deploys with `deployFlags`, builds again with foundry.toml's settings (as any later build
     * does), verifies (it fails), then runs the receipt's Foundry block line by line.
     */
    async function fixWithReceipt(tag: number, deployFlags: string[], expectedBuild: string): Promise<void> {
      const dir = await project(tag);
      const contract = `src/Meter${tag}.sol:Meter${tag}`;
      const created = await forge(dir, ['create', contract, '--rpc-url', RPC_URL, '--private-key', PRIVATE_KEY, '--broadcast', ...deployFlags]);
      expect(created.code, created.transcript).toBe(0);
      const address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(created.stdout)![1]!.toLowerCase();
      const rebuilt = await forge(dir, ['build']);
      expect(rebuilt.code, rebuilt.transcript).toBe(0);
      const failed = await forge(dir, ['verify-contract', address, contract, '--chain', '31337', '--watch']);
      expect(failed.code, failed.transcript).not.toBe(0);

      const lines = block(await receiptPageOf(`${failed.stdout}\n${failed.stderr}`), 'fix-forge');
      expect(lines).toEqual([expectedBuild, `forge verify-contract ${address} ${contract} --chain 31337 --watch`]);
      let last: ForgeRun | null = null;
      for (const line of lines) {
        const [bin, ...args] = line.split(' ');
        expect(bin).toBe('forge');
        last = await forge(dir, args);
        expect(last.code, last.transcript).toBe(0);
      }
      expect(last!.stdout, last!.transcript).toContain('Contract successfully verified');
      expect((await record(address)).MatchKind).toBe('full');
    }

    it('runs: deployed with 1000, built again with 200: forge build --optimize --optimizer-runs 1000, then verify-contract', async () => {
      await fixWithReceipt(750_001, ['--optimizer-runs', '1000'], 'forge build --optimize --optimizer-runs 1000');
    });

    it('the optimizer: deployed without it, built again with it: forge build --optimize false, then verify-contract', async () => {
      await fixWithReceipt(750_002, ['--optimize', 'false'], 'forge build --optimize false');
    });
  });

  describe('Hardhat 2 (hardhat-verify 2)', () => {
    const config = (settings: string) => `require('@nomicfoundation/hardhat-verify');
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async () => ({ compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: '0.8.28', longVersion: '0.8.28+commit.7893614a' }));
module.exports = {
  solidity: { version: '0.8.28', settings: { ${settings} } },
  networks: { devnet: { url: ${JSON.stringify(RPC_URL)}, chainId: 31337 } },
  etherscan: {
    apiKey: { devnet: ${JSON.stringify(apiKey)} },
    customChains: [{ network: 'devnet', chainId: 31337, urls: { apiURL: ${JSON.stringify(apiUrl)}, browserURL: ${JSON.stringify(baseUrl)} } }],
  },
  sourcify: { enabled: false },
};
`;

    function hardhat(dir: string, args: string[]): Promise<{ code: number | null; out: string }> {
      return new Promise((resolve, reject) => {
        const env = {
          ...cleanEnv(),
          CI: 'true',
          HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
          XDG_CONFIG_HOME: join(dir, '.xdg'),
          XDG_CACHE_HOME: join(dir, '.xdg'),
        };
        const child = spawn(process.execPath, [HARDHAT_CLI, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, out: `$ hardhat ${args.join(' ')}\n(exit ${code})\n${out}` }));
      });
    }

    it('runs: deployed with 1000, built since with 200: the config line from the receipt, compile, then its hardhat verify', async () => {
      const tag = 750_003;
      const dir = join(root, 'hardhat');
      mkdirSync(join(dir, 'contracts'), { recursive: true });
      symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
      writeFileSync(join(dir, 'contracts', `Meter${tag}.sol`), meter(tag));
      // Deployed from a build with 1000 runs.
      writeFileSync(join(dir, 'hardhat.config.cjs'), config('optimizer: { enabled: true, runs: 1000 }'));
      const compiled = await hardhat(dir, ['compile']);
      expect(compiled.code, compiled.out).toBe(0);
      const artifact = JSON.parse(readFileSync(join(dir, 'artifacts', 'contracts', `Meter${tag}.sol`, `Meter${tag}.json`), 'utf8')) as { bytecode: Hex };
      const { address } = await deployRaw(artifact.bytecode, ACCOUNT);
      // The config changed since (200 runs) and the project was built again. hardhat verify
      // itself stops before sending (its artifacts no longer match the code), so the build's
      // input goes to the API as the plugin would send it, and fails with a diagnosis.
      writeFileSync(join(dir, 'hardhat.config.cjs'), config('optimizer: { enabled: true, runs: 200 }'));
      const rebuilt = await hardhat(dir, ['compile']);
      expect(rebuilt.code, rebuilt.out).toBe(0);
      const refused = await hardhat(dir, ['verify', '--network', 'devnet', address]);
      expect(refused.code, refused.out).not.toBe(0);
      expect(refused.out).toContain("its bytecode doesn't match");
      const buildInfoDir = join(dir, 'artifacts', 'build-info');
      const buildInfo = JSON.parse(readFileSync(join(buildInfoDir, readdirSync(buildInfoDir)[0]!), 'utf8')) as { input: unknown };
      const { status } = await verifyAndWait(apiUrl, apiKey, {
        contractaddress: address,
        sourceCode: JSON.stringify(buildInfo.input),
        codeformat: 'solidity-standard-json-input',
        contractname: `contracts/Meter${tag}.sol:Meter${tag}`,
        compilerversion: 'v0.8.28+commit.7893614a',
      });
      expect(status?.status).toBe('0');

      const lines = block(await receiptPageOf(String(status?.result)), 'fix-hardhat');
      expect(lines).toEqual([
        '# in hardhat.config: solidity.settings.optimizer: { enabled: true, runs: 1000 }',
        'npx hardhat compile',
        `npx hardhat verify --network devnet ${address.toLowerCase()}`,
      ]);
      // The config line, written into hardhat.config as a user would; then the commands as they stand.
      const setting = /^# in hardhat\.config: solidity\.settings\.(\w+): (.*)$/.exec(lines[0]!)!;
      writeFileSync(join(dir, 'hardhat.config.cjs'), config(`${setting[1]}: ${setting[2]}`));
      let last = { code: null as number | null, out: '' };
      for (const line of lines.slice(1)) {
        const [npx, bin, ...args] = line.split(' ');
        expect([npx, bin]).toEqual(['npx', 'hardhat']);
        last = await hardhat(dir, args);
        expect(last.code, last.out).toBe(0);
      }
      expect(last.out).toContain('Successfully verified contract');
      expect((await record(address)).MatchKind).toBe('full');
    });
  });
});
