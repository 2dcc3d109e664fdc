/**
 * Reading request bodies from clients that may be careless or hostile: every content type
 * is read leniently (forms arrive with no or wrong content types), within the route's body
 * limit, and an oversized body is read to its end before it is refused, so the client gets
 * the refusal instead of a connection reset in the middle of its upload.
 */
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { type MultipartPart, readMultipart } from '../limits/multipartBody.js';

/** More fields than any action takes; past it, parsing and merging would be work for nothing. */
export const MAX_BODY_FIELDS = 220;
/** Deeper JSON than any client sends; past it, walking the value would exhaust the stack. */
export const MAX_JSON_DEPTH = 64;
/** An oversized body is drained up to this multiple of the limit; beyond that the connection is dropped. */
const DRAIN_FACTOR = 4;

/** Bodies up to this size are read for anyone; a larger one only once its sender passed the gate. */
export const OPEN_BODY_LIMIT = 1024 * 1024;

/**
 * A body the service refuses; `message` is the text the client is shown. `draining`: the rest
 * of the body is still being read and dropped, so the answer must not close the connection.
 */
export class BodyError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly code: 'SOLPROOF_BODY_TOO_DEEP' | 'SOLPROOF_BODY_TOO_MANY_FIELDS' | 'SOLPROOF_BODY_MALFORMED' | 'SOLPROOF_BODY_REFUSED',
    message: string,
    readonly draining = false,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

export interface BodyTexts {
  tooDeep(depth: number): string;
  tooManyFields(max: number): string;
  malformed: string;
}

/**
 * Decides, from the first OPEN_BODY_LIMIT bytes, whether the rest of a large body is read:
 * `field` reads a field from the body so far (null when it does not hold it); resolves null to
 * go on, or the text to refuse it with (the rest is then never buffered).
 */
export type BodyGate = (request: FastifyRequest, field: (name: string) => string | null) => Promise<string | null>;

/**
 * A Fastify content-type parser for every content type: multipart as a stream, part by part
 * (limits/multipartBody: at most MAX_BODY_FIELDS parts, reading stops at the first past them),
 * anything else as a JSON object when it is one, else as a form. Oversized bodies fail with
 * Fastify's FST_ERR_CTP_BODY_TOO_LARGE, the others with a BodyError. A body beyond
 * OPEN_BODY_LIMIT is read on only when `gate` lets it.
 */
export function createBodyParser(texts: BodyTexts, gate?: BodyGate) {
  return async function parseBody(request: FastifyRequest, payload: Readable): Promise<Record<string, unknown>> {
    const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
    const declared = Number(request.headers['content-length']);
    const contentType = request.headers['content-type'] ?? '';
    if (/^\s*multipart\/form-data/i.test(contentType)) return parseMultipart(request, payload, limit, declared, contentType, texts, gate);
    const check = gate ? (prefix: Buffer) => gate(request, (name) => fieldFromBodyPrefix(prefix.toString('utf8'), name)) : null;
    const raw = await readLimited(payload, limit, declared, check);
    return parseLooseBody(raw.toString('utf8'), texts);
  };
}

function readLimited(payload: Readable, limit: number, declared: number, gate: ((prefix: Buffer) => Promise<string | null>) | null): Promise<Buffer> {
  const drainLimit = limit * DRAIN_FACTOR;
  if (declared > drainLimit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let admitted = gate === null || limit <= OPEN_BODY_LIMIT;
    let done = false;
    const finish = (error: Error | null): void => {
      if (done) return;
      done = true;
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received <= limit) {
        chunks.push(bytes);
      } else {
        // Keep reading (and forgetting) so the client can finish sending and read the answer.
        chunks.length = 0;
        if (received > drainLimit) finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      if (!admitted && received > OPEN_BODY_LIMIT) {
        // Nothing more is read until the sender is known to be allowed to send this much.
        admitted = true;
        payload.pause();
        gate!(Buffer.concat(chunks, received)).then(
          (refusal) => {
            if (refusal === null) {
              payload.resume();
              return;
            }
            // Answered now; the rest is read and forgotten (up to the drain limit) so that a
            // client still sending can finish and read the answer.
            chunks.length = 0;
            finish(new BodyError('SOLPROOF_BODY_REFUSED', refusal, true));
            let drained = received;
            payload.on('data', (more: Buffer) => {
              drained += more.length;
              if (drained > drainLimit) payload.destroy();
            });
            payload.resume();
          },
          (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
        );
      }
    };
    const onEnd = (): void => finish(received > limit ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : null);
    const onError = (error: Error): void => finish(error);
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}

/**
 * The first value of field `name` (any letter case) in the beginning of a body that is not
 * multipart (the multipart reader hands the gate its parts), for the gate: a form's complete
 * fields or a JSON string member. Null when the prefix does not hold it.
 */
export function fieldFromBodyPrefix(prefix: string, name: string): string | null {
  const wanted = name.toLowerCase();
  const trimmed = prefix.trimStart();
  if (trimmed.startsWith('{')) {
    const m = new RegExp(`"${wanted}"\\s*:\\s*"([^"\\\\]{0,256})"`, 'i').exec(trimmed);
    return m ? m[1]! : null;
  }
  // Only fields followed by an '&' are whole in a prefix.
  const complete = prefix.slice(0, prefix.lastIndexOf('&') + 1);
  for (const field of complete.split('&')) {
    const eq = field.indexOf('=');
    if (eq <= 0 || field.length > 1024) continue;
    let key: string;
    try {
      key = decodeURIComponent(field.slice(0, eq).replace(/\+/g, ' ')).toLowerCase();
    } catch {
      continue;
    }
    if (key !== wanted) continue;
    try {
      return decodeURIComponent(field.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return null;
    }
  }
  return null;
}

async function parseMultipart(
  request: FastifyRequest,
  payload: Readable,
  limit: number,
  declared: number,
  contentType: string,
  texts: BodyTexts,
  gate: BodyGate | undefined,
): Promise<Record<string, unknown>> {
  if (declared > limit * DRAIN_FACTOR) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  const field = (parts: readonly MultipartPart[], name: string): string | null => {
    const wanted = name.toLowerCase();
    const part = parts.find((p) => p.name.toLowerCase() === wanted && 'value' in p);
    return part && 'value' in part ? part.value : null;
  };
  const read = await readMultipart(payload, {
    contentType,
    maxBytes: limit,
    maxParts: MAX_BODY_FIELDS,
    drainBytes: limit * DRAIN_FACTOR,
    ...(gate && limit > OPEN_BODY_LIMIT
      ? { openBytes: OPEN_BODY_LIMIT, admit: (parts: readonly MultipartPart[]) => gate(request, (name) => field(parts, name)) }
      : {}),
  });
  if (!read.ok) {
    switch (read.problem) {
      case 'too_large':
        throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
      case 'too_many_parts':
        throw new BodyError('SOLPROOF_BODY_TOO_MANY_FIELDS', texts.tooManyFields(MAX_BODY_FIELDS), read.draining);
      case 'refused':
        throw new BodyError('SOLPROOF_BODY_REFUSED', read.refusal ?? texts.malformed, read.draining);
      case 'malformed':
        throw new BodyError('SOLPROOF_BODY_MALFORMED', texts.malformed, read.draining);
    }
  }
  // A file part (clients attach sources that way) counts as its text; a repeated name keeps the last.
  const fields = new Map<string, string>();
  for (const part of read.parts) fields.set(part.name, 'value' in part ? part.value : part.file.text);
  return Object.fromEntries(fields);
}

/** A JSON object when the body is one, else a form (whatever the content type said). */
export function parseLooseBody(text: string, texts: BodyTexts): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    if (nestsDeeperThan(trimmed, MAX_JSON_DEPTH)) throw new BodyError('SOLPROOF_BODY_TOO_DEEP', texts.tooDeep(MAX_JSON_DEPTH));
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined; // not JSON: read it as a form below
    }
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      if (Object.keys(json).length > MAX_BODY_FIELDS) {
        throw new BodyError('SOLPROOF_BODY_TOO_MANY_FIELDS', texts.tooManyFields(MAX_BODY_FIELDS));
      }
      return json as Record<string, unknown>;
    }
  }
  // Fields are separated by raw '&' (values carry theirs percent-encoded): count before splitting.
  let separators = 0;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (++separators >= MAX_BODY_FIELDS) throw new BodyError('SOLPROOF_BODY_TOO_MANY_FIELDS', texts.tooManyFields(MAX_BODY_FIELDS));
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** True when brackets outside strings nest deeper than `max`: a linear scan, no parsing. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
