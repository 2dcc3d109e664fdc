import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (src/**, next to the code: no anvil, no running service; PostgreSQL
 * and Redis where the unit is about them), `integration` (test/**: one anvil and one running
 * service for the whole suite, started by the global setup), and `alone`: files that need the
 * machine to themselves, run once the other two are done.
 * `npm test` runs all three; `npx vitest run --project unit` only the units.
 */
/** Test files that run after every other one, alone (each starts its own devnet and service). */
const ALONE = ['test/bytecodeDatabase/storage.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores: compilers are CPU-bound, so run few files at once.
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ALONE, globalSetup: ['test/globalSetup.ts'] } },
      // After the others, with nothing beside it: it sends a thousand deployments to a devnet of its
      // own, and under the whole suite's load they were not all mined in five minutes.
      { extends: true, test: { name: 'alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
