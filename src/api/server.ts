import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AccessControl, type ActionClass } from './access.js';
import { checkProxyVerification } from './actions/checkProxyVerification.js';
import { checkVerifyStatus } from './actions/checkVerifyStatus.js';
import { getAbi } from './actions/getAbi.js';
import { getLogs } from './actions/getLogs.js';
import { getSourceCode } from './actions/getSourceCode.js';
import { verifyProxyContract } from './actions/verifyProxyContract.js';
import { verifySourceCode } from './actions/verifySourceCode.js';
import { answerClientError } from './clientError.js';
import type { ApiContext, Caller } from './context.js';
import { fail, type Envelope } from './envelope.js';
import { Params } from './params.js';
import type { RateLimitStore } from './rateLimits.js';
import { BodyError, createBodyParser } from './requestBody.js';
import { TEXT } from './texts.js';
import { registerWebRoutes } from '../web/routes.js';

type ActionHandler = (ctx: ApiContext, params: Params, caller: Caller, okMessage: string) => Promise<Envelope>;

interface ActionSpec {
  class: ActionClass;
  postOnly: boolean;
  run: ActionHandler;
}

/** Actions by `module.action` in lower case. */
const ACTIONS = new Map<string, ActionSpec>([
  ['contract.getabi', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getAbi(ctx, p, m) }],
  ['contract.getsourcecode', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getSourceCode(ctx, p, m) }],
  ['contract.verifysourcecode', { class: 'submit', postOnly: true, run: (ctx, p, c) => verifySourceCode(ctx, p, c) }],
  ['contract.checkverifystatus', { class: 'status', postOnly: false, run: (ctx, p, c) => checkVerifyStatus(ctx, p, c) }],
  ['contract.verifyproxycontract', { class: 'submit', postOnly: true, run: (ctx, p, c) => verifyProxyContract(ctx, p, c) }],
  ['contract.checkproxyverification', { class: 'status', postOnly: false, run: (ctx, p) => checkProxyVerification(ctx, p) }],
  ['logs.getlogs', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getLogs(ctx, p, m) }],
]);
const MODULES = new Set([...ACTIONS.keys()].map((k) => k.split('.')[0]!));

/**
 * Builds the HTTP server: `/api` (and `/api/`), `/health`. `rateLimits` is where the request
 * limits live (default: this process's memory; Redis to share them between processes).
 */
export async function buildServer(ctx: ApiContext, options: { rateLimits?: RateLimitStore } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: ctx.config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: ctx.config.trustedProxies.length ? ctx.config.trustedProxies : false,
    // Bodies of several MB arrive slowly from far away; still, never wait forever.
    requestTimeout: 120_000,
    connectionTimeout: 0,
    // Requests that never reach a route still get an envelope: Hardhat v3 reads no 4xx body.
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      const text = error.code === 'FST_ERR_BAD_URL' ? TEXT.badUrl : TEXT.malformedRequest;
      void (reply as FastifyReply).code(200).header('content-type', 'application/json; charset=utf-8').send(fail(text));
    },
  });
  const accessTexts = {
    okKeyless: TEXT.okKeyless,
    maxRateKeyless: TEXT.maxRateKeyless,
    maxRateKeyed: TEXT.maxRateKeyed,
    tooManyInvalid: TEXT.tooManyInvalidKeys,
    invalidKey: TEXT.invalidApiKey,
  };
  const access = new AccessControl(ctx.store, ctx.config, accessTexts, options.rateLimits);

  await app.register(cors, { origin: '*', methods: ['GET', 'POST'] });
  // Every body is read leniently: clients send forms with no or wrong content types.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    createBodyParser({ tooDeep: TEXT.bodyTooDeep, tooManyFields: TEXT.tooManyFields, malformed: TEXT.malformedBody }),
  );

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    let text: string = TEXT.internalError;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      text = TEXT.bodyTooLarge(ctx.config.bodyLimit);
    } else if (error instanceof BodyError) {
      text = error.message;
    } else if (error.statusCode !== undefined && error.statusCode < 500) {
      text = TEXT.malformedBody;
    } else if (error.code === 'ECONNRESET') {
      // The client went away mid-body: not a fault of the service, nothing worth logging.
    } else {
      ctx.logger.error({ err: error, url: request.url }, 'request failed');
    }
    void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(fail(text));
  });

  app.get('/health', async (_req, reply) => reply.send({ status: 'ok', chainId: ctx.chainId }));

  const handle = async (request: FastifyRequest): Promise<Envelope> => {
    if (request.method !== 'GET' && request.method !== 'POST') return fail(TEXT.methodNotAllowed(request.method));
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined;
    const params = new Params(request.query as Record<string, unknown>, body);
    const module = params.text('module').toLowerCase();
    if (!MODULES.has(module)) return fail(TEXT.unknownModule(module));
    const actionName = params.text('action');
    const action = ACTIONS.get(`${module}.${actionName.toLowerCase()}`);
    if (!action) return fail(TEXT.unknownAction(actionName, module));
    const chainIdText = params.text('chainid');
    if (chainIdText && chainIdText !== String(ctx.chainId)) return fail(TEXT.wrongChain(chainIdText, ctx.chainId));
    if (action.postOnly && request.method !== 'POST') return fail(TEXT.postRequired(actionName.toLowerCase()));
    const decision = await access.decide(params.text('apikey'), request.ip, action.class);
    if (!decision.allowed) return fail(decision.text);
    const caller: Caller = { key: decision.key, client: request.ip, sentChainId: chainIdText !== '' };
    return action.run(ctx, params, caller, decision.okMessage);
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/api', handler: handle });
  await registerWebRoutes(app, ctx);
  return app;
}
