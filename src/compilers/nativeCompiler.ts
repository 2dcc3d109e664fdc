import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompilerCrashFacts } from '../core/errors.js';

export interface NativeRunOptions {
  timeoutMs: number;
  maxMemoryMb: number;
  /** Upper bound on what the compiler may print, to bound the service's memory. */
  maxOutputBytes?: number | undefined;
  /** Kills the compiler process when it fires: the run ends with reason `cancelled`. */
  signal?: AbortSignal | undefined;
  /**
   * How the compiler is run, for a compiler that is not solc: its arguments (the input still
   * comes on stdin), variables added to its environment, and whether it may start processes of
   * its own. Such a compiler (a Python program, a PyInstaller binary that unpacks itself and
   * runs a child) gets a process group of its own: the memory of every process in it counts,
   * and a kill kills them all.
   */
  command?: NativeCommand | undefined;
}

export interface NativeCommand {
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
  processGroup?: boolean;
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
      const command = options.command;
      const child = spawn(binaryPath, command ? [...command.args] : ['--standard-json', '--base-path', scratch], {
        cwd: scratch,
        stdio: ['pipe', 'pipe', 'pipe'],
        // TMPDIR: a self-unpacking binary unpacks into the scratch directory, removed with it.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, LANG: 'C', TMPDIR: scratch, ...command?.env },
        detached: command?.processGroup === true,
      });
      const group = command?.processGroup === true;
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      let stderr = '';
      let verdict: NativeRunResult | null = null;
      const kill = (result: NativeRunResult): void => {
        if (verdict) return;
        verdict = result;
        killProcess(child.pid, group, () => child.kill('SIGKILL'));
      };

      const timer = setTimeout(() => kill({ ok: false, reason: 'timeout', detail: '' }), options.timeoutMs);
      const capKb = options.maxMemoryMb * 1024;
      const poll = setInterval(() => {
        if (child.pid === undefined) return;
        (group ? treeRssKb(child.pid) : rssKb(child.pid)).then(
          (kb) => {
            if (kb > capKb) kill({ ok: false, reason: 'out_of_memory', detail: '' });
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
        // Whatever the compiler left behind in its group goes with it.
        if (group) killProcess(child.pid, true, () => undefined);
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

/** Kills a process, or its whole process group (a negative pid); `fallback` when that cannot be done. */
function killProcess(pid: number | undefined, group: boolean, fallback: () => void): void {
  if (pid === undefined) {
    fallback();
    return;
  }
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    // Already gone (ESRCH): nothing left to stop.
    fallback();
  }
}

/** The resident memory of one process, in kB. */
async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) : 0;
}

/** The resident memory of a process and of every process below it, in kB. */
async function treeRssKb(pid: number, depth = 0): Promise<number> {
  let total = await rssKb(pid);
  if (depth > 8) return total;
  for (const child of await childrenOf(pid)) total += await treeRssKb(child, depth + 1).catch(() => 0);
  return total;
}

async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const id of text.split(' ')) if (/^\d+$/.test(id)) children.push(Number(id));
  }
  return children;
}
