/**
 * Sourcify's API (its v2, and the two v1 routes hardhat-verify 2 calls) under one base path,
 * `/sourcify`, answered from the same store and by the same verification jobs as `/api`:
 * `forge verify-contract --verifier sourcify --verifier-url <base>/sourcify/` and Hardhat's
 * Sourcify verifier talk to it. Every answer is Sourcify-shaped: JSON, its status codes, and
 * `{customCode, message, errorId}` for an error, whatever went wrong.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey, retryAfterSeconds } from '../limits/clientAddress.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import type { Services } from '../useCases/index.js';
import { type Answer, sendError } from './answers.js';
import { getContract } from './contract.js';
import { listContracts } from './contracts.js';
import { jobStatus } from './jobStatus.js';
import { BodyReaderBusy, InvalidJson, MAX_JSON_VALUES, readJsonBody } from './jsonBody.js';
import { readMetadataRequest } from './metadataRequest.js';
import { verifySimilar } from './similarity.js';
import { checkAllByAddresses, verifyFiles } from './v1.js';
import { verify } from './verify.js';

/** Where the API is served. */
export const SOURCIFY_BASE_PATH = '/sourcify';

type Params = Record<string, string | undefined>;

/** Registers the routes under SOURCIFY_BASE_PATH. */
export async function registerSourcifyRoutes(app: FastifyInstance, s: Services): Promise<void> {
  await app.register(
    async (api) => {
      // Sourcify's bodies are JSON, whatever content type a client names (or none).
      api.removeAllContentTypeParsers();
      api.addContentTypeParser('*', (_request: FastifyRequest, payload: IncomingMessage) => readJsonBody(payload, s.config.sourcifyBodyLimit));

      // Keyless: each client address is limited (`--sourcify-rate` a second) before its body is read.
      api.addHook('onRequest', async (request, reply) => {
        const wait = await s.limits.takeTokenOrWait('sourcify', clientKey(request.ip), s.config.sourcifyRate);
        if (wait > 0) return sendError(reply.header('retry-after', String(retryAfterSeconds(wait))), 429, 'too_many_requests', SOURCIFY_TEXT.tooManyRequests);
      });

      api.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
        if (error instanceof InvalidJson) {
          return sendError(
            reply,
            400,
            'invalid_json',
            error.reason === 'too many values' ? SOURCIFY_TEXT.tooManyJsonValues(MAX_JSON_VALUES) : SOURCIFY_TEXT.invalidJson,
          );
        }
        if (error instanceof BodyReaderBusy) return sendError(reply.header('retry-after', '1'), 429, 'too_many_requests', SOURCIFY_TEXT.readingLargeBodies);
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
          return sendError(reply, 400, 'invalid_parameter', SOURCIFY_TEXT.bodyTooLarge(s.config.sourcifyBodyLimit));
        if (error.statusCode !== undefined && error.statusCode < 500) return sendError(reply, 400, 'invalid_parameter', SOURCIFY_TEXT.invalidJson);
        s.logger.error({ err: error, url: request.url }, 'Sourcify API request failed');
        return sendError(reply, 500, 'internal_error', SOURCIFY_TEXT.internalError);
      });
      api.setNotFoundHandler((request, reply) =>
        sendError(reply, 404, 'route_not_found', SOURCIFY_TEXT.routeNotFound(request.method, request.url.split('?')[0] ?? '')),
      );

      const answer = (reply: FastifyReply, a: Answer) => {
        if (a.retryAfterSeconds !== undefined) void reply.header('retry-after', String(a.retryAfterSeconds));
        return reply.code(a.status).header('content-type', 'application/json; charset=utf-8').send(a.body);
      };
      const params = (request: FastifyRequest) => request.params as Params;
      const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

      api.post('/v2/verify/:chainId/:address', async (request, reply) => answer(reply, await verify(s, params(request), request.body, request.ip)));
      api.post('/v2/verify/metadata/:chainId/:address', async (request, reply) => {
        const read = readMetadataRequest(request.body);
        if (!read.ok) return sendError(reply, 400, 'invalid_parameter', read.message);
        return answer(reply, await verify(s, params(request), read.request, request.ip));
      });
      api.post('/v2/verify/similarity/:chainId/:address', async (request, reply) => answer(reply, await verifySimilar(s, params(request), request.body)));
      api.get('/v2/verify/:verificationId', async (request, reply) => answer(reply, await jobStatus(s, params(request).verificationId)));
      api.get('/v2/contract/:chainId/:address', async (request, reply) => answer(reply, await getContract(s, params(request), query(request))));
      // Sourcify's v1, as hardhat-verify 2 calls it.
      api.get('/check-all-by-addresses', async (request, reply) => answer(reply, await checkAllByAddresses(s, query(request))));
      api.post('/', async (request, reply) => answer(reply, await verifyFiles(s, request.body, request.ip)));
      api.get('/v2/contracts/:chainId', async (request, reply) => answer(reply, await listContracts(s, params(request), query(request))));
    },
    { prefix: SOURCIFY_BASE_PATH },
  );
}
