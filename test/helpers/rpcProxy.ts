import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answer with this JSON-RPC error, or this result (a node that lags: `0x` for eth_getCode), instead of forwarding. */
export type RpcProxyRule = { error: { code: number; message: string } } | { result: unknown };

export interface RpcProxy {
  url: string;
  /** Requests seen per method (forwarded or answered by a rule), each request of a batch counted. */
  calls: Map<string, number>;
  /** HTTP requests seen (a batch is one). */
  posts: number;
  /** Method name → rule; a function sees the params and returns a rule or undefined to forward. */
  rules: Map<string, RpcProxyRule | ((params: unknown[]) => RpcProxyRule | undefined)>;
  /** When true, requests are read but never answered. */
  hang: boolean;
  /** Methods never answered: a request, or a batch holding one, of these is read and left waiting. */
  silent: Set<string>;
  close(): Promise<void>;
}

/** "Method not found", as a node without a namespace answers. */
export const METHOD_NOT_FOUND: RpcProxyRule = { error: { code: -32601, message: 'Method not found' } };

/**
 * A JSON-RPC relay in front of a real node, to play a node with fewer methods, errors, a
 * node that lags behind (an answer of its own for a while) or silence: the answers that are relayed come from the real node unchanged.
 */
export async function startRpcProxy(upstreamUrl: string): Promise<RpcProxy> {
  const proxy: RpcProxy = {
    url: '',
    calls: new Map(),
    posts: 0,
    rules: new Map(),
    hang: false,
    silent: new Set(),
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        proxy.posts++;
        if (proxy.hang) return;
        const body = Buffer.concat(chunks).toString();
        const parsed = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] } | { method: string }[];
        const methods = Array.isArray(parsed) ? parsed.map((m) => m.method) : [parsed.method];
        for (const method of methods) proxy.calls.set(method, (proxy.calls.get(method) ?? 0) + 1);
        if (methods.some((method) => proxy.silent.has(method))) return;
        // A batch is relayed whole: rules answer single requests only.
        const message = Array.isArray(parsed) ? { id: null, method: '' } : parsed;
        const rule = proxy.rules.get(message.method);
        const applied = typeof rule === 'function' ? rule(message.params ?? []) : rule;
        res.setHeader('content-type', 'application/json');
        if (applied) {
          res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...applied }));
          return;
        }
        const upstream = await fetch(upstreamUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.statusCode = upstream.status;
        res.end(await upstream.text());
      })().catch(() => {
        res.statusCode = 502;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
