import type { FastifyInstance, FastifyReply } from 'fastify';
import { isReceipt } from '../../core/receipt.js';
import { clientKey } from '../../limits/clientAddress.js';
import { findJob } from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { messagePage } from '../pages/messagePage.js';
import { receiptPage } from '../pages/receiptPage.js';
import { receiptDocument } from '../receiptDocument.js';
import { sendPage, tooMany } from './reply.js';
import { RECEIPT_STREAM_MAX_MS, type WebRuntime } from './runtime.js';

/** How often a receipt event stream reads its receipt. */
const RECEIPT_STREAM_POLL_MS = 500;

/** `/receipt/<guid>` (the page), `/receipt/<guid>.json` (for tools) and `/receipt/<guid>/events` (its changes as they come). */
export function receiptsRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  web.get('/receipt/:guid', async (request, reply) => {
    const param = (request.params as { guid: string }).guid;
    // `/receipt/<guid>.json`: the same receipt for tools, with the diagnosis of a failure.
    if (param.endsWith('.json')) return receiptJson(ctx, reply, param.slice(0, -'.json'.length));
    const guid = param;
    if (!isReceipt(guid)) {
      return sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Not a receipt', message: 'A receipt is 50 lower-case letters and digits.' }), 400);
    }
    const job = await findJob(ctx, guid);
    if (!job) {
      return sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Unknown receipt', message: 'No verification has this receipt.' }), 404);
    }
    return sendPage(reply, receiptPage({ chainId: ctx.chainId, job }));
  });

  // `/receipt/<guid>/events`: server-sent events, one `state` event per change of the
  // receipt's state ({state, status, done}), ending with the verdict; comments keep it alive.
  web.get('/receipt/:guid/events', async (request, reply) => {
    const guid = (request.params as { guid: string }).guid;
    if (!isReceipt(guid))
      return reply.code(400).header('content-type', 'application/json; charset=utf-8').send({ error: 'A receipt is 50 lower-case letters and digits.' });
    const first = await findJob(ctx, guid);
    if (!first) return reply.code(404).header('content-type', 'application/json; charset=utf-8').send({ error: 'No verification has this receipt.' });
    // Fair shares: a client holds at most its few streams, and when all are open a client with
    // fewer takes the oldest stream of the one with the most (which ends, and its page reloads).
    const raw = reply.raw;
    let closed = false;
    const taken = runtime.receiptStreams.open(clientKey(request.ip), () => {
      closed = true;
      raw.end();
    });
    if (!('slot' in taken)) {
      return tooMany(ctx, request, reply, 'Too many receipt streams are open; poll checkverifystatus or /receipt/<guid>.json instead.', taken.waitMs);
    }
    runtime.openDownloads.add(raw);
    raw.once('close', () => {
      closed = true;
      runtime.openDownloads.delete(raw);
      taken.slot.release();
    });
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    const started = Date.now();
    let sent = '';
    let job: typeof first | null = first;
    let lastWrite = Date.now();
    while (!closed && job) {
      const document = receiptDocument(job);
      const done = document.state !== 'pending';
      if (document.state !== sent || done) {
        raw.write(`event: state\ndata: ${JSON.stringify({ state: job.state, status: document.status, done })}\n\n`);
        sent = document.state;
        lastWrite = Date.now();
      }
      if (done || Date.now() - started > RECEIPT_STREAM_MAX_MS) break;
      if (Date.now() - lastWrite > 15_000) {
        raw.write(': still working\n\n');
        lastWrite = Date.now();
      }
      await new Promise((r) => setTimeout(r, RECEIPT_STREAM_POLL_MS));
      job = await findJob(ctx, guid);
    }
    if (!closed) raw.end();
  });
}

async function receiptJson(ctx: WebContext, reply: FastifyReply, guid: string): Promise<FastifyReply> {
  const json = (status: number, body: unknown) => reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
  if (!isReceipt(guid)) return json(400, { error: 'A receipt is 50 lower-case letters and digits.' });
  const job = await findJob(ctx, guid);
  if (!job) return json(404, { error: 'No verification has this receipt.' });
  return json(200, receiptDocument(job));
}
