#!/usr/bin/env node
// Records what a released build of solproof wrote and served, for the migration test
// (test/store/previousRelease.test.ts): verifies a few contracts through that build's service
// on a fresh anvil, then writes every row of its SQLite database and the answers it gave
// (getabi, getsourcecode, the CSV) to test/fixtures/previous-release/.
//
// Usage: node scripts/capture-release-fixture.mjs <checkout of the release, built>
//   e.g. git worktree add /tmp/rel <commit> && (cd /tmp/rel && npm ci && npx tsc -p tsconfig.json)
//        node scripts/capture-release-fixture.mjs /tmp/rel
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createPublicClient, createWalletClient, encodeAbiParameters, encodeDeployData, http, keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const release = process.argv[2];
if (!release) throw new Error('usage: capture-release-fixture.mjs <built checkout of the release>');
const { startDevnet, freePort } = await import(join(root, 'dist', 'chain', 'devnet.js'));
const out = join(root, 'test', 'fixtures', 'previous-release');
const solc = require('solc');
const LONG = 'v0.8.28+commit.7893614a';

function compile(sources, settings = {}) {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([k, content]) => [k, { content }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      ...settings,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return { input, output };
}

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
/// A counter fixed at deployment.
contract Counter {
    uint256 public count;
    address public immutable owner;
    string public label;
    constructor(string memory _label, uint256 start) { owner = msg.sender; label = _label; count = start; }
    function inc() external { count += 1; }
}
`;
const LIB = `// SPDX-License-Identifier: GPL-3.0
pragma solidity ^0.8.0;
library MathLib { function addOne(uint256 a) external pure returns (uint256) { return a + 1; } }
`;
const USER = `// SPDX-License-Identifier: GPL-3.0
pragma solidity ^0.8.0;
import "./Lib.sol";
/// Uses the library.
contract UsesLib { function go(uint256 a) external pure returns (uint256) { return MathLib.addOne(a); } }
`;
const IMPL = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.0;
contract BoxImpl { uint256 public value; function set(uint256 v) external { value = v; } }
`;
const PROXY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract SimpleProxy {
    bytes32 private constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    constructor(address impl) { assembly { sstore(SLOT, impl) } }
    fallback() external payable {
        assembly {
            let impl := sload(SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}
`;

const tmp = mkdtempSync(join(tmpdir(), 'solproof-release-'));
const devnet = await startDevnet({ accounts: 2 });
let service;
try {
  const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
  const account = privateKeyToAccount(devnet.accounts[1].privateKey);
  const pc = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const wc = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });
  const deploy = async (data) => {
    const hash = await wc.sendTransaction({ data });
    const r = await pc.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return r.contractAddress.toLowerCase();
  };

  const dataDir = join(tmp, 'data');
  mkdirSync(join(dataDir, 'compilers'), { recursive: true });
  copyFileSync(require.resolve('solc/soljson.js'), join(dataDir, 'compilers', `soljson-${LONG}.js`));
  const cli = join(release, 'dist', 'cli', 'main.js');
  const key = execFileSync(process.execPath, [cli, 'keys', 'create', '--data-dir', dataDir, '--owner', 'fixture']).toString().trim().split('\n').pop();
  const port = await freePort();
  service = spawn(
    process.execPath,
    [cli, 'start', '--rpc-url', devnet.rpcUrl, '--port', String(port), '--data-dir', dataDir, '--solc-mirror', '', '--npm-registry', '', '--rate-free', '1000'],
    {
      stdio: 'ignore',
      env: { ...process.env, SOLPROOF_LOG_LEVEL: 'warn' },
    },
  );
  const api = `http://127.0.0.1:${port}/api`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('the release did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const post = async (fields) => (await fetch(api, { method: 'POST', body: new URLSearchParams({ module: 'contract', apikey: key, ...fields }) })).json();
  const verdict = async (guid, action = 'checkverifystatus') => {
    for (;;) {
      const r = await (await fetch(`${api}?module=contract&action=${action}&guid=${guid}&apikey=${key}`)).json();
      if (r.result !== 'Pending in queue') return r.result;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const verify = async (fields) => verdict((await post({ action: 'verifysourcecode', compilerversion: LONG, ...fields })).result);

  const addresses = [];
  // 1. A single file with constructor arguments and an immutable: full.
  const counter = compile({ 'Counter.sol': COUNTER });
  const cArgs = ['fixture', 41n];
  const c = await deploy(
    encodeDeployData({
      abi: counter.output.contracts['Counter.sol'].Counter.abi,
      bytecode: `0x${counter.output.contracts['Counter.sol'].Counter.evm.bytecode.object}`,
      args: cArgs,
    }),
  );
  console.log(
    'counter',
    await verify({
      contractaddress: c,
      codeformat: 'solidity-single-file',
      contractname: 'Counter',
      sourceCode: COUNTER,
      optimizationUsed: '1',
      runs: '200',
      constructorArguements: encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], cArgs).slice(2),
    }),
  );
  addresses.push(c);
  // 2. The same, with an edited comment: partial.
  const c2 = await deploy(
    encodeDeployData({
      abi: counter.output.contracts['Counter.sol'].Counter.abi,
      bytecode: `0x${counter.output.contracts['Counter.sol'].Counter.evm.bytecode.object}`,
      args: cArgs,
    }),
  );
  console.log(
    'partial',
    await verify({
      contractaddress: c2,
      codeformat: 'solidity-single-file',
      contractname: 'Counter',
      sourceCode: COUNTER.replace('fixed at deployment', 'edited'),
      optimizationUsed: '1',
      runs: '200',
    }),
  );
  addresses.push(c2);
  // 3. A library and a contract linked to it, standard JSON with a form library.
  const linked = compile({ 'Lib.sol': LIB, 'UsesLib.sol': USER });
  const lib = await deploy(`0x${linked.output.contracts['Lib.sol'].MathLib.evm.bytecode.object}`);
  const placeholder = `__$${keccak256(toBytes('Lib.sol:MathLib')).slice(2, 36)}$__`;
  const user = await deploy(`0x${linked.output.contracts['UsesLib.sol'].UsesLib.evm.bytecode.object.split(placeholder).join(lib.slice(2))}`);
  const { outputSelection: _o, ...settings } = linked.input.settings;
  const sentInput = { ...linked.input, settings: { ...settings, outputSelection: { '*': { '*': ['abi'] } } } };
  console.log(
    'lib',
    await verify({
      contractaddress: lib,
      codeformat: 'solidity-standard-json-input',
      contractname: 'Lib.sol:MathLib',
      sourceCode: JSON.stringify(sentInput, null, 2),
    }),
  );
  console.log(
    'user',
    await verify({
      contractaddress: user,
      codeformat: 'solidity-standard-json-input',
      contractname: 'UsesLib.sol:UsesLib',
      sourceCode: JSON.stringify(sentInput),
      libraryname1: 'MathLib',
      libraryaddress1: lib,
    }),
  );
  addresses.push(lib, user);
  // 4. A proxy and its implementation, linked by verifyproxycontract.
  const impl = compile({ 'BoxImpl.sol': IMPL });
  const implAddress = await deploy(`0x${impl.output.contracts['BoxImpl.sol'].BoxImpl.evm.bytecode.object}`);
  const proxy = compile({ 'SimpleProxy.sol': PROXY });
  const proxyAddress = await deploy(
    encodeDeployData({
      abi: proxy.output.contracts['SimpleProxy.sol'].SimpleProxy.abi,
      bytecode: `0x${proxy.output.contracts['SimpleProxy.sol'].SimpleProxy.evm.bytecode.object}`,
      args: [implAddress],
    }),
  );
  console.log(
    'impl',
    await verify({
      contractaddress: implAddress,
      codeformat: 'solidity-single-file',
      contractname: 'BoxImpl',
      sourceCode: IMPL,
      optimizationUsed: '1',
      runs: '200',
    }),
  );
  console.log(
    'proxy',
    await verify({
      contractaddress: proxyAddress,
      codeformat: 'solidity-single-file',
      contractname: 'SimpleProxy',
      sourceCode: PROXY,
      optimizationUsed: '1',
      runs: '200',
      constructorArguments: encodeAbiParameters([{ type: 'address' }], [implAddress]),
    }),
  );
  console.log('link', await verdict((await post({ action: 'verifyproxycontract', address: proxyAddress })).result, 'checkproxyverification'));
  addresses.push(implAddress, proxyAddress);
  // 5. bytecodeHash none, with a licence given in the form: partial, no SwarmSource.
  const none = compile({ 'Counter.sol': COUNTER }, { metadata: { bytecodeHash: 'none' } });
  const n = await deploy(
    encodeDeployData({
      abi: none.output.contracts['Counter.sol'].Counter.abi,
      bytecode: `0x${none.output.contracts['Counter.sol'].Counter.evm.bytecode.object}`,
      args: cArgs,
    }),
  );
  console.log(
    'none',
    await verify({
      contractaddress: n,
      codeformat: 'solidity-standard-json-input',
      contractname: 'Counter.sol:Counter',
      sourceCode: JSON.stringify(none.input),
      licenseType: '12',
    }),
  );
  addresses.push(n);
  // 6. A failed attempt (the optimizer off) for a contract left unverified.
  const c3 = await deploy(
    encodeDeployData({
      abi: counter.output.contracts['Counter.sol'].Counter.abi,
      bytecode: `0x${counter.output.contracts['Counter.sol'].Counter.evm.bytecode.object}`,
      args: cArgs,
    }),
  );
  console.log(
    'failed',
    await verify({ contractaddress: c3, codeformat: 'solidity-single-file', contractname: 'Counter', sourceCode: COUNTER, optimizationUsed: '0', runs: '200' }),
  );

  const answers = {};
  for (const address of addresses) {
    answers[address] = {
      getabi: await (await fetch(`${api}?module=contract&action=getabi&address=${address}&apikey=${key}`)).text(),
      getsourcecode: await (await fetch(`${api}?module=contract&action=getsourcecode&address=${address}&apikey=${key}`)).text(),
    };
  }
  const csv = await (await fetch(`http://127.0.0.1:${port}/verified-contracts.csv`)).text();
  service.kill('SIGTERM');
  await new Promise((r) => service.once('exit', r));
  service = undefined;

  const db = new Database(join(dataDir, 'solproof.sqlite'), { readonly: true });
  const tables = {};
  for (const { name } of db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'").all()) {
    tables[name] = db.prepare(`select * from ${name}`).all();
  }
  const migrations = db
    .prepare('select name from kysely_migration order by name')
    .all()
    .map((r) => r.name);
  db.close();
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'tables.json'), `${JSON.stringify({ migrations, tables }, null, 1)}\n`);
  writeFileSync(join(out, 'answers.json'), `${JSON.stringify({ csv, addresses: answers }, null, 1)}\n`);
  console.log(`wrote ${out}: ${Object.values(tables).reduce((n, rows) => n + rows.length, 0)} rows, ${addresses.length} contracts`);
} finally {
  service?.kill('SIGKILL');
  await devnet.stop();
  rmSync(tmp, { recursive: true, force: true });
}
