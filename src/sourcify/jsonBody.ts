/**
 * The Sourcify API's body reader: JSON whatever the content type says, at most `limit` bytes.
 * The API is keyless, so a body must cost little of the one thread that answers everyone:
 * each chunk's JSON structure is checked as it arrives (strings are skipped at memory speed),
 * and a body that is too large, too deep or made of too many values is refused before it is
 * parsed (300,000 empty sources in 14 MB took 0.44 s to parse). A body past PARSE_INLINE_BYTES
 * is decoded and parsed by a worker thread (8 MB took the thread 60 ms); the values it
 * may hold bound what handing the result back costs.
 *
 * A larger body is read on and forgotten (up to DRAIN_FACTOR times the limit) before it is
 * refused, so that a client still sending can finish and read the answer; past that the
 * connection is dropped.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCodes } from 'fastify';
import { Piscina } from 'piscina';
import type { ParsedBody } from './jsonParseWorker.js';

const DRAIN_FACTOR = 4;
/** Deeper JSON than any client sends; past it, walking the value (cloning, checking it) would exhaust the stack. */
export const MAX_DEPTH = 64;
/**
 * Objects, arrays and members at most (each `{`, `[`, `,` and `:` outside strings counts). A
 * request's JSON is a few fields and its sources (at most 2000, a handful of values each); a
 * metadata.json sent as an object adds its ABI and NatSpec. An OpenZeppelin Governor's
 * standard JSON input has about 250, the whole of OpenZeppelin in one input about 2,500.
 */
export const MAX_JSON_VALUES = 100_000;

/** Where `byte` next is in `chunk` from `from` on, or the chunk's length. */
function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at < 0 ? chunk.length : at;
}

/** Bodies up to this size are parsed on the request's thread (well under a millisecond); larger ones by the worker. */
export const PARSE_INLINE_BYTES = 64 * 1024;
/** Large bodies waiting for the worker at most; past it a body is refused (BodyReaderBusy). */
const PARSE_QUEUE = 16;

/** A body that is not JSON, or is JSON nested or made of more than this reader takes. */
export class InvalidJson extends Error {
  constructor(readonly reason: 'not JSON' | 'too deep' | 'too many values') {
    super(reason);
  }
}

/** A large body refused because PARSE_QUEUE others are waiting to be parsed. */
export class BodyReaderBusy extends Error {}

/** The worker's script: beside this module once built, or its built twin under dist/ (tests run the sources). */
function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  const sibling = join(dirname(here), 'jsonParseWorker.js');
  if (existsSync(sibling)) return sibling;
  const marker = `${sep}src${sep}`;
  const at = here.lastIndexOf(marker);
  const twin = join(here.slice(0, at), 'dist', dirname(here.slice(at + marker.length)), 'jsonParseWorker.js');
  if (at !== -1 && existsSync(twin)) return twin;
  throw new Error(`The body parser's worker is not built: ${twin} is missing (run npx tsc -p tsconfig.json)`);
}

let pool: Piscina<Uint8Array, ParsedBody> | null = null;

/** Parses `bytes` (the whole body) on the worker thread, started on first use and ended when idle. */
async function parseAside(bytes: Buffer): Promise<unknown> {
  pool ??= new Piscina<Uint8Array, ParsedBody>({
    filename: workerScript(),
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 30_000,
    // Bodies are at most --sourcify-body-limit (4 MiB by default) and 100,000 values.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  if (pool.queueSize >= PARSE_QUEUE) throw new BodyReaderBusy('large bodies are waiting to be read');
  // Buffer.concat gives the body an ArrayBuffer of its own: it moves to the worker without a copy.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const parsed = await pool.run(bytes, own ? { transferList: [bytes.buffer as ArrayBuffer] } : {});
  if (!parsed.ok) throw new InvalidJson('not JSON');
  return parsed.value;
}

/**
 * The structure of JSON text fed in pieces, bytes at a time: how deep it nests and how many
 * values it holds, outside strings. Multi-byte UTF-8 sequences never contain the ASCII bytes
 * looked at, so raw bytes can be scanned before they are decoded.
 */
export class JsonShape {
  private depth = 0;
  private inString = false;
  private escaped = false;
  values = 0;
  deepest = 0;

  feed(chunk: Uint8Array): void {
    const n = chunk.length;
    let { depth, inString, escaped, values, deepest } = this;
    // Inside a string only a quote or a backslash matters: both are found by indexOf (at memory
    // speed), each once per stretch, so sources cost about what copying them does.
    let quote = -1;
    let backslash = -1;
    let i = 0;
    while (i < n) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        if (quote < i) quote = indexOrEnd(chunk, 0x22, i);
        if (backslash < i) backslash = indexOrEnd(chunk, 0x5c, i);
        if (backslash < quote) {
          escaped = true;
          i = backslash + 1;
        } else if (quote < n) {
          inString = false;
          i = quote + 1;
        } else i = n;
        continue;
      }
      const c = chunk[i++]!;
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        values++;
        if (++depth > deepest) deepest = depth;
      } else if (c === 0x7d || c === 0x5d) depth--;
      else if (c === 0x2c || c === 0x3a) values++;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.values = values;
    this.deepest = deepest;
  }

  /** Why the text read so far is refused unparsed, or null. */
  refusal(): InvalidJson | null {
    if (this.deepest > MAX_DEPTH) return new InvalidJson('too deep');
    if (this.values > MAX_JSON_VALUES) return new InvalidJson('too many values');
    return null;
  }
}

/** Reads and parses the body (undefined when empty); rejects with FST_ERR_CTP_BODY_TOO_LARGE or InvalidJson. */
export function readJsonBody(payload: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(payload.headers['content-length']);
  const drainLimit = limit * DRAIN_FACTOR;
  if (declared > drainLimit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const shape = new JsonShape();
    let chunks: Buffer[] = [];
    let received = 0;
    // The body is already refused (too large, or not a JSON this reader takes): the rest is drained unread.
    let refused: Error | null = declared > limit ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : null;
    let settled = false;
    const settle = (error: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(value);
    };
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > drainLimit) {
        settle(refused ?? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        payload.destroy();
        return;
      }
      if (refused) return;
      if (received > limit) {
        refused = new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
        chunks = [];
        return;
      }
      shape.feed(chunk);
      refused = shape.refusal();
      if (refused) chunks = [];
      else chunks.push(chunk);
    });
    payload.on('end', () => {
      if (refused) return settle(refused);
      const bytes = Buffer.concat(chunks, received);
      chunks = [];
      if (received > PARSE_INLINE_BYTES) {
        parseAside(bytes).then(
          (value) => settle(null, value),
          (error: Error) => settle(error),
        );
        return;
      }
      const text = bytes.toString('utf8');
      if (!/\S/.test(text)) return settle(null, undefined);
      try {
        settle(null, JSON.parse(text));
      } catch {
        settle(new InvalidJson('not JSON'));
      }
    });
    payload.on('error', (error) => settle(error));
  });
}
