import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (src/**, next to the code: no anvil, no running service; PostgreSQL
 * and Redis where the unit is about them) and `integration` (test/**: one anvil and one
 * running service for the whole suite, started by the global setup).
 * `npm test` runs both; `npx vitest run --project unit` only the units.
 */
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores: compilers are CPU-bound, so run few files at once.
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], globalSetup: ['test/globalSetup.ts'] } },
    ],
  },
});
