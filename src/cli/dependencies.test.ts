import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the dependencies and package.json engines agree', () => {
  // What a user runs first: npm ci warned that cookie@2.0.2 (light-my-request 6.8's, under
  // fastify) needs Node 22 while engines say 20. npm's own dry run, offline, in a copy of the
  // package files, lists every package whose engines refuse the Node running it.
  it('npm ci on this Node installs no package whose engines refuse it', async () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=20');
    const dir = mkdtempSync(join(tmpdir(), 'solproof-engines-'));
    try {
      for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, f), join(dir, f));
      const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(`${stdout}${stderr}`).toMatch(/added \d+ packages/);
      expect(stderr).not.toContain('EBADENGINE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
