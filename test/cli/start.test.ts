import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { CLI, cleanEnv, newDataDir, startService } from '../helpers/service.js';

const run = promisify(execFile);

describe('solproof start', () => {
  it('without --rpc-url starts a local devnet and says where, with funded keys', async () => {
    const service = await startService({ seedCompilers: false });
    try {
      const out = service.output();
      const url = /started a local devnet \(anvil\) at (http:\/\/127\.0\.0\.1:\d+), chain id 31337/.exec(out)?.[1];
      expect(url, out).toBeDefined();
      expect(out).toMatch(/0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 {2}private key 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80/);
      expect(out).toMatch(/solproof is serving chain 31337 at http:\/\/127\.0\.0\.1:\d+\/api/);
      const res = await fetch(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(((await res.json()) as { result: string }).result).toBe('0x7a69');
    } finally {
      await service.stop();
    }
  });

  it('refuses a node of another chain than --chain-id, and unknown options, with a clear message', async () => {
    const dataDir = await newDataDir(false);
    const args = [CLI, 'start', '--data-dir', dataDir, '--rpc-url', inject('rpcUrl'), '--chain-id', '1', '--port', '0'];
    await expect(run(process.execPath, args, { env: cleanEnv() })).rejects.toMatchObject({
      stderr: expect.stringMatching(/serves chain id 31337, but this service is configured for chain id 1/),
    });
    await expect(run(process.execPath, [CLI, 'start', '--bogus', 'x'], { env: cleanEnv() })).rejects.toMatchObject({
      stderr: expect.stringMatching(/unknown option --bogus/),
    });
    await expect(run(process.execPath, [CLI, 'start', '--port', 'eighty'], { env: cleanEnv() })).rejects.toMatchObject({
      stderr: expect.stringMatching(/--port \(PORT\) must be a whole number/),
    });
  });

  it('a node that cannot be reached at start is named as such', async () => {
    const dataDir = await newDataDir(false);
    const args = [CLI, 'start', '--data-dir', dataDir, '--rpc-url', 'http://127.0.0.1:9', '--port', '0'];
    await expect(run(process.execPath, args, { env: cleanEnv(), timeout: 60_000 })).rejects.toMatchObject({
      stderr: expect.stringMatching(/network node could not be reached/i),
    });
  });
});
