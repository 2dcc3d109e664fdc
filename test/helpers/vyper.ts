/**
 * The Vyper compilers the tests use: one Python virtual environment per release in `.vyper/`,
 * installed from PyPI by scripts/install-vyper.mjs (`npm test` runs it first). One compiler
 * service over that directory is shared by a test file's tests.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVyperCompiler, type VyperCompilerService } from '../../src/compilers/index.js';
import type { Hex, VyperInput } from '../../src/core/types.js';
import { VYPER_CONTRACT_OUTPUTS, type VyperContractOutput, type VyperOutput } from '../../src/verify/index.js';
import { available } from './requirements.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where scripts/install-vyper.mjs installs the compilers. */
export const VYPER_DIR = join(ROOT, '.vyper');

/** The releases it installs. */
export const VYPER_VERSIONS: readonly string[] = (JSON.parse(readFileSync(join(ROOT, 'scripts', 'vyper-versions.json'), 'utf8')) as { versions: string[] })
  .versions;

/** Why the Vyper tests cannot run, or null when every release is installed. */
export function vyperProblem(): string | null {
  const missing = VYPER_VERSIONS.filter((v) => !existsSync(join(VYPER_DIR, v, '.installed')));
  return missing.length === 0 ? null : `Vyper ${missing.join(', ')} not installed in ${VYPER_DIR} (run node scripts/install-vyper.mjs)`;
}

/** Whether the Vyper tests can run (throws under SOLPROOF_REQUIRE=vyper when they cannot). */
export function vyperAvailable(): boolean {
  return available('vyper', vyperProblem());
}

let shared: VyperCompilerService | undefined;

/**
 * The compiler service over the installed compilers, without downloads (the tests talk to
 * 127.0.0.1 only). A file compiles each distinct input once: what a test deploys and what the
 * verification then compiles are the same input (Python's start-up is most of a compile's time).
 * Its `stats().compiles` counts the compiles that really ran.
 */
export function testVyperCompiler(): VyperCompilerService {
  if (shared) return shared;
  const real = createVyperCompiler({
    cacheDir: mkdtempSync(join(tmpdir(), 'solproof-vyper-cache-')),
    localDir: VYPER_DIR,
    releaseListUrl: null,
    maxThreads: 2,
    timeoutMs: 120_000,
  });
  const outputs = new Map<string, Promise<VyperOutput>>();
  shared = {
    ...real,
    async compile(version, input, signal) {
      // One key for every spelling of a release (vyper:0.4.3, 0.4.3+commit.bff19ea2).
      const key = `${(await real.resolve(version)).longVersion}\n${JSON.stringify(input)}`;
      let output = outputs.get(key);
      if (!output) {
        output = real.compile(version, input, signal);
        outputs.set(key, output);
        // A failed compile (cancelled, timed out) is tried again next time.
        output.catch(() => outputs.delete(key));
      }
      return output;
    },
  };
  return shared;
}

/** A Vyper input of these files, asking for the contract at `path`. */
export function vyperInput(
  files: Record<string, string>,
  path: string,
  settings: VyperInput['settings'] = {},
  interfaces?: Record<string, string>,
): VyperInput {
  return {
    language: 'Vyper',
    sources: Object.fromEntries(Object.entries(files).map(([p, content]) => [p, { content }])),
    ...(interfaces ? { interfaces: Object.fromEntries(Object.entries(interfaces).map(([p, content]) => [p, { content }])) } : {}),
    settings: { ...settings, outputSelection: { [path]: [...VYPER_CONTRACT_OUTPUTS] } },
  };
}

/** What a developer's own toolchain would deploy: the contract's init code and ABI, compiled by the real compiler. */
export async function compileVyperForTest(version: string, input: VyperInput, path: string): Promise<{ abi: unknown[]; bytecode: Hex; runtime: Hex }> {
  const output: VyperOutput = await testVyperCompiler().compile(version, input);
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`vyper ${version}: ${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`);
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.vy$/, '');
  const contract: VyperContractOutput | undefined = output.contracts?.[path]?.[name];
  if (!contract) throw new Error(`vyper ${version}: no ${path}:${name} in the output`);
  const hex = (code: string | undefined): Hex => `0x${(code ?? '').replace(/^0x/, '')}`;
  return { abi: contract.abi ?? [], bytecode: hex(contract.evm?.bytecode?.object), runtime: hex(contract.evm?.deployedBytecode?.object) };
}

/** A module of the capped counter fixtures (0.4): a pure helper the counter imports. */
export const CAPPED = `@internal
@pure
def add_capped(a: uint256, b: uint256, cap: uint256) -> uint256:
    return min(a + b, cap)
`;

/** The greeter interface the counter fixtures call, as a 0.4 `.vyi` file. */
export const IGREETER_VYI = `@external
@view
def greet() -> String[32]:
    ...
`;

/** The same interface for 0.3.x, passed in the input's `interfaces`. */
export const IGREETER_03 = `@external
@view
def greet() -> String[32]:
    pass
`;
