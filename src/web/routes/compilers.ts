import type { FastifyInstance } from 'fastify';
import { clientKey, retryAfterSeconds } from '../../limits/clientAddress.js';
import type { WebContext } from '../context.js';
import { compilersPage } from '../pages/compilersPage.js';
import { sendPage, tooMany } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Long versions of the releases (no nightlies), newest first: what the form and the list filter offer. */
export async function compilerChoices(ctx: WebContext): Promise<string[]> {
  const listing = await ctx.compilers.list();
  const solc = listing.builds.flatMap((b) => (!b.nightly && b.compilerVersion ? [b.compilerVersion] : []));
  // Vyper releases the service can compile with (installed, cached or offered for download), after solc's.
  const vyper = (listing.vyper?.builds ?? []).flatMap((b) => (!b.prerelease && b.sources.length > 0 ? [b.compilerVersion] : []));
  return [...solc, ...vyper];
}

/** `/compilers` and `/compilers.json`: the compilers the service can use. */
export function compilersRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  // The whole list is up to a few thousand builds: bounded like the other pages that cost work.
  const COMPILER_LISTS_PER_SECOND = ctx.config.webRate;

  web.get('/compilers.json', async (request, reply) => {
    const wait = await runtime.limits.takeTokenOrWait('web-compilers', clientKey(request.ip), COMPILER_LISTS_PER_SECOND);
    if (wait > 0) {
      return reply
        .code(429)
        .header('retry-after', String(retryAfterSeconds(wait)))
        .send({ error: `At most ${COMPILER_LISTS_PER_SECOND} compiler lists per second; please slow down.` });
    }
    const listing = await ctx.compilers.list();
    return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(listing));
  });

  web.get('/compilers', async (request, reply) => {
    const wait = await runtime.limits.takeTokenOrWait('web-compilers', clientKey(request.ip), COMPILER_LISTS_PER_SECOND);
    if (wait > 0) return tooMany(ctx, request, reply, `At most ${COMPILER_LISTS_PER_SECOND} compiler lists per second; please slow down.`, wait);
    const params = request.query as Record<string, unknown>;
    const query = typeof params.q === 'string' ? params.q.trim().slice(0, 80) : '';
    const listing = await ctx.compilers.list();
    return sendPage(reply, compilersPage({ chainId: ctx.chainId, listing, query, nightlies: params.nightlies === '1' }));
  });
}
