import type { FastifyInstance } from 'fastify';
import { isAddress } from '../../core/hex.js';
import { isReceipt } from '../../core/receipt.js';
import { listVerified, proxiesAmong, verifiedCount } from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { homePage } from '../pages/homePage.js';
import { sendPage } from './reply.js';

/** Latest contracts on the start page. */
const HOME_LATEST = 10;

/** `/` (the latest contracts) and `/search`, which sends an address, a receipt or a name to its page. */
export function homeRoutes(web: FastifyInstance, ctx: WebContext): void {
  web.get('/', async (_request, reply) => {
    const latest = await listVerified(ctx, { limit: HOME_LATEST, offset: 0 });
    const total = await verifiedCount(ctx);
    const proxies = await proxiesAmong(
      ctx,
      latest.map((c) => c.address),
    );
    return sendPage(reply, homePage({ chainId: ctx.chainId, latest, total, proxies }));
  });

  web.get('/search', async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).q;
    const q = typeof raw === 'string' ? raw.trim() : '';
    if (isAddress(q)) return reply.redirect(`/address/${q.toLowerCase()}`, 303);
    if (isReceipt(q)) return reply.redirect(`/receipt/${q}`, 303);
    if (/^[A-Za-z_$][A-Za-z0-9_$]{0,255}$/.test(q)) return reply.redirect(`/contracts?q=${encodeURIComponent(q)}`, 303);
    const latest = await listVerified(ctx, { limit: HOME_LATEST, offset: 0 });
    const total = await verifiedCount(ctx);
    const message = q
      ? 'Not an address, a receipt or a contract name: an address is 0x and 40 hex digits, a receipt 50 lower-case letters and digits, a name a Solidity identifier.'
      : 'Type an address or a receipt.';
    return sendPage(reply, homePage({ chainId: ctx.chainId, latest, total, message, query: q.slice(0, 120) }), 400);
  });
}
