import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../core/log.js';
import type { WebContext } from './context.js';
import { CallError } from './contractCalls.js';
import { CONTENT_SECURITY_POLICY } from './layout.js';
import { messagePage, notFoundPage } from './pages/messagePage.js';
import { addressRoutes } from './routes/address.js';
import { apiKeysRoutes } from './routes/apiKeys.js';
import { CALL_BODY_LIMIT, callsRoutes } from './routes/calls.js';
import { compilersRoutes } from './routes/compilers.js';
import { contractsRoutes } from './routes/contracts.js';
import { docsRoutes } from './routes/docs.js';
import { homeRoutes } from './routes/home.js';
import { receiptsRoutes } from './routes/receipts.js';
import { sendPage } from './routes/reply.js';
import { createWebRuntime } from './routes/runtime.js';
import { staticRoutes } from './routes/static.js';
import { upgradeCheckRoutes } from './routes/upgradeCheck.js';
import { verifyRoutes } from './routes/verify.js';

/**
 * The explorer: `/`, `/contracts`, `/address/:address` (+ `/read`, `/encode`), `/receipt/:guid`,
 * `/verified-contracts.csv`, `/compilers` (+ `.json`), `/docs/api`, `/search` and the static script and stylesheet.
 * Registered in a scope of its own so its errors become pages (or JSON `{error}` for the
 * call endpoints) instead of the API's envelopes.
 */
/** The API's paths (`/api`, Etherscan's V2 `/v2/api`), with whatever follows them. */
const API_PATH = /^\/(v2\/)?api(\/|\?|$)/;

export async function registerWebRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const runtime = createWebRuntime(ctx.limits, ctx.config.receiptStreams);
  // API requests in flight: while there are any, the CSV export pauses between batches, so a
  // download of the whole store takes longer rather than taking the API's CPU.
  app.addHook('onRequest', async (request, reply) => {
    if (!API_PATH.test(request.url)) return;
    runtime.apiInFlight++;
    reply.raw.once('close', () => runtime.apiInFlight--);
  });
  // Closing the service ends open downloads (a client that stopped reading would hold it open).
  app.addHook('preClose', async () => {
    for (const response of runtime.openDownloads) response.destroy();
    runtime.openDownloads.clear();
  });
  await app.register(async (web) => {
    web.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-frame-options', 'DENY');
      return payload;
    });

    web.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
      const status = error instanceof CallError ? error.status : error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      if (status >= 500 && !(error instanceof CallError)) ctx.logger.error({ err: error, url: redactUrl(request.url) }, 'page failed');
      const text =
        error instanceof CallError
          ? error.message
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? `The request body is too large (at most ${CALL_BODY_LIMIT} bytes)`
            : status < 500
              ? 'The request could not be read'
              : 'Internal error; please try again later';
      if (request.method === 'POST') {
        return reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ error: text });
      }
      return sendPage(reply, messagePage({ chainId: ctx.chainId, title: status >= 500 ? 'Something went wrong' : 'Bad request', message: text }), status);
    });

    // An unknown path: a page for browsers; JSON (the framework's shape) for the API's paths
    // and for clients that ask for JSON only.
    web.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const accept = String(request.headers.accept ?? '');
      const wantsJson = /json/.test(accept) && !/html/.test(accept);
      if (API_PATH.test(path) || wantsJson || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply
          .code(404)
          .header('content-type', 'application/json; charset=utf-8')
          .send({ message: `Route ${request.method}:${path.slice(0, 200)} not found`, error: 'Not Found', statusCode: 404 });
      }
      return sendPage(reply, notFoundPage({ chainId: ctx.chainId, path: path.slice(0, 200) }), 404);
    });

    staticRoutes(web);
    homeRoutes(web, ctx);
    contractsRoutes(web, ctx, runtime);
    compilersRoutes(web, ctx, runtime);
    docsRoutes(web, ctx);
    verifyRoutes(web, ctx, runtime);
    addressRoutes(web, ctx, runtime);
    callsRoutes(web, ctx, runtime);
    upgradeCheckRoutes(web, ctx, runtime);
    receiptsRoutes(web, ctx, runtime);
    apiKeysRoutes(web, ctx);
  });
}
