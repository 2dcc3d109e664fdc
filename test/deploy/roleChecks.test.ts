import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, cleanEnv, newDataDir } from '../helpers/service.js';

const run = async (args: string[], env: Record<string, string> = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...cleanEnv(), ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
};

describe('roles the configuration cannot run are refused at start, saying why', () => {
  for (const role of ['api', 'worker']) {
    it(`--role ${role} on SQLite`, async () => {
      const dataDir = await newDataDir(false);
      const { code, stderr } = await run(['start', '--role', role, '--data-dir', dataDir, '--rpc-url', 'http://127.0.0.1:1']);
      expect(code).toBe(1);
      expect(stderr).toContain(`--role ${role} (SOLPROOF_ROLE) needs PostgreSQL (--database-url, DATABASE_URL)`);
      expect(stderr).toContain('only --role all is allowed');
    });
  }

  it('SOLPROOF_ROLE is read like the flag, and an unknown role is named', async () => {
    const dataDir = await newDataDir(false);
    const fromEnv = await run(['start', '--data-dir', dataDir], { SOLPROOF_ROLE: 'worker' });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('--role worker (SOLPROOF_ROLE) needs PostgreSQL');
    const unknown = await run(['start', '--data-dir', dataDir, '--role', 'compiler']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--role (SOLPROOF_ROLE) must be all, api or worker, got "compiler"');
  });
});
