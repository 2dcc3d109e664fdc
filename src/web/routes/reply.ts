import type { FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterSeconds } from '../../limits/clientAddress.js';
import type { WebContext } from '../context.js';
import { type Html, html } from '../html.js';
import { messagePage } from '../pages/messagePage.js';

/** A page as the answer: HTML, never cached. */
export function sendPage(reply: FastifyReply, page: Html, status = 200): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(page.value);
}

/** A request over its rate: JSON `{error}` to the call and form posts, a page to the rest; Retry-After is the limiter's wait. */
export function tooMany(ctx: WebContext, request: FastifyRequest, reply: FastifyReply, message: string, waitMs: number): FastifyReply {
  void reply.header('retry-after', String(retryAfterSeconds(waitMs)));
  if (request.method === 'POST') return reply.code(429).header('content-type', 'application/json; charset=utf-8').send({ error: message });
  return sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Too many requests', message }), 429);
}

/** A 400 page for a path's address that is none, `given` shown (escaped) as the search it may have been. */
export function notAnAddress(ctx: WebContext, reply: FastifyReply, given: string): FastifyReply {
  const shown = given.slice(0, 120);
  return sendPage(
    reply,
    messagePage({
      chainId: ctx.chainId,
      title: 'Not an address',
      message: html`“${shown}” is not an address: an address is 0x followed by 40 hex digits.`,
      query: shown,
    }),
    400,
  );
}

/** The public base URL for hints shown on pages. */
export function baseUrlOf(ctx: WebContext, request: FastifyRequest): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}
