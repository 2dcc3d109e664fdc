import type { FastifyInstance } from 'fastify';
import { countKeysCreatedSince, createApiKey } from '../../store/apiKeys.js';
import { utcSecond } from '../../texts/index.js';
import type { WebContext } from '../context.js';
import { apiKeyPage } from '../pages/apiKeyPage.js';
import { baseUrlOf, sendPage } from './reply.js';

/** The owner a self-service key is recorded with (what `keys list` shows): the address that created it. */
export const selfServiceOwner = (client: string): string => `self-service ${client}`;

/** Whether a browser's Sec-Fetch-Site says the request came from this site's own pages (or a typed address); absent is not a browser. */
const fromThisSite = (site: string | string[] | undefined): boolean => site === undefined || site === 'same-origin' || site === 'none';

/**
 * `/keys`: how to get an API key. With `--self-service-keys N` a visitor creates a free key
 * here (a POST), shown once and stored hashed like any other, N per client address per UTC
 * day (counted in the store); otherwise the page says the operator issues keys.
 */
export function apiKeysRoutes(web: FastifyInstance, ctx: WebContext): void {
  const perDay = ctx.config.selfServiceKeys;
  // One creation at a time per address, so two requests at once cannot both take the last key.
  const creating = new Map<string, Promise<unknown>>();

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
    const previous = creating.get(client) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const now = Date.now();
      const dayStart = now - (now % 86_400_000);
      const owner = selfServiceOwner(client);
      const made = await countKeysCreatedSince(ctx.store.db, owner, dayStart);
      if (made >= perDay) return { limit: utcSecond(new Date(dayStart + 86_400_000)) };
      const { key } = await createApiKey(ctx.store.db, { owner, tier: 'free', now });
      return { key, left: perDay - made - 1 };
    });
    const settled = turn.catch(() => undefined);
    creating.set(client, settled);
    void settled.then(() => {
      if (creating.get(client) === settled) creating.delete(client);
    });
    const outcome = await turn;
    if ('limit' in outcome) {
      void reply.header('retry-after', String(Math.max(1, Math.ceil((Date.parse(outcome.limit) - Date.now()) / 1000))));
      return sendPage(reply, apiKeyPage({ chainId: ctx.chainId, baseUrl, state: { mode: 'limit_reached', perDay, resetsAt: outcome.limit } }), 429);
    }
    ctx.logger.info({ client }, 'a visitor created a free API key');
    return sendPage(reply, apiKeyPage({ chainId: ctx.chainId, baseUrl, state: { mode: 'created', key: outcome.key, perDay, left: outcome.left } }));
  });
}
