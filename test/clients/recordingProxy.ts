import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy, with the service's answer. */
export interface RecordedRequest {
  method: string;
  /** Parameters of the request line's query string. */
  query: Record<string, string>;
  /** Fields of a urlencoded body (empty for GET). */
  form: Record<string, string>;
  /** The request line's path, without the query. */
  path: string;
  /** A JSON body, parsed (undefined for other bodies). */
  json?: unknown;
  /** The request's headers, as sent. */
  headers: Record<string, string | string[] | undefined>;
  status: number;
  /** The answer body, parsed as JSON when it is JSON. */
  answer: unknown;
}

export interface RecordingProxy {
  /** The API URL to give a client: same path as the service's, this proxy's origin. */
  apiUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of `target` (an API URL): it forwards every
 * request unchanged and records what a client really sent, so tests can assert on the wire
 * format of a third-party client without patching it.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (upRes) => {
          const parts: Buffer[] = [];
          upRes.on('data', (c: Buffer) => parts.push(c));
          upRes.on('end', () => {
            const answer = Buffer.concat(parts);
            const url = new URL(req.url ?? '/', 'http://proxy.invalid');
            const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
            requests.push({
              method: req.method ?? '',
              query: Object.fromEntries(url.searchParams),
              form: isForm ? Object.fromEntries(new URLSearchParams(body.toString('utf8'))) : {},
              path: url.pathname,
              ...((req.headers['content-type'] ?? '').includes('json') ? { json: parse(body.toString('utf8')) } : {}),
              headers: req.headers,
              status: upRes.statusCode ?? 0,
              answer: parse(answer.toString('utf8')),
            });
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            res.end(answer);
          });
        },
      );
      forward.on('error', (e) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(e));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Clients keep connections alive; close() alone would wait for them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
