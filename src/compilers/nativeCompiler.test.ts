/**
 * Native builds cannot be downloaded here, so these tests put stand-in executables in the
 * cache under native file names. The main one is a real compiler with the native CLI's
 * contract (`--standard-json`, input on stdin, output on stdout) built on the solc 0.8.26
 * package; the others misbehave on purpose (hang, crash, eat memory).
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompilerCache } from '../../test/helpers/compilerCache.js';
import { rejection } from '../../test/helpers/rejection.js';
import { errorSentence } from '../texts/index.js';
import type { SolcInput } from '../verify/index.js';
import { createSolcCompiler, type SolcCompiler } from './solcCompiler.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const input: SolcInput = {
  language: 'Solidity',
  sources: {
    'Token.sol': {
      content:
        'pragma solidity >=0.6.0;\ncontract Token { mapping(address => uint) public balanceOf; function mint() public { balanceOf[msg.sender] += 1; } }\n',
    },
  },
  settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
};

/** Whether a process is still there (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function executable(path: string, text: string): Promise<void> {
  await writeFile(path, text);
  await chmod(path, 0o755);
}

let cacheDir: string;
let versions: Record<string, string>;
const compilers: SolcCompiler[] = [];

function compilerWith(options: Partial<Parameters<typeof createSolcCompiler>[0]> = {}): SolcCompiler {
  const c = createSolcCompiler({ cacheDir, mirrorUrl: null, npmRegistryUrl: null, maxThreads: 1, useNative: true, warmUpCompiles: 0, ...options });
  compilers.push(c);
  return c;
}

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'solproof-native-'));
  versions = await seedCompilerCache(cacheDir, ['0.8.26', '0.6.12']);
  const node = process.execPath;
  await executable(
    join(cacheDir, `solc-linux-amd64-v${versions['0.8.26']}`),
    `#!${node}\n` +
      `if (!process.argv.includes('--standard-json')) process.exit(2);\n` +
      `const solc = require(${JSON.stringify(join(root, 'node_modules', 'solc-0.8.26'))});\n` +
      `process.stdout.write(solc.compile(require('fs').readFileSync(0, 'utf8')));\n`,
  );
  // Before 0.8.8 native solc may read files outside its base path: the soljson build is used.
  await executable(join(cacheDir, `solc-linux-amd64-v${versions['0.6.12']}`), '#!/bin/sh\nexit 99\n');
  await executable(join(cacheDir, 'solc-linux-amd64-v0.9.1+commit.00000001'), '#!/bin/sh\nexec sleep 30\n');
  await executable(join(cacheDir, 'solc-linux-amd64-v0.9.2+commit.00000002'), '#!/bin/sh\necho "Segmentation fault in the optimizer" >&2\nexit 3\n');
  // Says where it runs, then hangs: a test can see that it was really killed.
  await executable(join(cacheDir, 'solc-linux-amd64-v0.9.4+commit.00000004'), `#!/bin/sh\necho $$ > "${join(cacheDir, 'hanging.pid')}"\nexec sleep 60\n`);
  await executable(
    join(cacheDir, 'solc-linux-amd64-v0.9.3+commit.00000003'),
    `#!${node}\nconst held = [];\nsetInterval(() => held.push(Buffer.alloc(32 << 20, 1)), 20);\n`,
  );
});

afterAll(async () => {
  await Promise.all(compilers.map((c) => c.close()));
  await rm(cacheDir, { recursive: true, force: true });
});

describe('native compilers', () => {
  it('prefers a cached native build and gets the same bytecode as the soljson build', async () => {
    const native = compilerWith();
    expect(await native.resolve(versions['0.8.26']!)).toEqual({
      kind: 'native',
      path: join(cacheDir, `solc-linux-amd64-v${versions['0.8.26']}`),
      longVersion: versions['0.8.26'],
    });
    const wasm = compilerWith({ useNative: false });
    expect((await wasm.resolve(versions['0.8.26']!)).kind).toBe('soljson');

    const [fromNative, fromWasm] = await Promise.all([native.compile(versions['0.8.26']!, input), wasm.compile(versions['0.8.26']!, input)]);
    const bytecode = fromNative.contracts?.['Token.sol']?.Token?.evm?.bytecode?.object;
    expect(bytecode).toMatch(/^6080/);
    expect(bytecode).toBe(fromWasm.contracts?.['Token.sol']?.Token?.evm?.bytecode?.object);
  });

  it('uses the soljson build for versions before 0.8.8 even when a native one is cached', async () => {
    const compiler = compilerWith();
    expect((await compiler.resolve(versions['0.6.12']!)).kind).toBe('soljson');
    const output = await compiler.compile(versions['0.6.12']!, input);
    expect(output.contracts?.['Token.sol']?.Token?.evm?.bytecode?.object).toMatch(/^6080/);
  });

  it('kills a native compiler at the time limit', async () => {
    const e = await rejection(compilerWith({ timeoutMs: 1_000 }).compile('0.9.1+commit.00000001', input));
    expect(e.code).toBe('compile_timeout');
    expect(errorSentence(e)).toBe('Compilation exceeded the time limit of 1 s');
  });

  it("kills a native compiler when its caller's signal fires", async () => {
    const compiler = compilerWith({ timeoutMs: 120_000 });
    const caller = new AbortController();
    const compiling = rejection(compiler.compile('0.9.4+commit.00000004', input, caller.signal));
    let pid = 0;
    while (!pid) {
      pid = Number((await readFile(join(cacheDir, 'hanging.pid'), 'utf8').catch(() => '')).trim());
      if (!pid) await new Promise((r) => setTimeout(r, 20));
    }
    expect(alive(pid)).toBe(true);
    caller.abort();
    const e = await compiling;
    expect(e.code).toBe('compile_cancelled');
    // The process is gone (reaped before the compile answered), not left to run out its minute.
    expect(alive(pid)).toBe(false);
    expect(compiler.stats()).toMatchObject({ cancelled: 1, timeouts: 0, crashes: 0, running: 0 });
    // The slot is free again.
    expect((await compiler.compile(versions['0.8.26']!, input)).contracts?.['Token.sol']?.Token?.evm?.bytecode?.object).toMatch(/^6080/);
  });

  it('reports a native compiler that dies as compiler_crashed, with its last words', async () => {
    const e = await rejection(compilerWith().compile('0.9.2+commit.00000002', input));
    expect(e.code).toBe('compiler_crashed');
    expect(errorSentence(e)).toBe('The compiler crashed: Compiler stopped with exit code 3: Segmentation fault in the optimizer');
  });

  it('kills a native compiler that grows past the memory limit', async () => {
    const e = await rejection(compilerWith({ maxMemoryMb: 200, timeoutMs: 30_000 }).compile('0.9.3+commit.00000003', input));
    expect(e.code).toBe('compile_out_of_memory');
    expect(errorSentence(e)).toBe('Compiler ran out of memory (limit 200 MB)');
  });
});
