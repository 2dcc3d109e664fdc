import { connect } from 'node:net';

export interface RawAnswer {
  /** HTTP status, or null when no status line came back. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** The connection ended with an error before an answer was read. */
  error?: string;
}

/**
 * Sends bytes as they are (for requests fetch() cannot make: broken framing, oversized
 * request lines, garbage) and reads one answer. The write side is closed after sending.
 */
export function rawRequest(port: number, bytes: Buffer | string, timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (error?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(received);
      resolve(error && answer.status === null ? { ...answer, error } : answer);
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received);
      const length = Number(answer.headers['content-length']);
      if (answer.status !== null && Number.isFinite(length) && Buffer.byteLength(answer.body) >= length) finish();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    socket.on('close', () => finish());
    socket.write(bytes, () => socket.end());
  });
}

function parseAnswer(bytes: Buffer): RawAnswer {
  const text = bytes.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return { status: null, headers: {}, body: '' };
  const [statusLine, ...headerLines] = text.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = bytes.subarray(Buffer.byteLength(text.slice(0, headEnd + 4), 'latin1')).toString('utf8');
  return { status: Number.isNaN(status) ? null : status, headers, body };
}

/** A GET or POST in HTTP/1.1 with the given head lines and body, closing the connection after. */
export function httpRequest(method: string, target: string, headers: Record<string, string> = {}, body: Buffer | string = ''): Buffer {
  const bodyBytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const head = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  const lower = Object.keys(headers).map((h) => h.toLowerCase());
  if (!lower.includes('content-length') && !lower.includes('transfer-encoding') && bodyBytes.length > 0) {
    head.push(`Content-Length: ${bodyBytes.length}`);
  }
  for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), bodyBytes]);
}
