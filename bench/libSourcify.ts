/**
 * Sourcify's lib-sourcify, the peer the contracts bench verifies beside the service. It is not
 * a dependency of the project: its tree holds optional native packages (cbor-extract's
 * prebuilds) that not every registry mirror carries, and `npm ci` refuses a lockfile that
 * lacks them. So the bench installs it from the npm registry into a cache folder of its own
 * the first time (`npm install --prefix`), and loads it from there. 1.8.0 is the newest release
 * that runs on Node 20 (2.x and 3.x need Node 22).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const LIB_SOURCIFY_VERSION = '1.8.0';

/** What the bench uses of lib-sourcify 1.x. */
export interface LibSourcify {
  setLibSourcifyLoggerLevel(level: number): void;
  SourcifyChain: new (options: { name: string; chainId: number; rpc: string[]; supported: boolean }) => SourcifyChainLike;
  CheckedContract: new (
    compiler: { compile(version: string, input: unknown): Promise<unknown> },
    metadata: unknown,
    sources: Record<string, string>,
  ) => unknown;
  verifyDeployed(
    checked: unknown,
    chain: SourcifyChainLike,
    address: string,
    creatorTxHash?: string,
  ): Promise<{ runtimeMatch?: string | null; creationMatch?: string | null }>;
}

// biome-ignore lint/suspicious/noEmptyInterface: an opaque handle the bench only passes back
export interface SourcifyChainLike {}

/** Loads lib-sourcify from `cacheDir`, installing it there from the npm registry first when missing. */
export function loadLibSourcify(cacheDir: string, log: (line: string) => void): LibSourcify {
  const dir = join(cacheDir, `lib-sourcify-${LIB_SOURCIFY_VERSION}`);
  const entry = join(dir, 'node_modules', '@ethereum-sourcify', 'lib-sourcify', 'package.json');
  if (!existsSync(entry)) {
    mkdirSync(dir, { recursive: true });
    log(`installing @ethereum-sourcify/lib-sourcify@${LIB_SOURCIFY_VERSION} from the npm registry into ${dir} (once)`);
    execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `@ethereum-sourcify/lib-sourcify@${LIB_SOURCIFY_VERSION}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return createRequire(join(dir, 'package.json'))('@ethereum-sourcify/lib-sourcify') as LibSourcify;
}
