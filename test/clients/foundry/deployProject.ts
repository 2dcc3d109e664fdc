/**
 * A Foundry project whose script deploys what a real deployment holds, for forge run as a user
 * runs it (`forge script … --broadcast --verify`), offline:
 * - a library forge deploys and links (Tally, called by Abacus);
 * - a contract deployed through CREATE2 (Vault, `new Vault{salt: …}`);
 * - a contract with constructor arguments (Greeting);
 * - a factory (Hatchery), and the child it creates inside a script call (Hatchling).
 * Six contracts. `flavour` goes into every contract's runtime code, so projects of different
 * flavours deploy code no other deploys (none is a copy, a similar match, of another's).
 * No vitest here: the bench uses it too.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const binary = (pkg: string, name: string): string => join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', name);
export const FORGE = binary('@foundry-rs/forge-linux-amd64', 'forge');
export const CAST = binary('@foundry-rs/cast-linux-amd64', 'cast');

/** The contracts the script deploys, by name, with the file each is in. */
export const DEPLOYED = ['Tally', 'Abacus', 'Vault', 'Greeting', 'Hatchery', 'Hatchling'] as const;

/** The project's files by path (`src/…`, `script/Deploy.s.sol`). */
export function deploySources(flavour: number): Record<string, string> {
  const head = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n';
  return {
    'src/Tally.sol': `${head}
library Tally {
    function add(uint256 a, uint256 b) external pure returns (uint256) { return a + b + ${flavour}; }
}
`,
    'src/Abacus.sol': `${head}
import {Tally} from "./Tally.sol";

contract Abacus {
    uint256 public total;
    function edition() external pure returns (uint256) { return ${flavour}; }

    function count(uint256 x) external returns (uint256) {
        total = Tally.add(total, x);
        return total;
    }
}
`,
    'src/Vault.sol': `${head}
contract Vault {
    address public immutable keeper;
    uint256 public limit;
    function edition() external pure returns (uint256) { return ${flavour}; }

    constructor(uint256 _limit) {
        keeper = msg.sender;
        limit = _limit + ${flavour};
    }
}
`,
    'src/Greeting.sol': `${head}
contract Greeting {
    string public text;
    uint256 public times;
    function edition() external pure returns (uint256) { return ${flavour}; }

    constructor(string memory _text, uint256 _times) {
        text = _text;
        times = _times * ${flavour};
    }
}
`,
    'src/Hatchery.sol': `${head}
contract Hatchling {
    uint256 public seed;
    address public immutable parent;
    function edition() external pure returns (uint256) { return ${flavour}; }

    constructor(uint256 _seed) {
        seed = _seed ^ ${flavour};
        parent = msg.sender;
    }
}

contract Hatchery {
    address[] public hatched;
    function edition() external pure returns (uint256) { return ${flavour}; }

    function hatch(uint256 seed) external returns (address child) {
        child = address(new Hatchling(seed));
        hatched.push(child);
    }
}
`,
    // No forge-std offline: the script declares the two cheatcodes it calls.
    'script/Deploy.s.sol': `${head}
import {Abacus} from "../src/Abacus.sol";
import {Vault} from "../src/Vault.sol";
import {Greeting} from "../src/Greeting.sol";
import {Hatchery} from "../src/Hatchery.sol";

interface Vm {
    function startBroadcast() external;
    function stopBroadcast() external;
}

contract Deploy {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    bool public IS_SCRIPT = true;

    function run() external {
        vm.startBroadcast();
        Abacus abacus = new Abacus();
        abacus.count(2);
        new Vault{salt: bytes32(uint256(${flavour}))}(500);
        new Greeting("hello from a script", 3);
        Hatchery hatchery = new Hatchery();
        hatchery.hatch(77);
        vm.stopBroadcast();
    }
}
`,
  };
}

export interface DeployProjectOptions {
  flavour: number;
  /** An `[etherscan]` entry for chain 31337 with this API URL and `${SOLPROOF_API_KEY}` (the README's); none for the Sourcify route. */
  etherscanUrl?: string;
}

/** Writes the project into `dir`. */
export function writeDeployProject(dir: string, options: DeployProjectOptions): void {
  for (const [path, text] of Object.entries(deploySources(options.flavour))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const toml = ['[profile.default]', 'src = "src"', 'out = "out"', 'libs = []', 'optimizer = true', 'optimizer_runs = 200', ''];
  if (options.etherscanUrl) toml.push('[etherscan]', `devnet = { key = "\${SOLPROOF_API_KEY}", chain = 31337, url = "${options.etherscanUrl}" }`, '');
  writeFileSync(join(dir, 'foundry.toml'), toml.join('\n'));
}

/** One transaction of forge's broadcast record, as far as the tests read it. */
interface BroadcastTransaction {
  transactionType: string;
  contractName: string | null;
  contractAddress: string | null;
  additionalContracts?: { address: string; initCode: string }[];
}

/** The addresses the script's broadcast record holds (`broadcast/Deploy.s.sol/31337/run-latest.json`), lower case. */
export function deployedAddresses(dir: string, chainId = 31337): string[] {
  const record = JSON.parse(readFileSync(join(dir, 'broadcast', 'Deploy.s.sol', String(chainId), 'run-latest.json'), 'utf8')) as {
    transactions: BroadcastTransaction[];
    libraries?: string[];
  };
  const addresses = new Set<string>();
  for (const tx of record.transactions) {
    if (tx.contractAddress && tx.transactionType.startsWith('CREATE')) addresses.add(tx.contractAddress.toLowerCase());
    for (const extra of tx.additionalContracts ?? []) addresses.add(extra.address.toLowerCase());
  }
  return [...addresses];
}

export interface ForgeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The command and everything it printed, for assertion messages. */
  transcript: string;
}

/** The environment forge runs in: the caller's, without its Foundry set-up or proxies, with `home` as HOME. */
export function foundryEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (
      /^(FOUNDRY_|DAPP_|ETHERSCAN_|VERIFIER_|EXPLORER_|ETH_RPC_URL$|CHAIN$|XDG_|https?_proxy$|HTTPS?_PROXY$|all_proxy$|ALL_PROXY$|no_proxy$|NO_PROXY$)/.test(k)
    )
      delete env[k];
  }
  return { ...env, HOME: home, NO_COLOR: '1', ...extra };
}

/** Runs a Foundry binary in `cwd`; never throws (the exit code and output are in the answer). */
export function runFoundry(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ForgeRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(bin, args, { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 240_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const ms = Date.now() - started;
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({
        code,
        stdout,
        stderr,
        ms,
        transcript: `$ ${bin.split('/').pop()} ${args.join(' ')}\n(exit ${code}, ${ms} ms)\n--- stdout\n${stdout}--- stderr\n${stderr}`,
      });
    });
  });
}
