import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { type Devnet, startDevnet } from '../src/chain/devnet.js';
import { DEVNET_ACCOUNTS } from './helpers/accounts.js';
import { createKey, type RunningService, startService } from './helpers/service.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rpcUrl: string;
    chainId: number;
    apiUrl: string;
    baseUrl: string;
    apiKey: string;
    serviceDataDir: string;
  }
}

let devnet: Devnet | undefined;
let service: RunningService | undefined;

/**
 * One anvil and one running service for the whole suite (warm compilers are shared that
 * way); test files deploy their own contracts and verify them through the service.
 */
export async function setup(project: TestProject): Promise<void> {
  for (const k of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY']) delete process.env[k];
  // The Vyper compilers (`npm test` has installed them already; a run of single files may not have):
  // milliseconds when they are there. It fails only when SOLPROOF_REQUIRE names vyper.
  const installed = spawnSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'install-vyper.mjs')], { stdio: 'inherit' });
  if (installed.status !== 0) throw new Error('scripts/install-vyper.mjs failed: the Vyper compilers are required');
  // One deployer account per test file keeps nonces from racing between files.
  devnet = await startDevnet({ accounts: DEVNET_ACCOUNTS });
  project.provide('rpcUrl', devnet.rpcUrl);
  project.provide('chainId', devnet.chainId);
  // Reads without a key are tested against services of their own; this one does not throttle.
  service = await startService({
    rpcUrl: devnet.rpcUrl,
    // Every test file shares one key: fair shares between keys are tested on services of their own.
    args: [
      '--keyless-interval-ms',
      '0',
      '--rate-free',
      '10000',
      '--rate-pro',
      '10000',
      '--key-running-jobs',
      '8',
      '--key-queued-jobs',
      '0',
      '--web-rate',
      '10000',
      '--daily-verify-quota',
      '100000',
      // Every file's failures are diagnosed on that one key: the daily budgets are tested on services of their own.
      '--daily-dry-run-quota',
      '100000',
      '--daily-diagnosis-quota',
      '100000',
      // Sourcify's keyless API counts per client address, and every file is 127.0.0.1.
      '--sourcify-daily-quota',
      '100000',
      '--sourcify-rate',
      '10000',
    ],
  });
  project.provide('apiUrl', service.apiUrl);
  project.provide('baseUrl', service.baseUrl);
  project.provide('serviceDataDir', service.dataDir);
  project.provide('apiKey', await createKey(service.dataDir, ['--owner', 'test-suite']));
}

export async function teardown(): Promise<void> {
  await service?.stop();
  await devnet?.stop();
}
