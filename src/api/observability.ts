/**
 * What an operator sees of the HTTP side: request counts and latencies by action and status,
 * refusals by limit, the access log, liveness (`/health`), readiness (`/health/ready`) and the
 * Prometheus text (`/metrics`). Metrics go through the ServiceMetrics port; the registry behind
 * it is composed elsewhere.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from '../core/log.js';
import type { ServiceMetrics } from '../core/metrics.js';
import { TEXT } from '../texts/index.js';

const keyIds = new WeakMap<FastifyRequest, string>();
const startedAt = new WeakMap<FastifyRequest, bigint>();

/** Notes the id of the key a request was allowed with (the access log names it; never the key). */
export function noteKeyId(request: FastifyRequest, keyId: string | null | undefined): void {
  if (keyId) keyIds.set(request, keyId);
}

/** The checks `/health/ready` answers with. */
export interface ReadinessReport {
  ready: boolean;
  /** `ready`, `unready` or `draining`. */
  status: string;
  checks: Record<string, { ok: boolean; error?: string; [fact: string]: unknown }>;
  [fact: string]: unknown;
}

export interface ObservabilityOptions {
  metrics: ServiceMetrics;
  /** Where the access log goes; null leaves it off. */
  accessLog: Logger | null;
  /** The API's actions as `module.action`: other values are counted as `api.unknown` (labels stay few). */
  apiActions: ReadonlySet<string>;
}

/** The label of a request: the API action, the route's pattern, or `unmatched`. */
function actionOf(request: FastifyRequest, apiActions: ReadonlySet<string>): string {
  const route = request.routeOptions.url;
  if (route === '/api' || route === '/v2/api') {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
    const field = (name: string) => {
      const v = query[name] ?? body[name];
      return typeof v === 'string' ? v.toLowerCase() : '';
    };
    const action = `${field('module')}.${field('action')}`;
    return apiActions.has(action) ? action : 'api.unknown';
  }
  return route ?? 'unmatched';
}

/** Which limit an /api refusal came from, read from the envelope the client gets. */
function refusalOf(payload: string): string | null {
  if (payload.length > 4096 || !payload.includes('"status":"0"')) return null;
  let result: unknown;
  try {
    result = (JSON.parse(payload) as { result?: unknown }).result;
  } catch {
    return null;
  }
  if (typeof result !== 'string') return null;
  if (result === TEXT.maxRateKeyed || result === TEXT.maxRateKeyless) return 'rate_limit';
  if (result === TEXT.tooManyInvalidKeys) return 'invalid_key_cooldown';
  // The quota and queue refusals carry numbers and dates: their fixed words identify them.
  if (result.startsWith('Daily limit of ')) return 'quota';
  if (result.includes(' verifications waiting or running;')) return 'queued_jobs';
  return null;
}

/** Counts and (when asked) logs every request `app` answers. */
export function observeRequests(app: FastifyInstance, options: ObservabilityOptions): void {
  app.addHook('onRequest', async (request) => {
    startedAt.set(request, process.hrtime.bigint());
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    if ((request.routeOptions.url === '/api' || request.routeOptions.url === '/v2/api') && typeof payload === 'string') {
      const reason = refusalOf(payload);
      if (reason) options.metrics.refused(reason);
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const began = startedAt.get(request);
    const seconds = began === undefined ? 0 : Number(process.hrtime.bigint() - began) / 1e9;
    const action = actionOf(request, options.apiActions);
    options.metrics.request(action, reply.statusCode, seconds);
    options.accessLog?.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        action,
        status: reply.statusCode,
        ms: Math.round(seconds * 1000),
        keyId: keyIds.get(request) ?? null,
        client: request.ip,
      },
      'request',
    );
  });
}

export interface HealthRoutesOptions {
  /** Also answer `/health` (the API server has its own). */
  liveness?: { chainId: number } | undefined;
  ready(): Promise<ReadinessReport>;
  metrics(): Promise<{ contentType: string; body: string }>;
}

/** `/health/ready` (200 when ready, else 503) and `/metrics`; `/health` when asked. */
export function registerHealthRoutes(app: FastifyInstance, options: HealthRoutesOptions): void {
  const liveness = options.liveness;
  if (liveness) app.get('/health', async (_req, reply) => reply.send({ status: 'ok', chainId: liveness.chainId }));
  app.get('/health/ready', async (_req, reply) => {
    const report = await options.ready();
    return reply
      .code(report.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
  app.get('/metrics', async (_req, reply) => {
    const { contentType, body } = await options.metrics();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/** A worker's HTTP server: health, readiness and metrics only. */
export async function buildWorkerServer(options: HealthRoutesOptions & { metricsPort: ServiceMetrics; accessLog: Logger | null }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, connectionTimeout: 30_000, keepAliveTimeout: 5_000 });
  observeRequests(app, { metrics: options.metricsPort, accessLog: options.accessLog, apiActions: new Set() });
  registerHealthRoutes(app, options);
  return app;
}

/** Resolves to `fallback` when `promise` takes longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() => clearTimeout(timer));
}
