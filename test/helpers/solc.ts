import { createRequire } from 'node:module';
import type { Compiler, SolcInput, SolcOutput } from '../../src/verify/index.js';

const require = createRequire(import.meta.url);

interface SolcJs {
  compile(input: string, ...rest: unknown[]): string;
  compileStandardWrapper?: (input: string) => string;
}

const loaded = new Map<string, SolcJs>();

/** The npm alias for an exact solc version, as installed in devDependencies (`solc` itself is 0.8.28). */
export const SOLC_PACKAGES: Record<string, string> = {
  '0.4.11': 'solc-0.4.11',
  '0.4.26': 'solc-0.4.26',
  '0.5.17': 'solc-0.5.17',
  '0.6.12': 'solc-0.6.12',
  '0.7.6': 'solc-0.7.6',
  // solc@0.8.7 holds 0.7.5: the alias installs solc@0.8.7-fixed, which holds 0.8.7.
  '0.8.7': 'solc-0.8.7',
  '0.8.10': 'solc-0.8.10',
  '0.8.18': 'solc-0.8.18',
  '0.8.26': 'solc-0.8.26',
  '0.8.28': 'solc',
  '0.8.29': 'solc-0.8.29',
};

/** The installed package for a long version (`0.8.26+commit.8a97fa7a`, with or without `v`). */
export function solcPackageFor(version: string): string {
  const short = /^v?(\d+\.\d+\.\d+)/.exec(version)?.[1];
  const pkg = short ? SOLC_PACKAGES[short] : undefined;
  if (!pkg) throw new Error(`no solc package installed for ${version}`);
  return pkg;
}

/**
 * Compiles a standard JSON input in-process with one of the installed solc-js packages, the
 * way a developer's own toolchain would when producing the code a test deploys.
 */
export function compileForTest(solcPackage: string, input: SolcInput): SolcOutput {
  let solc = loaded.get(solcPackage);
  if (!solc) {
    solc = require(solcPackage) as SolcJs;
    loaded.set(solcPackage, solc);
  }
  // Wrappers before 0.5 take standard JSON only through compileStandardWrapper.
  const compile = solc.compileStandardWrapper ?? solc.compile;
  return JSON.parse(compile.call(solc, JSON.stringify(input))) as SolcOutput;
}

/**
 * A `Compiler` (the verify port) backed by the installed solc-js packages, compiling each
 * distinct input once. `calls` counts real compilations.
 */
export function inProcessCompiler(): Compiler & { calls: number } {
  const cache = new Map<string, SolcOutput>();
  const compiler = {
    calls: 0,
    async compile(version: string, input: SolcInput): Promise<SolcOutput> {
      const key = `${version}\n${JSON.stringify(input)}`;
      let out = cache.get(key);
      if (!out) {
        compiler.calls++;
        out = compileForTest(solcPackageFor(version), input);
        cache.set(key, out);
      }
      return out;
    },
  };
  return compiler;
}
