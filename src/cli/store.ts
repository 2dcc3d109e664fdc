import type { Config } from '../core/config.js';
import { openStore } from '../store/openStore.js';
import { storeStats } from '../store/storeStats.js';

const out = (line: string): void => void process.stdout.write(`${line}\n`);

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** `solproof store stats`: what the store holds and its size on disk. Returns the exit code. */
export async function storeCommand(config: Config, words: string[]): Promise<number> {
  const [sub] = words;
  if (sub !== 'stats' || words.length > 1) {
    process.stderr.write('usage: solproof store stats\n');
    return 2;
  }
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
