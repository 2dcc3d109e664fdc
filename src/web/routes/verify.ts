import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAddress } from '../../core/hex.js';
import { isReceipt } from '../../core/receipt.js';
import type { WebContext } from '../context.js';
import { CallError } from '../contractCalls.js';
import { messagePage } from '../pages/messagePage.js';
import { verifyPage } from '../pages/verifyPage.js';
import { emptyFormValues, fieldOfApiError, readVerifyForm } from '../verifyForm.js';
import { readVerifyFormBody, VerifyFormBody } from '../verifyFormBody.js';
import { compilerChoices } from './compilers.js';
import { sendPage, tooMany } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Verify & Publish form posts per client and second (each may carry megabytes of sources). */
const VERIFY_FORMS_PER_SECOND = 2;

/**
 * Verify & Publish (`/verify`): the form, and its plain multipart POST (files keep their names),
 * read as it arrives: the key is checked when it comes (first, on the page), before the sources.
 * The form is handed to the API as its verifysourcecode; a receipt leads to the receipt page.
 */
export function verifyRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  web.addContentTypeParser('multipart/form-data', { bodyLimit: ctx.config.bodyLimit }, async (request: FastifyRequest, payload: Readable) => {
    try {
      return await readVerifyFormBody(payload, {
        contentType: request.headers['content-type'] ?? '',
        bodyLimit: ctx.config.bodyLimit,
        checkApiKey: (apiKey) => ctx.checkApiKey(apiKey, request.ip),
      });
    } catch (error) {
      // The client went away mid-form; anything else (the key lookup failing) is the service's fault.
      if ((error as { code?: string }).code === 'ECONNRESET') throw new CallError(400, 'The form could not be read');
      throw error;
    }
  });

  web.get('/verify', async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).address;
    const address = typeof raw === 'string' && isAddress(raw.trim()) ? raw.trim().toLowerCase() : '';
    return sendPage(
      reply,
      verifyPage({ chainId: ctx.chainId, values: emptyFormValues(address), compilers: await compilerChoices(ctx), contracts: [], errors: {} }),
    );
  });

  web.post(
    '/verify',
    {
      bodyLimit: ctx.config.bodyLimit,
      // Counted before the body is read: a client cannot make the service read megabytes at will.
      onRequest: async (request, reply) => {
        if (!(await runtime.limits.takeToken('web-verify', request.ip, VERIFY_FORMS_PER_SECOND))) {
          return tooMany(ctx, request, reply, `At most ${VERIFY_FORMS_PER_SECOND} verification forms per second; please slow down.`);
        }
        return undefined;
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!(body instanceof VerifyFormBody)) {
        return sendPage(
          reply,
          messagePage({ chainId: ctx.chainId, title: 'Bad request', message: 'The form must be sent as multipart/form-data (the page does this).' }),
          400,
        );
      }
      const read = readVerifyForm(body.entries);
      const again = async (errors: Parameters<typeof verifyPage>[0]['errors'], status: number) =>
        sendPage(
          reply,
          verifyPage({ chainId: ctx.chainId, values: read.values, compilers: await compilerChoices(ctx), contracts: read.contracts, errors }),
          status,
        );
      if (body.refusal) return again({ [body.refusal.field]: body.refusal.message }, body.refusal.status);
      if (!read.ok || body.keyRefusal) return again({ ...(read.ok ? {} : read.errors), ...(body.keyRefusal ? { apiKey: body.keyRefusal } : {}) }, 400);
      const answer = await ctx.submitVerification(read.params, request.ip);
      if (answer.status === '1' && typeof answer.result === 'string' && isReceipt(answer.result)) return reply.redirect(`/receipt/${answer.result}`, 303);
      const message = typeof answer.result === 'string' && answer.result ? answer.result : answer.message;
      return again({ [fieldOfApiError(message, read.values.format)]: message }, 400);
    },
  );
}
