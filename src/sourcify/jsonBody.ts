/**
 * The Sourcify API's body reader: JSON whatever the content type says, at most `limit` bytes.
 * The API is keyless, so a body must cost little of the one thread that answers everyone:
 * each chunk is decoded and its JSON structure checked as it arrives (a few hundred
 * microseconds for 64 KB), and a body that is too large, too deep or made of too many values
 * is refused before it is parsed. What is left to `JSON.parse` at the end is bounded by both:
 * sources are long strings, which parse at copying speed; the values a body may hold bound
 * the rest (300,000 empty sources in 14 MB took 0.44 s to parse; 100,000 values take about 15 ms).
 *
 * A larger body is read on and forgotten (up to DRAIN_FACTOR times the limit) before it is
 * refused, so that a client still sending can finish and read the answer; past that the
 * connection is dropped.
 */
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { errorCodes } from 'fastify';

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

/** A body that is not JSON, or is JSON nested or made of more than this reader takes. */
export class InvalidJson extends Error {
  constructor(readonly reason: 'not JSON' | 'too deep' | 'too many values') {
    super(reason);
  }
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
    let { depth, inString, escaped, values, deepest } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        values++;
        if (++depth > deepest) deepest = depth;
      } else if (c === 0x7d || c === 0x5d) depth--;
      else if (c === 0x2c || c === 0x3a) values++;
    }
    Object.assign(this, { depth, inString, escaped, values, deepest });
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
    const decoder = new StringDecoder('utf8');
    const shape = new JsonShape();
    let text = '';
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
        text = '';
        return;
      }
      shape.feed(chunk);
      refused = shape.refusal();
      if (refused) text = '';
      else text += decoder.write(chunk);
    });
    payload.on('end', () => {
      if (refused) return settle(refused);
      text += decoder.end();
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
