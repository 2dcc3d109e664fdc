import { BaseError, type Client, createClient, HttpRequestError, http, ResponseBodyTooLargeError, RpcRequestError, TimeoutError } from 'viem';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/** Why a JSON-RPC request failed. */
export type RpcFailureKind =
  /** No HTTP answer at all: connection refused, reset, DNS. */
  | 'unreachable'
  | 'timeout'
  /** An HTTP error status without a JSON-RPC error body. */
  | 'http'
  /** The node answered with a JSON-RPC error object. */
  | 'rpc'
  | 'too_large'
  /** The node answered, but not with the shape the method promises. */
  | 'malformed';

/** A failed JSON-RPC request, classified so callers can tell "node down" from "not here". */
export class RpcFailure extends Error {
  readonly method: string;
  readonly kind: RpcFailureKind;
  readonly code: number | undefined;
  readonly status: number | undefined;
  readonly data: unknown;

  constructor(method: string, kind: RpcFailureKind, message: string, extra: { code?: number | undefined; status?: number | undefined; data?: unknown } = {}) {
    super(message);
    this.name = 'RpcFailure';
    this.method = method;
    this.kind = kind;
    this.code = extra.code;
    this.status = extra.status;
    this.data = extra.data;
  }
}

export interface JsonRpcOptions {
  rpcUrl: string;
  timeoutMs: number;
  /** Timeout for traces, block bodies and ots lookups, which a node may take long to build. */
  heavyTimeoutMs: number;
  /** Retries after the first attempt, only for failures a retry can cure. */
  retryCount: number;
  heavyMaxResponseBytes: number;
  logger?: Logger | undefined;
}

export interface JsonRpc {
  /** Sends one request; throws RpcFailure. */
  request(method: string, params: unknown[], options?: { heavy?: boolean }): Promise<unknown>;
  /** Sends many requests of one method as JSON-RPC batches (at most 100 a batch); throws RpcFailure when one fails. */
  requestMany(method: string, paramsList: unknown[][]): Promise<unknown[]>;
  /**
   * Like request, but resolves `{ supported: false }` when the node does not serve the
   * method, and remembers that so the method is not asked for again.
   */
  optional(method: string, params: unknown[], options?: { heavy?: boolean }): Promise<{ supported: true; result: unknown } | { supported: false }>;
  /** False once the node refused the method; undefined before it was tried. */
  supports(method: string): boolean | undefined;
  markUnsupported(method: string): void;
}

type UntypedRequest = (args: { method: string; params: unknown[] }) => Promise<unknown>;

const RETRY_BASE_DELAY_MS = 100;
const RETRY_MAX_DELAY_MS = 1000;

/** JSON-RPC over HTTP with bounded time, bounded answers and failures sorted by cause. */
export function createJsonRpc(options: JsonRpcOptions): JsonRpc {
  // viem's own retries would also retry -32603, which anvil uses for EVM failures in
  // eth_call; retries are decided here instead.
  const light: Client = createClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0 }),
  });
  const heavy: Client = createClient({
    transport: http(options.rpcUrl, {
      timeout: options.heavyTimeoutMs,
      retryCount: 0,
      maxResponseBodySize: options.heavyMaxResponseBytes,
    }),
  });
  // Requests made in the same tick go out as one JSON-RPC batch.
  const batched: Client = createClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0, batch: { batchSize: 100, wait: 0 } }),
  });
  const support = new Map<string, boolean>();

  async function request(method: string, params: unknown[], opts: { heavy?: boolean; batch?: boolean } = {}): Promise<unknown> {
    const send = (opts.batch ? batched : opts.heavy ? heavy : light).request as unknown as UntypedRequest;
    for (let attempt = 0; ; attempt++) {
      try {
        return await send({ method, params });
      } catch (e) {
        const failure = classifyRpcError(method, e);
        if (attempt >= options.retryCount || !isTransient(failure)) throw failure;
        await sleep(Math.min(RETRY_BASE_DELAY_MS * 2 ** attempt, RETRY_MAX_DELAY_MS));
      }
    }
  }

  function markUnsupported(method: string): void {
    if (support.get(method) === false) return;
    support.set(method, false);
    options.logger?.info({ method }, 'network node does not serve this method; using a fallback');
  }

  return {
    request,
    requestMany: (method, paramsList) => Promise.all(paramsList.map((params) => request(method, params, { batch: true }))),
    supports: (method) => support.get(method),
    markUnsupported,
    async optional(method, params, opts) {
      if (support.get(method) === false) return { supported: false };
      try {
        const result = await request(method, params, opts);
        support.set(method, true);
        return { supported: true, result };
      } catch (e) {
        if (e instanceof RpcFailure && isUnsupportedMethod(e)) {
          markUnsupported(method);
          return { supported: false };
        }
        throw e;
      }
    },
  };
}

/**
 * Sorts a viem transport error into an RpcFailure. The viem error is not kept as the
 * cause: its text carries the RPC URL, which may hold an API key, and would reach logs.
 */
export function classifyRpcError(method: string, e: unknown): RpcFailure {
  if (e instanceof RpcFailure) return e;
  if (e instanceof BaseError) {
    const rpcError = e.walk((x) => x instanceof RpcRequestError) as RpcRequestError | null;
    if (rpcError) {
      return new RpcFailure(method, 'rpc', rpcError.details || rpcError.shortMessage, {
        code: rpcError.code,
        status: rpcError.status,
        data: rpcError.data,
      });
    }
    if (e.walk((x) => x instanceof TimeoutError)) return new RpcFailure(method, 'timeout', 'the request timed out');
    if (e.walk((x) => x instanceof ResponseBodyTooLargeError)) {
      return new RpcFailure(method, 'too_large', 'the answer was too large');
    }
    const httpError = e.walk((x) => x instanceof HttpRequestError) as HttpRequestError | null;
    if (httpError?.status) {
      return new RpcFailure(method, 'http', `HTTP status ${httpError.status}`, { status: httpError.status });
    }
    if (httpError) return new RpcFailure(method, 'unreachable', innermostMessage(httpError.cause) ?? 'no answer');
  }
  return new RpcFailure(method, 'unreachable', innermostMessage(e) ?? String(e));
}

/** The socket-level reason ("connect ECONNREFUSED 127.0.0.1:8545") under fetch's "fetch failed". */
function innermostMessage(e: unknown): string | undefined {
  let message: string | undefined;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) message = e.message;
  return message;
}

function isTransient(f: RpcFailure): boolean {
  // A timeout is not retried: the node already had the whole budget, and a caller that
  // waits several budgets for a dead node is worse off than one told to come back later.
  if (f.kind === 'unreachable') return true;
  if (f.kind === 'http') return f.status === 429 || f.status === 502 || f.status === 503 || f.status === 504;
  if (f.kind === 'rpc') return f.code === -32005 || f.code === 429 || f.code === -32007;
  return false;
}

const UNSUPPORTED_METHOD =
  /method .*(not found|does not exist|is not available|not supported|unsupported|not whitelisted|not allowed|disabled)|unsupported method|unknown method|no such method|namespace .*(disabled|not enabled)/i;

/** The node does not serve the method (a capability, not an outage). */
export function isUnsupportedMethod(f: RpcFailure): boolean {
  if (f.kind === 'http') return f.status === 404 || f.status === 405 || f.status === 501;
  if (f.kind !== 'rpc') return false;
  return f.code === -32601 || f.code === -32004 || UNSUPPORTED_METHOD.test(f.message);
}

const EXECUTION_FAILURE =
  /revert|invalid opcode|opcode .*not defined|InvalidFEOpcode|OpcodeNotFound|out of gas|OutOfGas|stack (underflow|overflow|limit)|StackUnderflow|StackOverflow|invalid jump|InvalidJump|write protection|StateChangeDuringStaticCall|CallTooDeep|^EVM error/i;
const NODE_TROUBLE = /database|connection|timed? ?out|missing trie node|header not found|historical state/i;

/** eth_call ran and the EVM stopped with a failure (revert, invalid opcode, out of gas). */
export function isExecutionFailure(f: RpcFailure): boolean {
  if (f.kind !== 'rpc') return false;
  if (f.code === 3) return true;
  return EXECUTION_FAILURE.test(f.message) && !NODE_TROUBLE.test(f.message);
}

const STATE_UNAVAILABLE =
  /missing trie node|header not found|historical state|state .*(not available|unavailable|pruned)|BlockOutOfRange|state histories|unknown block|block not found|old data not available|archive/i;

/** The node keeps no state for the requested block (not an archive node). */
export function isStateUnavailable(f: RpcFailure): boolean {
  return f.kind === 'rpc' && STATE_UNAVAILABLE.test(f.message);
}

/** The service-level error for a node that is down or misbehaving: always retryable. */
export function chainUnavailable(e: unknown): SolproofError {
  if (e instanceof SolproofError) return e;
  const f = e instanceof RpcFailure ? e : classifyRpcError('unknown', e);
  return new SolproofError(
    'chain_unavailable',
    {
      method: f.method,
      reason: f.kind,
      rpcCode: f.code,
      httpStatus: f.status,
      nodeMessage: f.message.slice(0, 300),
    },
    { retryable: true, cause: f },
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
