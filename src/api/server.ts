import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from '../core/log.js';
import { KEEP_ALIVE_TIMEOUT_MS, keepAliveLongerThanTold } from '../limits/keepAlive.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../limits/rateLimits.js';
import { TEXT } from '../texts/index.js';
import type { AccessDecision } from './access.js';
import { AccessControl, type ActionClass } from './access.js';
import { checkBuildStatus } from './actions/checkBuildStatus.js';
import { checkProxyVerification } from './actions/checkProxyVerification.js';
import { checkVerifyStatus } from './actions/checkVerifyStatus.js';
import { getAbi } from './actions/getAbi.js';
import { getContractCreation } from './actions/getContractCreation.js';
import { getLogs } from './actions/getLogs.js';
import { getSourceCode } from './actions/getSourceCode.js';
import { verifyBuild } from './actions/verifyBuild.js';
import { verifyProxyContract } from './actions/verifyProxyContract.js';
import { verifySourceCode } from './actions/verifySourceCode.js';
import { SerializedEnvelope } from './answerCache.js';
import { answerClientError } from './clientError.js';
import type { ApiContext, Caller } from './context.js';
import { type Envelope, fail } from './envelope.js';
import { noteKeyId } from './observability.js';
import { Params } from './params.js';
import { BodyError, type BodyGate, createBodyParser, OPEN_BODY_LIMIT } from './requestBody.js';

type ActionHandler = (ctx: ApiContext, params: Params, caller: Caller, okMessage: string) => Promise<Envelope | SerializedEnvelope>;

interface ActionSpec {
  class: ActionClass;
  postOnly: boolean;
  run: ActionHandler;
}

/** Time for a whole request to arrive (a 16 MB body at about 2 Mbit/s). */
export const REQUEST_TIMEOUT_MS = 75_000;
/** Time for the request line and headers to arrive. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A socket with no traffic at all is closed after this. */
export const IDLE_TIMEOUT_MS = 30_000;

/** Actions by `module.action` in lower case. */
const ACTIONS = new Map<string, ActionSpec>([
  ['contract.getabi', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getAbi(ctx, p, m) }],
  ['contract.getsourcecode', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getSourceCode(ctx, p, m) }],
  ['contract.getcontractcreation', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getContractCreation(ctx, p, m) }],
  ['contract.verifysourcecode', { class: 'submit', postOnly: true, run: (ctx, p, c) => verifySourceCode(ctx, p, c) }],
  ['contract.checkverifystatus', { class: 'status', postOnly: false, run: (ctx, p, c) => checkVerifyStatus(ctx, p, c) }],
  ['contract.verifyproxycontract', { class: 'submit', postOnly: true, run: (ctx, p, c) => verifyProxyContract(ctx, p, c) }],
  ['contract.verifybuild', { class: 'submit', postOnly: true, run: (ctx, p, c) => verifyBuild(ctx, p, c) }],
  ['contract.checkbuildstatus', { class: 'status', postOnly: false, run: (ctx, p) => checkBuildStatus(ctx, p) }],
  ['contract.checkproxyverification', { class: 'status', postOnly: false, run: (ctx, p) => checkProxyVerification(ctx, p) }],
  ['logs.getlogs', { class: 'read', postOnly: false, run: (ctx, p, _c, m) => getLogs(ctx, p, m) }],
]);
const MODULES = new Set([...ACTIONS.keys()].map((k) => k.split('.')[0]!));
/** Every action the API serves, as `module.action` (the metrics' labels). */
export const API_ACTIONS: ReadonlySet<string> = new Set(ACTIONS.keys());

/**
 * Whether the client shows a failure's reason. hardhat-verify 2 alone breaks on a longer text:
 * it compares the whole `Fail - Unable to verify`, and it asks with a GET that carries no
 * `chainid` and no User-Agent (undici's request sends none). Everyone else reads reasons:
 * Hardhat v3 (`chainid`), Foundry (a POST), curl, browsers and scripts (a User-Agent).
 * `verbose=1` asks for the reason, `verbose=0` for the bare text, whoever asks.
 */
export function readsFailureReasons(request: FastifyRequest, params: Params): boolean {
  const verbose = params.text('verbose');
  if (verbose === '1') return true;
  if (verbose === '0') return false;
  if (params.text('chainid') !== '') return true;
  return request.method !== 'GET' || (request.headers['user-agent'] ?? '') !== '';
}

/**
 * The API's keys and rate limits, whose state lives in `limits`: for the API, and for what
 * submits through it (the Verify & Publish form checks the key before reading the sources).
 */
export function createAccessControl(ctx: Pick<ApiContext, 'store' | 'config'>, limits: RateLimitStore): AccessControl {
  const texts = {
    okKeyless: TEXT.okKeyless,
    maxRateKeyless: TEXT.maxRateKeyless,
    maxRateKeyed: TEXT.maxRateKeyed,
    tooManyInvalid: TEXT.tooManyInvalidKeys,
    invalidKey: TEXT.invalidApiKey,
  };
  return new AccessControl(ctx.store, ctx.config, texts, limits);
}

/**
 * Builds the HTTP server: `/api` (and `/api/`), `/health`. `rateLimits` is where the request
 * limits live (default: this process's memory; Redis to share them between processes);
 * `access` the keys and limits built on them (default: createAccessControl on `rateLimits`).
 */
export async function buildServer(ctx: ApiContext, options: { rateLimits?: RateLimitStore; access?: AccessControl } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: ctx.config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: ctx.config.trustedProxies.length ? ctx.config.trustedProxies : false,
    // Bodies of several MB arrive slowly from far away; still, a client that sends nothing,
    // or dribbles, cannot hold a connection long: the whole request within REQUEST_TIMEOUT_MS,
    // headers within HEADERS_TIMEOUT_MS, and no idle socket beyond IDLE_TIMEOUT_MS.
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionTimeout: IDLE_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node looks for expired header and request timers this often (its default is 30 s).
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    // Requests that never reach a route still get an envelope: Hardhat v3 reads no 4xx body.
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      const text = error.code === 'FST_ERR_BAD_URL' ? TEXT.badUrl : TEXT.malformedRequest;
      void (reply as FastifyReply).code(200).header('content-type', 'application/json; charset=utf-8').send(fail(text));
    },
  });
  // Idle connections are kept longer than clients are told to reuse them (see limits/keepAlive.ts).
  keepAliveLongerThanTold(app.server);
  // A client that closes its sending side once the request is out (HTTP/1.0 tools, scripts
  // with a raw socket) still gets its answer: by default Node drops the pending response when
  // the request's socket half-closes, which turned any lookup slower than the FIN into nothing.
  (app.server as typeof app.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  const access = options.access ?? createAccessControl(ctx, options.rateLimits ?? new MemoryRateLimitStore());

  // A large body costs memory and parsing: it is read past OPEN_BODY_LIMIT only for a
  // submission by a valid key within its rate, decided from the query and the body's start.
  const gateDecisions = new WeakMap<FastifyRequest, { apiKey: string; decision: AccessDecision }>();
  const gate: BodyGate = async (request, bodyField) => {
    const query = new Params(request.query as Record<string, unknown>);
    const field = (name: string): string => (query.text(name) || bodyField(name) || '').trim();
    const action = field('action').toLowerCase();
    if (action && !['verifysourcecode', 'verifyproxycontract', 'verifybuild'].includes(action)) return TEXT.largeBodyNotASubmission(OPEN_BODY_LIMIT);
    const apiKey = field('apikey');
    if (!apiKey) return TEXT.largeBodyNeedsKey(OPEN_BODY_LIMIT);
    const decision = await access.decide(apiKey, request.ip, 'submit');
    if (!decision.allowed) return decision.text;
    gateDecisions.set(request, { apiKey, decision });
    return null;
  };

  await app.register(cors, { origin: '*', methods: ['GET', 'POST'] });
  // Every body is read leniently: clients send forms with no or wrong content types.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', createBodyParser({ tooDeep: TEXT.bodyTooDeep, tooManyFields: TEXT.tooManyFields, malformed: TEXT.malformedBody }, gate));

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    let text: string = TEXT.internalError;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      text = TEXT.bodyTooLarge(ctx.config.bodyLimit);
    } else if (error instanceof BodyError) {
      text = error.message;
      // Fastify closes the connection after a body it could not parse; a body refused before
      // its end is still being drained, and closing now would reset a client still sending it.
      if (error.draining) reply.removeHeader('connection');
    } else if (error.statusCode !== undefined && error.statusCode < 500) {
      text = TEXT.malformedBody;
    } else if (error.code === 'ECONNRESET') {
      // The client went away mid-body: not a fault of the service, nothing worth logging.
    } else {
      ctx.logger.error({ err: error, url: redactUrl(request.url) }, 'request failed');
    }
    void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(fail(text));
  });

  app.get('/health', async (_req, reply) => reply.send({ status: 'ok', chainId: ctx.chainId }));

  const handle = async (request: FastifyRequest): Promise<Envelope | SerializedEnvelope> => {
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
    // A large body's gate already decided (and took a rate token) for this key.
    const gated = gateDecisions.get(request);
    const decision = gated && gated.apiKey === params.text('apikey') ? gated.decision : await access.decide(params.text('apikey'), request.ip, action.class);
    if (!decision.allowed) return fail(decision.text);
    noteKeyId(request, decision.key?.id);
    const baseUrl = ctx.config.publicUrl ? ctx.config.publicUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
    const caller: Caller = { key: decision.key, client: request.ip, readsReasons: readsFailureReasons(request, params), baseUrl };
    return action.run(ctx, params, caller, decision.okMessage);
  };
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api',
    handler: async (request, reply) => {
      const answer = await handle(request);
      if (!(answer instanceof SerializedEnvelope)) return answer;
      return reply.header('content-type', 'application/json; charset=utf-8').send(answer.body);
    },
  });
  return app;
}
