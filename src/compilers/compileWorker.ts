/**
 * Piscina worker: loads soljson builds, keeps a few of them warm, compiles standard JSON.
 * Runs in its own thread so a 10-30 MB emscripten module and a long compile never block
 * the service's event loop.
 */

import type { EventEmitter } from 'node:events';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import type { CompileFailureFacts } from './nativeCompiler.js';

const require = createRequire(import.meta.url);

// Emscripten prints to stdout (old builds print an abort code there); the service's stdout
// is not theirs. Aborts still surface as thrown errors.
console.log = () => undefined;
console.info = () => undefined;
process.stdout.write = (() => true) as typeof process.stdout.write;

interface SolcJs {
  version(): string;
  compile(input: string): string;
}
const wrapSoljson = require('solc/wrapper.js') as (soljson: unknown) => SolcJs;

export interface CompileTask {
  kind: 'compile';
  /** Absolute path of a soljson file inside the compiler cache. */
  path: string;
  /** Standard JSON input, already serialised. */
  input: string;
  warmPerWorker: number;
  /** What the compilers kept loaded in this worker may hold together (see warmBytes). */
  warmMemoryBytes?: number;
  maxMemoryMb: number;
  /** Output larger than this (in UTF-16 code units of solc's JSON text) is refused unread. */
  maxOutputBytes: number;
}

export interface VersionTask {
  kind: 'version';
  path: string;
  maxMemoryMb: number;
}

/** A native compiler's output, handed over (transferred) to be read off the main thread. */
export interface ParseTask {
  kind: 'parse';
  output: ArrayBuffer;
  maxOutputBytes: number;
}

/**
 * A compile whose output nobody reads, run with a compiler this worker already has loaded (it
 * never loads one): V8 optimises a compiler's WebAssembly only once its functions have run
 * often, and the optimised code is shared by every thread of the process.
 */
export interface WarmUpTask {
  kind: 'warm_up';
  path: string;
  input: string;
  maxMemoryMb: number;
}

export type WorkerTask = CompileTask | VersionTask | ParseTask | WarmUpTask;

/** Why a task failed: the first two mean a compile that can never succeed as given. */
export type FailureReason = 'out_of_memory' | 'output_too_large' | 'crashed';

export type WorkerResult =
  | { ok: true; output: CompactOutput; threadId: number; warm: string[]; loadMs: number | null; compileMs: number }
  | { ok: true; version: string; threadId: number; warm: string[] }
  /** `compileMs` null: the compiler was not loaded here, nothing ran. */
  | { ok: true; warmedUp: true; compileMs: number | null; threadId: number; warm: string[] }
  | ({ ok: false; reason: FailureReason; threadId: number; warm: string[] } & CompileFailureFacts);

/** solc's output as the service reads it: parsed, with each legacy assembly cut to its auxdata. */
export type CompactOutput = Record<string, unknown>;

/** The raw emscripten module: what the large-input path needs from it. */
interface Soljson {
  _malloc?: (size: number) => number;
  _free?: (ptr: number) => void;
  _solidity_compile?: (input: number, callback: number, context: number) => number;
  _compileStandard?: (input: number, callback: number) => number;
  _solidity_reset?: () => void;
  lengthBytesUTF8?: (text: string) => number;
  stringToUTF8?: (text: string, ptr: number, maxBytes: number) => void;
  UTF8ToString?: (ptr: number) => string;
  Pointer_stringify?: (ptr: number) => string;
}

interface LoadedCompiler {
  solc: SolcJs;
  soljson: Soljson;
  /** The wasm memory this instance grows; unknown for asm.js builds or before the first grow. */
  memory: WebAssembly.Memory | null;
  /** Size of the soljson file. */
  fileBytes: number;
}

/**
 * What a loaded compiler holds, estimated: its wasm memory, and its code, which takes a few
 * times the size of its soljson file once compiled (the file carries the wasm as base64).
 */
function warmBytes(entry: LoadedCompiler): number {
  return (entry.memory?.buffer.byteLength ?? 0) + 4 * entry.fileBytes;
}

/** A compiler whose linear memory grew beyond this is dropped after use instead of kept warm. */
const WARM_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024;

// Least recently used first; a Map keeps insertion order.
const warm = new Map<string, LoadedCompiler>();

// Wasm linear memory lives outside the V8 heap, so worker resourceLimits do not bound it.
// Emscripten treats a failed grow() as malloc failure, which solc reports as an error:
// capping grow() here is what turns a runaway compile into compile_out_of_memory.
let memoryCapBytes = Number.POSITIVE_INFINITY;
let memoryCapHit = false;
let growing: LoadedCompiler | null = null;
const originalGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function grow(this: WebAssembly.Memory, delta: number): number {
  if (growing) growing.memory = this;
  if (this.buffer.byteLength + delta * 65536 > memoryCapBytes) {
    memoryCapHit = true;
    throw new RangeError('WebAssembly memory limit of the compile worker reached');
  }
  return originalGrow.call(this, delta);
};

const PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;
const processEvents = process as unknown as EventEmitter;

function loadSoljson(path: string): LoadedCompiler {
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(processEvents.listeners(e))] as const));
  const entry: LoadedCompiler = { solc: undefined as unknown as SolcJs, soljson: {}, memory: null, fileBytes: statSync(path).size };
  growing = entry;
  try {
    entry.soljson = require(path) as Soljson;
    entry.solc = wrapSoljson(entry.soljson);
  } finally {
    growing = null;
    // Each emscripten module registers process handlers that pin the whole module in
    // memory (and some rethrow); remove them so evicted compilers can be collected.
    for (const e of PROCESS_EVENTS) {
      for (const l of processEvents.listeners(e)) {
        if (!before.get(e)!.has(l)) processEvents.removeListener(e, l as (...args: unknown[]) => void);
      }
    }
    // The LRU holds the only reference we want; the require cache would keep it forever.
    delete require.cache[path];
  }
  return entry;
}

/**
 * solc-js passes the input through emscripten's stack (a few MB), so inputs above ~1.5 MB
 * crash with "memory access out of bounds". Large inputs are copied into the heap instead
 * and handed to solc's C entry point; there is no import callback, so a missing import is
 * an error in the output, as with the wrapper. Small inputs keep the wrapper's path.
 */
const HEAP_INPUT_THRESHOLD_BYTES = 512 * 1024;

function compileStandard(entry: LoadedCompiler, input: string): string {
  const m = entry.soljson;
  const toText = m.UTF8ToString ?? m.Pointer_stringify;
  const entryPoint = m._solidity_compile ?? m._compileStandard;
  if (input.length < HEAP_INPUT_THRESHOLD_BYTES / 4 || !m._malloc || !m._free || !m.lengthBytesUTF8 || !m.stringToUTF8 || !toText || !entryPoint) {
    return entry.solc.compile(input);
  }
  const size = m.lengthBytesUTF8(input) + 1;
  if (size < HEAP_INPUT_THRESHOLD_BYTES) return entry.solc.compile(input);
  const ptr = m._malloc(size);
  if (!ptr) throw new RangeError('out of memory: could not allocate the compiler input');
  try {
    m.stringToUTF8(input, ptr, size);
    // Extra arguments are ignored by the older two-argument entry points.
    const out = entryPoint(ptr, 0, 0);
    return toText(out);
  } finally {
    m._free(ptr);
    m._solidity_reset?.();
  }
}

/**
 * Keeps `entry` loaded as the most recently used, and drops the least recently used while more
 * than `capacity` are loaded or they hold more than `budgetBytes` together; a compiler that
 * alone holds more than the budget is not kept.
 */
function remember(path: string, entry: LoadedCompiler, capacity: number, budgetBytes = Number.POSITIVE_INFINITY): void {
  warm.delete(path);
  if (warmBytes(entry) > budgetBytes) return;
  warm.set(path, entry);
  let total = 0;
  for (const e of warm.values()) total += warmBytes(e);
  while (warm.size > Math.max(0, capacity) || total > budgetBytes) {
    const oldest = warm.keys().next().value as string;
    total -= warmBytes(warm.get(oldest)!);
    warm.delete(oldest);
  }
}

function isOutOfMemory(e: unknown): boolean {
  const text = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  return /out of memory|Cannot enlarge memory|bad_alloc|Array buffer allocation failed|memory limit/i.test(text);
}

function describe(e: unknown): string {
  // emscripten throws raw numbers (C++ exception pointers) and strings; old aborts carry a
  // whole stack trace in the message.
  const text = e instanceof Error ? e.message || e.name : typeof e === 'number' ? `uncaught native exception (${e})` : String(e);
  return text.split('\n')[0]!.slice(0, 300);
}

function outputReportsOutOfMemory(output: string): boolean {
  // solc turns std::bad_alloc into an "Unknown exception" error in the output JSON.
  return output.length < 100_000 && /bad_alloc|out of memory|Unknown exception/i.test(output);
}

/**
 * The legacy assembly of a contract lists every instruction with its source location (tens of
 * MB for a large contract); the service reads only the `.auxdata` values, found through
 * `.data`. Keeping just those keeps what crosses to the main thread small.
 */
function auxdataSkeleton(node: unknown, depth = 0): unknown {
  if (typeof node !== 'object' || node === null || depth > 64) return undefined;
  const record = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof record['.auxdata'] === 'string') out['.auxdata'] = record['.auxdata'];
  const data = record['.data'];
  if (typeof data === 'object' && data !== null) {
    const children: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(data as Record<string, unknown>)) {
      const skeleton = auxdataSkeleton(child, depth + 1);
      if (skeleton !== undefined) children[key] = skeleton;
    }
    out['.data'] = children;
  }
  return out;
}

/** Parses solc's output text and cuts every legacy assembly down to its auxdata skeleton. */
export function compactOutput(text: string): CompactOutput {
  const output = JSON.parse(text) as CompactOutput;
  const contracts = output['contracts'];
  if (typeof contracts === 'object' && contracts !== null) {
    for (const byName of Object.values(contracts as Record<string, Record<string, { evm?: Record<string, unknown> }>>)) {
      for (const contract of Object.values(byName ?? {})) {
        const evm = contract?.evm;
        if (evm && 'legacyAssembly' in evm) evm['legacyAssembly'] = auxdataSkeleton(evm['legacyAssembly']) ?? null;
      }
    }
  }
  return output;
}

export default function run(task: WorkerTask): WorkerResult {
  const warmPaths = (): string[] => [...warm.keys()];
  if (task.kind === 'parse') {
    const bytes = Buffer.from(task.output);
    if (bytes.length > task.maxOutputBytes) {
      return { ok: false, reason: 'output_too_large', detail: '', size: bytes.length, threadId, warm: warmPaths() };
    }
    try {
      return { ok: true, output: compactOutput(bytes.toString('utf8')), threadId, warm: warmPaths(), loadMs: null, compileMs: 0 };
    } catch (e) {
      return { ok: false, reason: 'crashed', detail: describe(e), cause: 'not_json', threadId, warm: warmPaths() };
    }
  }
  memoryCapBytes = task.maxMemoryMb * 1024 * 1024;
  memoryCapHit = false;

  if (task.kind === 'version') {
    try {
      const entry = loadSoljson(task.path);
      return { ok: true, version: entry.solc.version(), threadId, warm: warmPaths() };
    } catch (e) {
      return { ok: false, reason: memoryCapHit || isOutOfMemory(e) ? 'out_of_memory' : 'crashed', detail: describe(e), threadId, warm: warmPaths() };
    }
  }

  if (task.kind === 'warm_up') {
    const loaded = warm.get(task.path);
    if (!loaded) return { ok: true, warmedUp: true, compileMs: null, threadId, warm: warmPaths() };
    const t0 = performance.now();
    growing = loaded;
    try {
      compileStandard(loaded, task.input);
    } catch {
      // An emscripten abort leaves the module unusable: never reuse it.
      warm.delete(task.path);
    } finally {
      growing = null;
    }
    if (memoryCapHit || (loaded.memory?.buffer.byteLength ?? 0) > WARM_MEMORY_LIMIT_BYTES) warm.delete(task.path);
    return { ok: true, warmedUp: true, compileMs: performance.now() - t0, threadId, warm: warmPaths() };
  }

  let entry = warm.get(task.path);
  let loadMs: number | null = null;
  try {
    if (!entry) {
      const t0 = performance.now();
      entry = loadSoljson(task.path);
      loadMs = performance.now() - t0;
    }
    const t1 = performance.now();
    growing = entry;
    let output: string;
    try {
      output = compileStandard(entry, task.input);
    } finally {
      growing = null;
    }
    const compileMs = performance.now() - t1;
    if (memoryCapHit && outputReportsOutOfMemory(output)) {
      warm.delete(task.path);
      return { ok: false, reason: 'out_of_memory', detail: '', threadId, warm: warmPaths() };
    }
    const bytes = entry.memory?.buffer.byteLength ?? 0;
    if (memoryCapHit || bytes > WARM_MEMORY_LIMIT_BYTES) warm.delete(task.path);
    else remember(task.path, entry, task.warmPerWorker, task.warmMemoryBytes);
    if (output.length > task.maxOutputBytes) {
      return { ok: false, reason: 'output_too_large', detail: '', size: output.length, threadId, warm: warmPaths() };
    }
    let compact: CompactOutput;
    try {
      compact = compactOutput(output);
    } catch (e) {
      return { ok: false, reason: 'crashed', detail: describe(e), cause: 'not_json', threadId, warm: warmPaths() };
    }
    return { ok: true, output: compact, threadId, warm: warmPaths(), loadMs, compileMs };
  } catch (e) {
    // An emscripten abort leaves the module unusable: never reuse it.
    warm.delete(task.path);
    const oom = memoryCapHit || isOutOfMemory(e);
    return {
      ok: false,
      reason: oom ? 'out_of_memory' : 'crashed',
      detail: describe(e),
      threadId,
      warm: warmPaths(),
    };
  }
}
