import type { Config } from '../core/config.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../store/apiKeys.js';
import type { ApiKeyTier } from '../store/database.js';
import { openStore } from '../store/openStore.js';
import { quotaUsageToday } from '../store/quotas.js';

const out = (line: string): void => void process.stdout.write(`${line}\n`);

/** `solproof keys create|list|revoke`. Returns the exit code. */
export async function keys(config: Config, words: string[], flags: { owner?: string | undefined; tier?: string | undefined }): Promise<number> {
  const [sub, arg] = words;
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    switch (sub) {
      case 'create': {
        const tier = (flags.tier ?? 'free') as ApiKeyTier;
        if (tier !== 'free' && tier !== 'pro') {
          process.stderr.write('--tier must be free or pro\n');
          return 2;
        }
        const { id, key } = await createApiKey(store.db, { owner: flags.owner, tier });
        out(`Created API key ${id} (tier ${tier}${flags.owner ? `, owner ${flags.owner}` : ''}). It is shown only this once:`);
        out(key);
        return 0;
      }
      case 'list': {
        const rows = await listApiKeys(store.db);
        const usage = await quotaUsageToday(store.db);
        // LAST USED is at most a second behind (written at most once a second per key); the day's counts are exact (UTC day).
        out(
          ['ID', 'PREFIX', 'OWNER', 'TIER', 'CREATED', 'LAST USED', 'REVOKED', 'VERIFY TODAY', 'PROXY TODAY', 'DRY RUNS TODAY', 'DIAGNOSES TODAY'].join('\t'),
        );
        for (const k of rows) {
          const t = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
          const today = usage.get(k.id) ?? { verify: 0, proxy: 0, dry_run: 0, diagnosis: 0 };
          out(
            [
              k.id,
              `${k.keyPrefix}...`,
              k.owner ?? '-',
              k.tier,
              t(k.createdAt),
              t(k.lastUsedAt),
              t(k.revokedAt),
              today.verify,
              today.proxy,
              today.dry_run,
              today.diagnosis,
            ].join('\t'),
          );
        }
        return 0;
      }
      case 'revoke': {
        if (!arg) {
          process.stderr.write('usage: solproof keys revoke KEY_ID\n');
          return 2;
        }
        if (!(await revokeApiKey(store.db, arg))) {
          process.stderr.write(`no active key with id ${arg}\n`);
          return 1;
        }
        out(`Revoked ${arg}`);
        return 0;
      }
      default:
        process.stderr.write('usage: solproof keys create [--owner NAME] [--tier free|pro] | keys list | keys revoke KEY_ID\n');
        return 2;
    }
  } finally {
    await store.close();
  }
}
