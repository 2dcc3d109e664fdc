/**
 * Reading a multipart/form-data body as it arrives, within limits: it is parsed part by part
 * (@fastify/busboy, a streaming parser) and never buffered whole, and reading stops at the
 * first part or byte past a limit, so a body of a quarter of a million one-byte fields costs
 * the parsing of the first few hundred. Used by the API's body parser and the Verify &
 * Publish form alike.
 */
import type { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';

/** A part of a form: a text field, or an uploaded file with its name and text. */
export type MultipartPart = { name: string; value: string } | { name: string; file: { filename: string; text: string } };

export interface MultipartOptions {
  contentType: string;
  /** Bytes read at most: past them the body is `too_large` (it is read to its end first, see `drainBytes`). */
  maxBytes: number;
  /** Fields and files at most: the first part past them stops the reading (`too_many_parts`). */
  maxParts: number;
  /**
   * Once reading has stopped, the rest of the body is read and dropped, so that a client still
   * sending gets to read the answer; past this many bytes in all the connection is closed instead.
   */
  drainBytes: number;
  /** Called as each part completes, in the body's order; reading waits while its promise is pending. */
  onPart?: (part: MultipartPart) => void | Promise<void>;
  /**
   * Bytes read for anyone (default: all of them). Before reading past them `admit` is asked,
   * with the parts read so far: null to read on, or the text to stop with (`refused`).
   */
  openBytes?: number;
  admit?: (parts: readonly MultipartPart[]) => Promise<string | null>;
}

export type MultipartProblem = 'too_large' | 'too_many_parts' | 'malformed' | 'refused';

export type MultipartResult =
  | { ok: true; parts: MultipartPart[] }
  | {
      ok: false;
      problem: MultipartProblem;
      /** The parts read before the reading stopped. */
      parts: MultipartPart[];
      /** `admit`'s text when `refused`. */
      refusal: string | null;
      /** The rest of the body is still being read and dropped: the answer should not close the connection. */
      draining: boolean;
    };

/**
 * Reads `payload` as a multipart form. Resolves once the body is read, or as soon as the
 * reading stops at a limit or a refusal (`too_large` only once the body has ended, as the other
 * body parsers answer it). Rejects when the client's connection fails (code ECONNRESET), or with
 * what `onPart` or `admit` failed with.
 */
export function readMultipart(payload: Readable, options: MultipartOptions): Promise<MultipartResult> {
  return new Promise<MultipartResult>((resolve, reject) => {
    // Parts in the body's order: a file's slot is taken when it starts and filled when it ends.
    const slots: (MultipartPart | null)[] = [];
    const completed = (): MultipartPart[] => slots.filter((p): p is MultipartPart => p !== null);
    const openBytes = options.admit ? (options.openBytes ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
    let received = 0;
    let ended = false;
    let settled = false;
    // Set once reading has stopped: what it stopped with (too_large waits for the body's end).
    let stop: { problem: MultipartProblem; refusal: string | null } | null = null;
    let admitted = false;
    let busboyDone = false;
    let openFiles = 0;
    // Pauses that hold the payload: onPart promises pending, and the admission.
    let holds = 0;
    // A chunk held back while admission is decided.
    let heldChunk: Buffer | null = null;

    const settle = (result: MultipartResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const stopWith = (problem: MultipartProblem, refusal: string | null = null): void => {
      if (stop) return;
      stop = { problem, refusal };
      heldChunk = null;
      holds = 0;
      payload.resume();
      if (problem !== 'too_large' || ended) settle({ ok: false, problem, parts: completed(), refusal, draining: !ended });
    };
    const hold = (): void => {
      if (holds++ === 0) payload.pause();
    };
    const release = (): void => {
      if (stop || holds === 0) return;
      if (--holds === 0) {
        payload.resume();
        maybeFinish();
      }
    };
    const maybeFinish = (): void => {
      if (!stop && busboyDone && openFiles === 0 && holds === 0) settle({ ok: true, parts: completed() });
    };
    const handOver = (part: MultipartPart): void => {
      const pending = options.onPart?.(part);
      if (pending) {
        hold();
        pending.then(release, (error: unknown) => {
          fail(error instanceof Error ? error : new Error(String(error)));
          stopWith('malformed');
        });
      }
    };

    const busboy = createParser(options);
    if (!busboy) {
      stopWith('malformed');
    } else {
      busboy.on('field', (name: string, value: string) => {
        if (stop) return;
        const part = { name, value };
        slots.push(part);
        handOver(part);
      });
      busboy.on('file', (name: string, stream: BusboyFileStream, filename: string) => {
        const slot = slots.length;
        slots.push(null);
        openFiles++;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          if (!stop) chunks.push(chunk);
        });
        // A body that ends inside a file fails the file stream as well as the parser.
        stream.on('error', () => stopWith('malformed'));
        stream.on('end', () => {
          openFiles--;
          if (stop) return;
          const part = { name, file: { filename, text: Buffer.concat(chunks).toString('utf8') } };
          slots[slot] = part;
          handOver(part);
          maybeFinish();
        });
      });
      busboy.on('partsLimit', () => stopWith('too_many_parts'));
      busboy.on('error', () => stopWith('malformed'));
      busboy.on('finish', () => {
        busboyDone = true;
        maybeFinish();
      });
    }

    const feed = (chunk: Buffer): void => {
      if (!stop) busboy!.write(chunk);
    };
    const admitRest = async (): Promise<void> => {
      // Parts the parser completes on a later tick are among those admit sees.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (stop) return;
      const refusal = await options.admit!(completed());
      if (stop) return;
      if (refusal !== null) return stopWith('refused', refusal);
      const held = heldChunk;
      heldChunk = null;
      if (held) feed(held);
      release();
      if (ended && !stop) busboy!.end();
    };
    const onData = (data: Buffer | string): void => {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      received += chunk.length;
      if (stop) {
        if (received > options.drainBytes) {
          payload.destroy();
          onClose();
        }
        return;
      }
      if (received > options.maxBytes) {
        stopWith('too_large');
        return;
      }
      if (!admitted && received > openBytes) {
        // Nothing past the open bytes is parsed until the sender is known to be allowed to send
        // them. The bytes up to them are: they may hold the boundary that completes the last part.
        admitted = true;
        const open = chunk.length - (received - openBytes);
        heldChunk = chunk.subarray(open);
        hold();
        feed(chunk.subarray(0, open));
        admitRest().catch((error: unknown) => {
          fail(error instanceof Error ? error : new Error(String(error)));
          stopWith('malformed');
        });
        return;
      }
      feed(chunk);
    };
    const onEnd = (): void => {
      ended = true;
      if (stop) {
        if (stop.problem === 'too_large') settle({ ok: false, problem: 'too_large', parts: completed(), refusal: null, draining: false });
        return;
      }
      // Admission still pending: the parser is ended once the held chunk is fed.
      if (heldChunk === null) busboy!.end();
    };
    const onClose = (): void => {
      if (ended) return;
      if (stop?.problem === 'too_large') settle({ ok: false, problem: 'too_large', parts: completed(), refusal: null, draining: false });
      else if (!stop) fail(Object.assign(new Error('The client closed the connection before the body was read'), { code: 'ECONNRESET' }));
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', (error: Error) => {
      if (stop) return;
      fail(error);
      stopWith('malformed');
    });
    payload.on('close', onClose);
    payload.resume();
  });
}

/** The parser for the body's content type, or null when that names no usable boundary. */
function createParser(options: MultipartOptions): ReturnType<typeof Busboy> | null {
  try {
    return Busboy({
      headers: { 'content-type': options.contentType },
      // Values and files are bounded by the body's bytes, counted as they arrive.
      limits: { parts: options.maxParts, fieldSize: options.maxBytes, fileSize: options.maxBytes },
      // A part is a file when it has a file name (as the platform's FormData reads it); folder
      // uploads name their files with their paths, which are kept.
      isPartAFile: (_name, _type, filename) => filename !== undefined,
      preservePath: true,
    });
  } catch {
    return null;
  }
}
