// Hardhat 2 project compiled by test/bytecodeDatabase/wholeBuild.test.ts: its build-info file
// is submitted whole to the service. Artifacts go where the test says.
const path = require('node:path');
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');

const SOLC_VERSION = '0.8.28';

// Hardhat downloads solc from binaries.soliditylang.org by default; this machine only has the
// npm-installed solc-js build, used through Hardhat's documented custom-compiler override.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion === SOLC_VERSION) {
    return { compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: SOLC_VERSION, longVersion: '0.8.28+commit.7893614a' };
  }
  return runSuper();
});

const out = process.env.BUILD_TEST_OUT_DIR;

/** @type import('hardhat/config').HardhatUserConfig */
module.exports = {
  solidity: { version: SOLC_VERSION, settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' } },
  paths: out ? { artifacts: path.join(out, 'artifacts'), cache: path.join(out, 'cache') } : {},
  defaultNetwork: 'hardhat',
};
