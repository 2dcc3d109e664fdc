import type { FastifyInstance } from 'fastify';
import { parseAddress } from '../../core/hex.js';
import { clientKey } from '../../limits/clientAddress.js';
import { checkUpgrade } from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { upgradeCheckPage } from '../pages/upgradeCheckPage.js';
import { notAnAddress, sendPage, tooMany } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Upgrade checks per client and second: each may compile (once per compilation, then kept). */
const CHECKS_PER_SECOND = 2;

/**
 * `/address/<proxy>/upgrade-check?implementation=0x…[&against=0x…]`: the form, and with a
 * candidate the verdict of `checkUpgrade` (the API's `checkupgrade`), against the current
 * implementation or an earlier one of the proxy's history.
 */
export function upgradeCheckRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  const perSecond = Math.min(ctx.config.webRate, CHECKS_PER_SECOND);
  web.get('/address/:address/upgrade-check', async (request, reply) => {
    const given = (request.params as { address: string }).address;
    const proxy = parseAddress(given);
    if (!proxy) return notAnAddress(ctx, reply, given);
    const query = request.query as Record<string, unknown>;
    const typed = typeof query['implementation'] === 'string' ? query['implementation'].trim().slice(0, 120) : '';
    const typedAgainst = typeof query['against'] === 'string' ? query['against'].trim().slice(0, 120) : '';
    if (!typed) return sendPage(reply, upgradeCheckPage({ chainId: ctx.chainId, proxy, given: '', against: typedAgainst, answer: null }));
    const candidate = parseAddress(typed);
    const against = typedAgainst ? parseAddress(typedAgainst) : undefined;
    if (!candidate || against === null) {
      const answer = `“${!candidate ? typed : typedAgainst}” is not an address: an address is 0x followed by 40 hex digits.`;
      return sendPage(reply, upgradeCheckPage({ chainId: ctx.chainId, proxy, given: typed, against: typedAgainst, answer }), 400);
    }
    const wait = await runtime.limits.takeTokenOrWait('web-upgrade-check', clientKey(request.ip), perSecond);
    if (wait > 0) return tooMany(ctx, request, reply, `At most ${perSecond} upgrade checks per second; please slow down.`, wait);
    const answer = await checkUpgrade(ctx, proxy, candidate, against);
    return sendPage(reply, upgradeCheckPage({ chainId: ctx.chainId, proxy, given: typed, against: typedAgainst, answer }));
  });
}
