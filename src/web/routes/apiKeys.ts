import type { FastifyInstance } from 'fastify';
import { retryAfterSeconds } from '../../limits/clientAddress.js';
import { utcSecond } from '../../texts/index.js';
import { createSelfServiceKey } from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { apiKeyPage } from '../pages/apiKeyPage.js';
import { baseUrlOf, sendPage } from './reply.js';

/** Whether a browser's Sec-Fetch-Site says the request came from this site's own pages (or a typed address); absent is not a browser. */
const fromThisSite = (site: string | string[] | undefined): boolean => site === undefined || site === 'same-origin' || site === 'none';

/**
 * `/keys`: how to get an API key. With `--self-service-keys N` a visitor creates a free key
 * here (a POST), shown once and stored hashed like any other, N per client (`clientKey`: an IPv6
 * /64 is one) per UTC day (counted in the store); otherwise the page says the operator issues keys.
 */
export function apiKeysRoutes(web: FastifyInstance, ctx: WebContext): void {
  const perDay = ctx.config.selfServiceKeys;

  web.get('/keys', async (request, reply) =>
    sendPage(
      reply,
      apiKeyPage({ chainId: ctx.chainId, baseUrl: baseUrlOf(ctx, request), state: perDay > 0 ? { mode: 'self_service', perDay } : { mode: 'operator' } }),
    ),
  );

  web.post('/keys', async (request, reply) => {
    const baseUrl = baseUrlOf(ctx, request);
    if (perDay <= 0) return sendPage(reply, apiKeyPage({ chainId: ctx.chainId, baseUrl, state: { mode: 'operator' } }), 403);
    // A form on another site must not spend this address's keys of the day. Browsers say where a
    // request comes from (Sec-Fetch-Site); clients that are not browsers send nothing and are served.
    if (!fromThisSite(request.headers['sec-fetch-site'])) {
      return sendPage(reply, apiKeyPage({ chainId: ctx.chainId, baseUrl, state: { mode: 'other_site', perDay } }), 403);
    }
    const client = request.ip;
    const outcome = await createSelfServiceKey(ctx, client, perDay);
    if (!outcome.ok) {
      void reply.header('retry-after', String(retryAfterSeconds(outcome.resetsAt.getTime() - Date.now())));
      return sendPage(
        reply,
        apiKeyPage({ chainId: ctx.chainId, baseUrl, state: { mode: 'limit_reached', perDay, resetsAt: utcSecond(outcome.resetsAt) } }),
        429,
      );
    }
    ctx.logger.info({ client }, 'a visitor created a free API key');
    return sendPage(reply, apiKeyPage({ chainId: ctx.chainId, baseUrl, state: { mode: 'created', key: outcome.key, perDay, left: outcome.left } }));
  });
}
