/**
 * The Sourcify API's body reader: JSON whatever the content type says, at most `limit` bytes.
 * A larger body is read on and forgotten (up to DRAIN_FACTOR times the limit) before it is
 * refused, so that a client still sending can finish and read the answer; past that the
 * connection is dropped.
 */
import type { IncomingMessage } from 'node:http';
import { errorCodes } from 'fastify';

const DRAIN_FACTOR = 4;
/** Deeper JSON than any client sends; past it, walking the value (cloning, checking it) would exhaust the stack. */
const MAX_DEPTH = 64;

/** True when the JSON text nests arrays and objects deeper than `max` (strings skipped), found in one pass. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A body that is not JSON. */
export class InvalidJson extends Error {}

/** Reads and parses the body (undefined when empty); rejects with FST_ERR_CTP_BODY_TOO_LARGE or InvalidJson. */
export function readJsonBody(payload: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(payload.headers['content-length']);
  const drainLimit = limit * DRAIN_FACTOR;
  if (declared > drainLimit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(value);
    };
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else {
        chunks.length = 0;
        if (received > drainLimit) {
          settle(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
          payload.destroy();
        }
      }
    });
    payload.on('end', () => {
      if (received > limit) return settle(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return settle(null, undefined);
      if (nestsDeeperThan(text, MAX_DEPTH)) return settle(new InvalidJson('too deep'));
      try {
        settle(null, JSON.parse(text));
      } catch {
        settle(new InvalidJson('not JSON'));
      }
    });
    payload.on('error', (error) => settle(error));
  });
}
