import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompilerCrashFacts } from '../core/errors.js';

export interface NativeRunOptions {
  timeoutMs: number;
  maxMemoryMb: number;
  /** Upper bound on what the compiler may print, to bound the service's memory. */
  maxOutputBytes?: number;
  /** Kills the compiler process when it fires: the run ends with reason `cancelled`. */
  signal?: AbortSignal;
}

/** How a compile ended without output: what the process said, how it ended, and the output's size when that was the trouble. */
export interface CompileFailureFacts extends CompilerCrashFacts {
  size?: number;
}

export type NativeRunResult =
  /** solc's output bytes, in a buffer of their own (so they can be transferred to a worker). */
  { ok: true; output: Uint8Array } | ({ ok: false; reason: 'timeout' | 'out_of_memory' | 'output_too_large' | 'crashed' | 'cancelled' } & CompileFailureFacts);

const MEMORY_POLL_MS = 100;

/**
 * Runs a native solc with `--standard-json`, the input on stdin.
 * The compiler runs in an empty scratch directory that is also its base path, so a missing
 * import resolves to nothing rather than to a file of this machine (solc >= 0.8.8 only reads
 * inside its base path, include paths and allowed paths). Memory is watched through
 * /proc/<pid>/status because `ulimit -v` breaks binaries that reserve address space.
 */
export async function runNativeCompiler(binaryPath: string, input: string, options: NativeRunOptions): Promise<NativeRunResult> {
  const maxOutputBytes = options.maxOutputBytes ?? 256 * 1024 * 1024;
  if (options.signal?.aborted) return { ok: false, reason: 'cancelled', detail: '' };
  const scratch = await mkdtemp(join(tmpdir(), 'solproof-solc-'));
  try {
    return await new Promise<NativeRunResult>((resolve) => {
      const child = spawn(binaryPath, ['--standard-json', '--base-path', scratch], {
        cwd: scratch,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, LANG: 'C' },
      });
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      let stderr = '';
      let verdict: NativeRunResult | null = null;
      const kill = (result: NativeRunResult): void => {
        if (verdict) return;
        verdict = result;
        child.kill('SIGKILL');
      };

      const timer = setTimeout(() => kill({ ok: false, reason: 'timeout', detail: '' }), options.timeoutMs);
      const capKb = options.maxMemoryMb * 1024;
      const poll = setInterval(() => {
        if (child.pid === undefined) return;
        readFile(`/proc/${child.pid}/status`, 'utf8').then(
          (status) => {
            const m = /VmRSS:\s+(\d+) kB/.exec(status);
            if (m && Number(m[1]) > capKb) {
              kill({ ok: false, reason: 'out_of_memory', detail: '' });
            }
          },
          () => undefined, // the process has just exited
        );
      }, MEMORY_POLL_MS);
      const onAbort = (): void => kill({ ok: false, reason: 'cancelled', detail: '' });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // Fired while the scratch directory was made: the listener came too late to hear it.
      if (options.signal?.aborted) onAbort();

      child.stdout.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > maxOutputBytes) {
          kill({ ok: false, reason: 'output_too_large', detail: '' });
          return;
        }
        stdout.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString('utf8');
      });
      // A compiler that exits before reading all of stdin makes the write fail with EPIPE;
      // the exit code tells the story.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);

      const finish = (result: NativeRunResult): void => {
        clearTimeout(timer);
        clearInterval(poll);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(verdict ?? result);
      };
      child.on('error', (e) => finish({ ok: false, reason: 'crashed', detail: e.message, cause: 'could_not_run' }));
      child.on('close', (code, signal) => {
        if (code === 0 && stdoutBytes > 0 && stdoutBytes <= maxOutputBytes) {
          const output = new Uint8Array(new ArrayBuffer(stdoutBytes));
          let at = 0;
          for (const chunk of stdout) {
            output.set(chunk, at);
            at += chunk.length;
          }
          finish({ ok: true, output });
          return;
        }
        const oom = /bad_alloc|out of memory/i.test(stderr);
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        finish({
          ok: false,
          reason: oom ? 'out_of_memory' : 'crashed',
          detail: `${how}${stderr ? `: ${stderr.trim().slice(0, 500)}` : ''}`,
          cause: 'exited',
        });
      });
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
