/**
 * What some tests need from the machine: PostgreSQL, Redis, Debian's Chromium, the Vyper
 * compilers from PyPI (scripts/install-vyper.mjs). Where one is missing its tests are skipped
 * with a warning, unless SOLPROOF_REQUIRE names it (`.ci/run` sets postgres,redis,chromium,vyper):
 * then the test file fails, so a green run proves the tests ran.
 */
export type Requirement = 'postgres' | 'redis' | 'chromium' | 'vyper';

const REQUIRED = new Set(
  (process.env.SOLPROOF_REQUIRE ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean),
);

/**
 * Whether the tests needing `what` can run: true when `problem` is null. Otherwise warns that
 * they are skipped, or throws (failing the file) when SOLPROOF_REQUIRE names `what`.
 */
export function available(what: Requirement, problem: string | null): boolean {
  if (problem === null) return true;
  if (REQUIRED.has(what)) throw new Error(`${what} is required (SOLPROOF_REQUIRE=${process.env.SOLPROOF_REQUIRE}) but ${problem}`);
  console.warn(`${what} tests skipped: ${problem}`);
  return false;
}
