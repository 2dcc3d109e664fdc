// Hardhat 2 project driven by test/clients/ozUpgrades.test.ts: OpenZeppelin's upgrades plugin
// deploys proxies on the suite's devnet and verifies them against the suite's service.
// Everything machine-specific comes from the environment the test sets.
require('@nomicfoundation/hardhat-ethers');
// hardhat-verify must come before the upgrades plugin, which overrides its verify subtask.
require('@nomicfoundation/hardhat-verify');
require('@openzeppelin/hardhat-upgrades');

const path = require('node:path');
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');

const SOLC_VERSION = '0.8.28';

// Hardhat downloads solc from binaries.soliditylang.org by default; this machine only has the
// npm-installed solc-js build, used through Hardhat's documented custom-compiler override.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion === SOLC_VERSION) {
    return {
      compilerPath: require.resolve('solc/soljson.js'),
      isSolcJs: true,
      version: SOLC_VERSION,
      longVersion: '0.8.28+commit.7893614a',
    };
  }
  return runSuper();
});

const env = process.env;
// The test compiles into a temporary directory so runs never share artifacts.
const out = env.OZ_TEST_OUT_DIR;

/** @type import('hardhat/config').HardhatUserConfig */
module.exports = {
  solidity: {
    version: SOLC_VERSION,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' },
  },
  paths: out ? { artifacts: path.join(out, 'artifacts'), cache: path.join(out, 'cache') } : {},
  defaultNetwork: 'hardhat',
  networks: {
    devnet: {
      url: env.OZ_TEST_RPC_URL || 'http://127.0.0.1:8545',
      chainId: 31337,
      accounts: env.OZ_TEST_PRIVATE_KEY ? [env.OZ_TEST_PRIVATE_KEY] : [],
    },
  },
  etherscan: {
    // A per-network key: given a single string key, hardhat-verify 2 switches to Etherscan's v2
    // endpoint (api.etherscan.io) and ignores customChains' apiURL.
    apiKey: { devnet: env.OZ_TEST_API_KEY || '' },
    customChains: [
      {
        network: 'devnet',
        chainId: 31337,
        urls: {
          apiURL: env.OZ_TEST_API_URL || 'http://127.0.0.1:8080/api',
          browserURL: env.OZ_TEST_BROWSER_URL || 'http://127.0.0.1:8080',
        },
      },
    ],
  },
  sourcify: { enabled: false },
};
