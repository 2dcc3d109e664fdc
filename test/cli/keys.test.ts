import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiGet } from '../helpers/api.js';
import { CLI, cleanEnv, createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const run = promisify(execFile);

/** The LAST USED column of `keys list` for the key whose prefix is given (epoch ms; null for '-'). */
async function lastUsed(dataDir: string, key: string): Promise<number | null> {
  const { stdout } = await run(process.execPath, [CLI, 'keys', 'list', '--data-dir', dataDir], { env: cleanEnv() });
  const lines = stdout.trim().split('\n');
  const column = lines[0]!.split('\t').indexOf('LAST USED');
  const row = lines.find((line) => line.split('\t')[1] === `${key.slice(0, 6)}...`);
  const value = row?.split('\t')[column];
  return value === undefined || value === '-' ? null : Date.parse(value);
}

describe('keys list', () => {
  let service: RunningService;
  let dataDir: string;
  let key: string;

  beforeAll(async () => {
    dataDir = await newDataDir(false);
    key = await createKey(dataDir);
    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir });
  });
  afterAll(async () => service?.stop());

  it('"last used" follows the latest use, also one right after another (it is written within a second)', async () => {
    expect(await lastUsed(dataDir, key)).toBeNull();
    const read = () => apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address: '0x000000000000000000000000000000000000dEaD', apikey: key });
    await read();
    // Uses in quick succession: the last of them is the one that must show.
    await read();
    const beforeLast = Date.now();
    await read();
    let shown: number | null = null;
    for (let i = 0; i < 50 && (shown === null || shown < beforeLast); i++) {
      shown = await lastUsed(dataDir, key);
      if (shown === null || shown < beforeLast) await new Promise((r) => setTimeout(r, 200));
    }
    expect(shown).not.toBeNull();
    expect(shown!).toBeGreaterThanOrEqual(beforeLast);
    expect(shown!).toBeLessThanOrEqual(Date.now());
  });
});
