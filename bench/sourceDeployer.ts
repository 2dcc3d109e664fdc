/**
 * What the worker and failover benches share: the solc installed with the service, copied where
 * a service started on `dir` finds it (so nothing is downloaded), and a deployer that compiles
 * the next edition of a contract, deploys it on the devnet and gives its verifysourcecode fields.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { Devnet } from '../src/chain/devnet.js';
import type { Hex } from '../src/core/types.js';
import type { SolcOutput } from '../src/verify/index.js';

const require = createRequire(import.meta.url);

interface SolcJs {
  compile(input: string): string;
  version(): string;
}

/**
 * Returns a function that deploys edition 1, 2, 3… of `${name}${i}` (from `source(i)`, file
 * `${name}.sol`, optimizer on with 200 runs) and answers the fields that verify it.
 */
export function sourceDeployer(devnet: Devnet, dir: string, name: string, source: (i: number) => string): () => Promise<Record<string, string>> {
  const solc = require('solc') as SolcJs;
  const longVersion = /^(\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(solc.version())?.[1];
  if (!longVersion) throw new Error(`unexpected solc version ${solc.version()}`);
  mkdirSync(join(dir, 'compilers'), { recursive: true });
  copyFileSync(require.resolve('solc/soljson.js'), join(dir, 'compilers', `soljson-v${longVersion}.js`));

  const chain = { ...foundry, id: devnet.chainId, rpcUrls: { default: { http: [devnet.rpcUrl] } } };
  const account = privateKeyToAccount(devnet.accounts[0]!.privateKey);
  const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const walletClient = createWalletClient({ chain, account, transport: http(devnet.rpcUrl) });
  const file = `${name}.sol`;
  let edition = 0;
  return async () => {
    const i = ++edition;
    const input = {
      language: 'Solidity',
      sources: { [file]: { content: source(i) } },
      settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
    const bytecode = `0x${output.contracts![file]![`${name}${i}`]!.evm!.bytecode!.object}` as Hex;
    const hash = await walletClient.sendTransaction({ data: bytecode });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (!receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
    return {
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: receipt.contractAddress,
      sourceCode: source(i),
      contractname: `${name}${i}`,
      compilerversion: `v${longVersion}`,
      optimizationUsed: '1',
      runs: '200',
    };
  };
}
