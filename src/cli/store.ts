import { join } from 'node:path';
import { CompilerCache, createSolcCompiler, seedInstalledSolc } from '../compilers/index.js';
import type { Config } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { openStore } from '../store/openStore.js';
import { storeStats } from '../store/storeStats.js';
import { backfillLayouts, type LayoutBackfillTally } from '../useCases/backfillLayouts.js';

const out = (line: string): void => void process.stdout.write(`${line}\n`);

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const USAGE = 'usage: solproof store stats | solproof store layouts\n';

/** `solproof store stats` and `solproof store layouts`. Returns the exit code. */
export async function storeCommand(config: Config, words: string[]): Promise<number> {
  const [sub] = words;
  if ((sub !== 'stats' && sub !== 'layouts') || words.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  return sub === 'stats' ? stats(config) : layouts(config);
}

/** What the store holds and its size on disk. */
async function stats(config: Config): Promise<number> {
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const s = await storeStats(store.db, store.dialect, config.dataDir);
    out(`database\t${s.dialect}`);
    out(`verified contracts\t${s.verifiedContracts}`);
    out(`compilations\t${s.compilations}`);
    out(`compiled contracts\t${s.compiledContracts}`);
    out(`sources\t${s.sources}`);
    out(`input documents\t${s.inputDocuments}`);
    out(`deployments\t${s.deployments}`);
    out(`bytes\t${s.bytes}\t(${mib(s.bytes)})`);
    if (s.verifiedContracts > 0) out(`bytes per verified contract\t${Math.round(s.bytes / s.verifiedContracts)}`);
    for (const p of s.parts) out(`  ${p.name}\t${p.bytes}`);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * The storage layouts of contracts verified before they were kept: their compilations compiled
 * again with the service's compilers and limits (the same cache and sources as `start`). It can
 * run beside a running service; a layout is written only where there is none.
 */
async function layouts(config: Config): Promise<number> {
  const logger = createLogger(process.env.SOLPROOF_LOG_LEVEL ?? 'warn');
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, logger });
  const cacheDir = join(config.dataDir, 'compilers');
  const compiler = createSolcCompiler({
    cacheDir,
    mirrorUrl: config.solcMirrorUrl || null,
    npmRegistryUrl: config.npmRegistryUrl || null,
    maxThreads: 1,
    timeoutMs: config.compileTimeoutMs,
    maxMemoryMb: config.compileMemoryMb,
    warmMemoryMb: config.warmCompilersMb,
    warmUpCompiles: 0,
    logger,
  });
  try {
    await seedInstalledSolc(new CompilerCache(cacheDir), compiler.releases.lookup);
    let last = 0;
    const tally = await backfillLayouts({ store, compiler }, (t) => {
      if (Date.now() - last < 2000) return;
      last = Date.now();
      process.stderr.write(`… ${t.compilations} compilations read, ${t.filled} contracts given their layouts\n`);
    });
    report(tally);
    return tally.failed.length > 0 ? 1 : 0;
  } finally {
    await compiler.close();
    await store.close();
  }
}

function report(t: LayoutBackfillTally): void {
  out(`compilations without a layout\t${t.compilations}`);
  out(`contracts given their layouts\t${t.filled}`);
  const why = { vyper: 'Vyper (no layout)', not_solidity: 'not Solidity (no layout)', compiler_too_old: 'solc before 0.5.13 (no layout)' } as const;
  for (const [reason, count] of Object.entries(t.noLayout)) out(`passed over: ${why[reason as keyof typeof why]}\t${count}`);
  if (t.notReproduced > 0) out(`not reproduced by a new compile (left without)\t${t.notReproduced}`);
  for (const f of t.failed) out(`compilation ${f.compilationId} failed\t${f.error}`);
}
