import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { TEXT } from '../texts/index.js';
import { fail } from './envelope.js';

/** How long a refused connection may linger while its peer is still sending. */
const LINGER_MS = 2000;

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser refused (oversized request
 * line or headers, bytes that are not HTTP, broken chunking, a request that never finished
 * arriving) with an envelope, as every other refusal is answered, then closes the connection.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const text =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? TEXT.headersTooLarge(maxHeaderSize)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? TEXT.requestTimeout
        : TEXT.malformedRequest;
  const body = JSON.stringify(fail(text));
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  // end() waits for the peer to close; one that keeps the socket open must not hold it.
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
