import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleVerifiedContract, saveSampleDocuments } from '../../test/helpers/testDatabase.js';
import { openStore } from '../store/openStore.js';
import { insertVerifiedContracts } from '../store/verifiedContracts.js';

const CLI = path.resolve('dist/cli/main.js');
const run = promisify(execFile);

describe('solproof store stats', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'solproof-stats-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the contracts, the distinct compilations and sources, and the bytes on disk', async () => {
    const store = await openStore({ dataDir });
    await saveSampleDocuments(store.db);
    await insertVerifiedContracts(
      store.db,
      [1, 2, 3].map((i) => sampleVerifiedContract(`0x${String(i).padStart(40, '0')}`)),
    );
    await store.close();
    const { stdout } = await run(process.execPath, [CLI, 'store', 'stats', '--data-dir', dataDir]);
    const lines = new Map(
      stdout
        .trim()
        .split('\n')
        .map((l) => [l.split('\t')[0]!, l.split('\t')[1]!]),
    );
    expect(lines.get('database')).toBe('sqlite');
    expect(lines.get('verified contracts')).toBe('3');
    expect(lines.get('compilations')).toBe('1');
    expect(lines.get('sources')).toBe('1');
    expect(Number(lines.get('bytes'))).toBeGreaterThan(0);
  });

  it('names its usage for an unknown word', async () => {
    const failed = await run(process.execPath, [CLI, 'store', 'size', '--data-dir', dataDir]).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('usage: solproof store stats');
  });
});
