/**
 * A Hardhat 2 project deployed with Hardhat Ignition (@nomicfoundation/hardhat-ignition 0.15),
 * written into a directory of its own: the contracts of ../foundry/deployProject.ts under
 * `contracts/`, and a module that deploys a library and the contract it links, a contract with
 * constructor arguments, a factory and a call of it that creates a child. Its `node_modules` is
 * a link to this repository's, so the config and the module resolve the plugins; Hardhat
 * compiles with the npm-installed solc-js (Hardhat's documented custom-compiler override), as
 * it cannot download one here.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deploySources } from '../foundry/deployProject.js';

const require = createRequire(import.meta.url);
const NODE_MODULES = dirname(dirname(require.resolve('hardhat/package.json')));
export const HARDHAT_CLI = join(NODE_MODULES, 'hardhat', 'internal', 'cli', 'cli.js');

/** The contracts the module deploys (the record names them `Deployment#<name>`); the factory's child is not among them. */
export const IGNITION_DEPLOYED = ['Tally', 'Abacus', 'Greeting', 'Hatchery'] as const;

const CONFIG = `require('@nomicfoundation/hardhat-verify');
require('@nomicfoundation/hardhat-ignition');

const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion === '0.8.28') {
    return { compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: '0.8.28', longVersion: '0.8.28+commit.7893614a' };
  }
  return runSuper();
});

const env = process.env;

module.exports = {
  solidity: { version: '0.8.28', settings: { optimizer: { enabled: true, runs: 200 } } },
  networks: {
    devnet: { url: env.IGNITION_TEST_RPC_URL, chainId: 31337, accounts: [env.IGNITION_TEST_PRIVATE_KEY] },
  },
  etherscan: {
    // Per network: a single string key sends hardhat-verify 2 to api.etherscan.io.
    apiKey: { devnet: env.IGNITION_TEST_API_KEY },
    customChains: [{ network: 'devnet', chainId: 31337, urls: { apiURL: env.IGNITION_TEST_API_URL, browserURL: env.IGNITION_TEST_BROWSER_URL } }],
  },
  sourcify: { enabled: false },
};
`;

const MODULE = `const { buildModule } = require('@nomicfoundation/hardhat-ignition/modules');

module.exports = buildModule('Deployment', (m) => {
  const tally = m.library('Tally');
  const abacus = m.contract('Abacus', [], { libraries: { Tally: tally } });
  const greeting = m.contract('Greeting', ['hello from ignition', 3n]);
  const hatchery = m.contract('Hatchery');
  m.call(hatchery, 'hatch', [77n]);
  return { tally, abacus, greeting, hatchery };
});
`;

/** Writes the project into `dir`; its module is `ignition/modules/Deployment.cjs`. */
export function writeIgnitionProject(dir: string, flavour: number): void {
  for (const [path, text] of Object.entries(deploySources(flavour))) {
    if (!path.startsWith('src/')) continue;
    const file = join(dir, 'contracts', path.slice('src/'.length));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  mkdirSync(join(dir, 'ignition', 'modules'), { recursive: true });
  writeFileSync(join(dir, 'ignition', 'modules', 'Deployment.cjs'), MODULE);
  writeFileSync(join(dir, 'hardhat.config.cjs'), CONFIG);
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
}
