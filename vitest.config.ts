import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores: compilers are CPU-bound, so run few files at once.
    maxWorkers: 2,
    pool: 'forks',
  },
});
