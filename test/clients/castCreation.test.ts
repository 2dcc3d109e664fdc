import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodeAbiParameters } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devnetAccounts } from '../../src/chain/devnet.js';
import { DEVNET_ACCOUNTS, deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService } from '../helpers/api.js';
import { cleanEnv } from '../helpers/service.js';
import { installSolcForForge } from './foundry/offlineSolc.js';

/*
 * What Foundry reads from getcontractcreation, with Foundry 1.7.1's own cast and forge run
 * offline against the suite's service (set up as in foundry.test.ts: a private HOME with a
 * solc-js stand-in in .svm, and an [etherscan] entry for chain 31337):
 * - `cast creation-code` and `cast constructor-args` take the creation transaction from the
 *   service and read its input (or, for a factory's contract, its trace) from the node;
 * - `forge clone` writes the creation transaction and the deployer (the transaction's sender)
 *   into `.clone.meta`, and the cloned project builds.
 * Both a contract deployed by an account and one made by a factory are checked.
 */

const ACCOUNT = deployerAccount('clients/castCreation');
const DEPLOYER = devnetAccounts(DEVNET_ACCOUNTS)[ACCOUNT]!;
const RPC_URL = inject('rpcUrl');
const { apiUrl, apiKey } = sharedService();
const SOLC = '0.8.28';

const require = createRequire(import.meta.url);
const binary = (pkg: string, name: string): string => join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', name);
const FORGE = binary('@foundry-rs/forge-linux-amd64', 'forge');
const CAST = binary('@foundry-rs/cast-linux-amd64', 'cast');

// Static constructor arguments: cast splits them off the end of the init code, one word each.
const VAULT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Vault {
    uint256 public limit;
    address public keeper;

    constructor(uint256 _limit, address _keeper) {
        limit = _limit;
        keeper = _keeper;
    }

    function raise(uint256 by) external {
        require(msg.sender == keeper, "keeper only");
        limit += by;
    }
}
`;

const VAULT_FACTORY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Vault} from "./Vault.sol";

contract VaultFactory {
    address public last;

    function open(uint256 limit) external returns (address) {
        last = address(new Vault(limit, msg.sender));
        return last;
    }
}
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  transcript: string;
}

function foundryEnv(home: string): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const k of Object.keys(env)) {
    if (/^(FOUNDRY_|DAPP_|ETHERSCAN_|VERIFIER_|EXPLORER_|ETH_RPC_URL$|CHAIN$|XDG_)/.test(k)) delete env[k];
  }
  return { ...env, HOME: home, SOLPROOF_API_KEY: apiKey, NO_COLOR: '1' };
}

const word = (hex: string): string => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');

describe('cast creation-code, cast constructor-args and forge clone read getcontractcreation', () => {
  let root: string;
  let home: string;
  let project: string;
  let vaultBytecode: string;
  const byAccount = { address: '', tx: '', limit: 1000n };
  const byFactory = { address: '', tx: '', limit: 77n, factory: '' };

  async function run(bin: string, args: string[], cwd = project): Promise<Run> {
    return new Promise((resolve) => {
      execFile(bin, args, { cwd, env: foundryEnv(home), timeout: 100_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({
          code,
          stdout,
          stderr,
          transcript: `$ ${bin.split('/').pop()} ${args.join(' ')}\n(exit ${code})\n--- stdout\n${stdout}--- stderr\n${stderr}`,
        });
      });
    });
  }
  const forge = (...args: string[]) => run(FORGE, args);
  const cast = (...args: string[]) => run(CAST, args);

  async function ok(r: Promise<Run>): Promise<string> {
    const done = await r;
    expect(done.code, done.transcript).toBe(0);
    return done.stdout;
  }

  /** `forge verify-contract`, then `forge verify-check` until it passes: cast needs the ABI from the service. */
  async function verify(address: string, constructorArgs: string): Promise<void> {
    const submitted = await ok(forge('verify-contract', address, 'src/Vault.sol:Vault', '--chain', '31337', '--constructor-args', constructorArgs));
    // A second Vault is a copy of the first: the service may have verified it already from its bytecode database.
    if (submitted.includes('is already verified')) return;
    const guid = /GUID: `([a-z0-9]{50})`/.exec(submitted)?.[1];
    expect(guid, submitted).toBeDefined();
    const check = await ok(forge('verify-check', guid!, '--chain', '31337', '--etherscan-api-key', apiKey, '--retries', '30', '--delay', '1'));
    expect(check).toContain('Pass - Verified');
  }

  const encodedArgs = (limit: bigint): string => encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [limit, DEPLOYER.address as `0x${string}`]);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'solproof-cast-creation-'));
    home = join(root, 'home');
    project = join(root, 'project');

    await installSolcForForge(home, SOLC);

    // forge clone starts with `forge init`, which clones forge-std from GitHub (clone has no
    // --offline): git in the private HOME fetches it from a local stand-in repository instead.
    const forgeStd = join(root, 'forge-std');
    mkdirSync(forgeStd);
    writeFileSync(join(forgeStd, 'README.md'), 'A local stand-in for forge-std: the cloned projects do not import it.\n');
    const git = (...args: string[]) =>
      ok(run('git', ['-c', 'user.name=solproof', '-c', 'user.email=solproof@localhost', '-c', 'init.defaultBranch=master', ...args], forgeStd));
    await git('init', '-q');
    await git('add', '.');
    await git('commit', '-q', '-m', 'stand-in');
    writeFileSync(join(home, '.gitconfig'), `[url "file://${forgeStd}"]\n\tinsteadOf = https://github.com/foundry-rs/forge-std\n`);

    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src', 'Vault.sol'), VAULT);
    writeFileSync(join(project, 'src', 'VaultFactory.sol'), VAULT_FACTORY);
    writeFileSync(
      join(project, 'foundry.toml'),
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
    await ok(forge('build'));
    vaultBytecode = (
      JSON.parse(readFileSync(join(project, 'out', 'Vault.sol', 'Vault.json'), 'utf8')) as { bytecode: { object: string } }
    ).bytecode.object.toLowerCase();

    // A Vault deployed by the account, and one opened through a factory.
    const created = await ok(
      forge(
        'create',
        'src/Vault.sol:Vault',
        '--rpc-url',
        RPC_URL,
        '--private-key',
        DEPLOYER.privateKey,
        '--broadcast',
        '--constructor-args',
        String(byAccount.limit),
        DEPLOYER.address,
      ),
    );
    byAccount.address = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(created)![1]!.toLowerCase();
    byAccount.tx = /Transaction hash: (0x[0-9a-fA-F]{64})/.exec(created)![1]!.toLowerCase();

    const factory = await ok(forge('create', 'src/VaultFactory.sol:VaultFactory', '--rpc-url', RPC_URL, '--private-key', DEPLOYER.privateKey, '--broadcast'));
    byFactory.factory = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(factory)![1]!.toLowerCase();
    const sent = await ok(
      cast('send', byFactory.factory, 'open(uint256)', String(byFactory.limit), '--rpc-url', RPC_URL, '--private-key', DEPLOYER.privateKey, '--json'),
    );
    byFactory.tx = (JSON.parse(sent) as { transactionHash: string }).transactionHash.toLowerCase();
    byFactory.address = (await ok(cast('call', byFactory.factory, 'last()(address)', '--rpc-url', RPC_URL))).trim().toLowerCase();

    await verify(byAccount.address, encodedArgs(byAccount.limit));
    await verify(byFactory.address, encodedArgs(byFactory.limit));
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the service names the transaction sender as creator and the factory apart', async () => {
    const env = await apiGet(apiUrl, {
      module: 'contract',
      action: 'getcontractcreation',
      contractaddresses: `${byAccount.address},${byFactory.address}`,
      apikey: apiKey,
    });
    expect(env.status).toBe('1');
    expect(env.result).toMatchObject([
      { contractAddress: byAccount.address, contractCreator: DEPLOYER.address.toLowerCase(), txHash: byAccount.tx, contractFactory: '' },
      { contractAddress: byFactory.address, contractCreator: DEPLOYER.address.toLowerCase(), txHash: byFactory.tx, contractFactory: byFactory.factory },
    ]);
    expect(env.result[0].creationBytecode).toBe(`${vaultBytecode}${encodedArgs(byAccount.limit).slice(2)}`);
    expect(env.result[1].creationBytecode).toBe(`${vaultBytecode}${encodedArgs(byFactory.limit).slice(2)}`);
  });

  for (const which of ['account', 'factory'] as const) {
    const made = which === 'account' ? byAccount : byFactory;

    it(`cast creation-code prints the init code of the contract made by the ${which}`, async () => {
      const full = (await ok(cast('creation-code', made.address, '--chain', '31337', '--rpc-url', RPC_URL))).trim();
      expect(full).toBe(`${vaultBytecode}${encodedArgs(made.limit).slice(2)}`);
      const bare = (await ok(cast('creation-code', made.address, '--chain', '31337', '--rpc-url', RPC_URL, '--without-args'))).trim();
      expect(bare).toBe(vaultBytecode);
      const args = (await ok(cast('creation-code', made.address, '--chain', '31337', '--rpc-url', RPC_URL, '--only-args'))).trim();
      expect(args).toBe(encodedArgs(made.limit));
    });

    it(`cast constructor-args decodes the arguments of the contract made by the ${which}`, async () => {
      const lines = (await ok(cast('constructor-args', made.address, '--chain', '31337', '--rpc-url', RPC_URL))).trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`0x${word(made.limit.toString(16))}`);
      expect(lines[0]).toContain(String(made.limit));
      expect(lines[1]!.toLowerCase()).toContain(`0x${word(DEPLOYER.address)}`);
      expect(lines[1]!.toLowerCase()).toContain(DEPLOYER.address.toLowerCase());
    });

    it(`forge clone of the contract made by the ${which} records its creation and builds offline`, async () => {
      const target = join(root, `clone-${which}`);
      const cloned = await run(FORGE, ['clone', made.address, target, '--chain', '31337', '--no-git'], project);
      expect(cloned.code, cloned.transcript).toBe(0);
      const meta = JSON.parse(readFileSync(join(target, '.clone.meta'), 'utf8')) as Record<string, unknown>;
      expect(meta).toMatchObject({
        targetContract: 'Vault',
        address: expect.stringMatching(new RegExp(`^${made.address}$`, 'i')),
        chainId: 31337,
        creationTransaction: made.tx,
        // The sender of the creation transaction, also when a factory created the contract.
        deployer: expect.stringMatching(new RegExp(`^${DEPLOYER.address}$`, 'i')),
        constructorArguments: encodedArgs(made.limit),
      });
      const built = await run(FORGE, ['build'], target);
      expect(built.code, built.transcript).toBe(0);
      expect(existsSync(join(target, 'out', 'Vault.sol', 'Vault.json')), built.transcript).toBe(true);
    });
  }
});
