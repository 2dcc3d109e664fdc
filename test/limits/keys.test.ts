import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiGet, apiPost } from '../helpers/api.js';
import { CLI, cleanEnv, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ZERO = '0x0000000000000000000000000000000000000000';

/** Runs `solproof keys ...` against a data dir; never throws on a non-zero exit. */
async function keysCli(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, 'keys', ...args, '--data-dir', dataDir], { env: cleanEnv() });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

describe('solproof keys', () => {
  let dataDir: string;
  let service: RunningService;
  beforeAll(async () => {
    dataDir = await newDataDir(false);
    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir });
  });
  afterAll(async () => service?.stop());

  it('create prints the key once, list shows owner, tier, created and last used but never the key, revoke disables it at once', async () => {
    const beforeCreate = Date.now();
    const created = await keysCli(dataDir, ['create', '--owner', 'alice', '--tier', 'pro']);
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    const key = lines[lines.length - 1]!.trim();
    expect(key).toMatch(/^[A-Z0-9]{34}$/);
    const id = /Created API key (key_[a-z0-9]{16}) \(tier pro, owner alice\)/.exec(created.stdout)?.[1];
    expect(id, created.stdout).toBeDefined();

    // Used through the running service: OK with the key (not the keyless note).
    const beforeUse = Date.now();
    const read = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: key });
    expect(read.message).toBe('OK');

    const listed = await keysCli(dataDir, ['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key);
    const row = listed.stdout
      .split('\n')
      .find((l) => l.startsWith(id!))!
      .split('\t');
    const header = listed.stdout.split('\n')[0]!.split('\t');
    const field = (name: string) => row[header.indexOf(name)];
    expect(field('OWNER')).toBe('alice');
    expect(field('TIER')).toBe('pro');
    // Each time is when it happened: between the moments the test did it and listed it.
    expect(Date.parse(field('CREATED')!)).toBeGreaterThanOrEqual(beforeCreate);
    expect(Date.parse(field('CREATED')!)).toBeLessThanOrEqual(beforeUse);
    expect(Date.parse(field('LAST USED')!)).toBeGreaterThanOrEqual(beforeUse);
    expect(Date.parse(field('LAST USED')!)).toBeLessThanOrEqual(Date.now());
    expect(field('REVOKED')).toBe('-');

    const beforeRevoke = Date.now();
    const revoked = await keysCli(dataDir, ['revoke', id!]);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked ${id}\n` });
    // The very next requests, on the service that was running all along.
    expect(await apiPost(service.apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: key, contractaddress: ZERO })).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Invalid API Key',
    });
    const after = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: key });
    expect(after.message).toBe('OK-Missing/Invalid API Key, rate limit of 1/5sec applied');
    const relisted = await keysCli(dataDir, ['list']);
    const revokedRow = relisted.stdout
      .split('\n')
      .find((l) => l.startsWith(id!))!
      .split('\t');
    expect(Date.parse(revokedRow[header.indexOf('REVOKED')]!)).toBeGreaterThanOrEqual(beforeRevoke);
    expect(Date.parse(revokedRow[header.indexOf('REVOKED')]!)).toBeLessThanOrEqual(Date.now());

    expect(await keysCli(dataDir, ['revoke', id!])).toMatchObject({ code: 1, stderr: `no active key with id ${id}\n` });
  });

  it('the store holds only a hash of each key', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const out = (await keysCli(dataDir, ['create', '--owner', `owner${i}`])).stdout.trim().split('\n');
      keys.push(out[out.length - 1]!.trim());
    }
    // Every byte the database keeps on disk: the main file and its write-ahead log.
    const files = readdirSync(dataDir).filter((f) => f.startsWith('solproof.sqlite'));
    expect(files).toContain('solproof.sqlite');
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dataDir, f))));
    const db = new Database(join(dataDir, 'solproof.sqlite'), { readonly: true });
    try {
      const hashes = new Set((db.prepare('select key_hash from api_keys').all() as { key_hash: string }[]).map((r) => r.key_hash));
      for (const key of keys) {
        expect(bytes.includes(Buffer.from(key))).toBe(false);
        expect(bytes.includes(Buffer.from(key.toLowerCase()))).toBe(false);
        expect(hashes.has(createHash('sha256').update(key).digest('hex'))).toBe(true);
      }
    } finally {
      db.close();
    }
  });

  it('refuses an unknown tier and a revoke without an id', async () => {
    expect(await keysCli(dataDir, ['create', '--tier', 'gold'])).toMatchObject({ code: 2, stderr: '--tier must be free or pro\n' });
    expect(await keysCli(dataDir, ['revoke'])).toMatchObject({ code: 2, stderr: 'usage: solproof keys revoke KEY_ID\n' });
  });
});
