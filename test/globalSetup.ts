import type { TestProject } from 'vitest/node';
import { startDevnet, type Devnet } from '../src/chain/devnet.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rpcUrl: string;
    chainId: number;
  }
}

let devnet: Devnet | undefined;

/** One anvil for the whole suite; every test file deploys its own contracts on it. */
export async function setup(project: TestProject): Promise<void> {
  devnet = await startDevnet();
  project.provide('rpcUrl', devnet.rpcUrl);
  project.provide('chainId', devnet.chainId);
}

export async function teardown(): Promise<void> {
  await devnet?.stop();
}
