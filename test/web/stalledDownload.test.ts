/**
 * A client that starts the CSV download and then stops reading (a stalled browser, a paused
 * curl) must not keep the service from shutting down. The store holds enough verified contracts
 * that the CSV cannot fit in the sockets' buffers, so the download is still being written when
 * the service is told to stop: the service ends it and exits on its own (no SIGKILL), and the
 * client sees a cut-off download, not a complete one.
 */
import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { insertVerifiedContracts } from '../../src/store/verifiedContracts.js';
import { type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, sampleVerifiedContract, saveSampleDocuments, type TestDatabase } from '../helpers/testDatabase.js';

const CONTRACTS = 150_000; // about 18 MB of CSV: more than loopback sockets buffer
const address = (i: number): `0x${string}` => `0x${(i + 1).toString(16).padStart(40, '0')}`;

let tdb: TestDatabase;
let service: RunningService | undefined;

beforeAll(async () => {
  tdb = await createTestDatabase('sqlite');
  const store = await tdb.open();
  try {
    await saveSampleDocuments(store.db);
    const base = Date.now() - CONTRACTS;
    for (let start = 0; start < CONTRACTS; start += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, CONTRACTS - start) }, (_, j) =>
        sampleVerifiedContract(address(start + j), { verifiedAt: base + start + j }),
      );
      await insertVerifiedContracts(store.db, batch);
    }
  } finally {
    await store.close();
  }
  service = await startService({ dataDir: tdb.dataDir, rpcUrl: inject('rpcUrl'), args: ['--follow-chain', 'false'] });
}, 180_000);

afterAll(async () => {
  await service?.kill();
  await tdb?.dispose();
});

it('a CSV download the client stopped reading is ended when the service shuts down', async () => {
  const running = service!;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(`${running.baseUrl}/verified-contracts.csv`, resolve).once('error', reject);
  });
  expect(response.statusCode).toBe(200);
  // Read the first chunk, then stop reading: the server's writes back up behind it.
  let received = 0;
  await new Promise<void>((resolve) =>
    response.once('data', (chunk: Buffer) => {
      received += chunk.length;
      resolve();
    }),
  );
  response.pause();
  await new Promise((r) => setTimeout(r, 1000));
  const ended = new Promise<{ complete: boolean }>((resolve) => {
    response.once('close', () => resolve({ complete: response.complete }));
    response.once('error', () => undefined);
  });

  const t0 = performance.now();
  await running.stop(); // SIGTERM; the helper sends SIGKILL only after 15 s
  console.log(`service with a stalled CSV download stopped in ${(performance.now() - t0).toFixed(0)} ms`);
  expect(running.process.signalCode, 'the service had to be killed').toBeNull();
  expect(running.process.exitCode).toBe(0);

  response.on('data', (chunk: Buffer) => (received += chunk.length));
  response.resume();
  const { complete } = await ended;
  expect(complete, 'the download finished before the stop: the test did not stall it').toBe(false);
  expect(received).toBeGreaterThan(0);
  service = undefined;
}, 60_000);
