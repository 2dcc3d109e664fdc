import type { FastifyInstance } from 'fastify';
import type { WebContext } from '../context.js';
import { apiDocsPage } from '../pages/apiDocsPage.js';
import { baseUrlOf, sendPage } from './reply.js';

/** `/docs/api`: the API's documentation, its examples on this service's URL. */
export function docsRoutes(web: FastifyInstance, ctx: WebContext): void {
  web.get('/docs/api', async (request, reply) => sendPage(reply, apiDocsPage({ chainId: ctx.chainId, baseUrl: baseUrlOf(ctx, request) })));
}
