import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from '../core/log.js';
import { KEEP_ALIVE_TIMEOUT_MS, keepAliveLongerThanTold } from '../limits/keepAlive.js';
import { accessRefusalText, TEXT } from '../texts/index.js';
import { type AccessDecision, type ActionClass, KeptAnswer, type Services } from '../useCases/index.js';
import { checkBuildStatus } from './actions/checkBuildStatus.js';
import { checkProxyVerification } from './actions/checkProxyVerification.js';
import { checkUpgrade } from './actions/checkUpgrade.js';
import { checkVerifyStatus } from './actions/checkVerifyStatus.js';
import { getAbi } from './actions/getAbi.js';
import { getContractCreation } from './actions/getContractCreation.js';
import { getLogs } from './actions/getLogs.js';
import { getSourceCode } from './actions/getSourceCode.js';
import { verifyBuild } from './actions/verifyBuild.js';
import { verifyProxyContract } from './actions/verifyProxyContract.js';
import { verifySourceCode } from './actions/verifySourceCode.js';
import { answerClientError } from './clientError.js';
import type { Caller } from './context.js';
import { type Envelope, fail } from './envelope.js';
import { noteKeyId } from './observability.js';
import { Params } from './params.js';
import { BodyError, type BodyGate, createBodyParser, OPEN_BODY_LIMIT } from './requestBody.js';

type ActionHandler = (s: Services, params: Params, caller: Caller) => Promise<Envelope | KeptAnswer>;

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

/** Where the API answers: Etherscan's path and its V2 path. */
export const API_PATHS = ['/api', '/v2/api'] as const;

/** Actions by `module.action` in lower case. */
const ACTIONS = new Map<string, ActionSpec>([
  ['contract.getabi', { class: 'read', postOnly: false, run: getAbi }],
  ['contract.getsourcecode', { class: 'read', postOnly: false, run: getSourceCode }],
  ['contract.getcontractcreation', { class: 'read', postOnly: false, run: getContractCreation }],
  ['contract.verifysourcecode', { class: 'submit', postOnly: true, run: verifySourceCode }],
  ['contract.checkverifystatus', { class: 'status', postOnly: false, run: checkVerifyStatus }],
  ['contract.verifyproxycontract', { class: 'submit', postOnly: true, run: verifyProxyContract }],
  ['contract.verifybuild', { class: 'submit', postOnly: true, run: verifyBuild }],
  ['contract.checkbuildstatus', { class: 'status', postOnly: false, run: (s, p) => checkBuildStatus(s, p) }],
  ['contract.checkproxyverification', { class: 'status', postOnly: false, run: (s, p) => checkProxyVerification(s, p) }],
  ['contract.checkupgrade', { class: 'read', postOnly: false, run: checkUpgrade }],
  ['logs.getlogs', { class: 'read', postOnly: false, run: getLogs }],
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

/** Builds the HTTP server: `/api` and `/v2/api` (each also with a trailing `/`), `/health`. The other doors register their routes on it. */
export async function buildServer(s: Services): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: s.config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: s.config.trustedProxies.length ? s.config.trustedProxies : false,
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

  // A large body costs memory and parsing: it is read past OPEN_BODY_LIMIT only for a
  // submission by a valid key within its rate, decided from the query and the body's start.
  const gateDecisions = new WeakMap<FastifyRequest, { apiKey: string; decision: AccessDecision }>();
  const gate: BodyGate = async (request, bodyField) => {
    const query = new Params(request.query as Record<string, unknown>);
    const field = (name: string): string => (query.text(name) || bodyField(name) || '').trim();
    const action = field('action').toLowerCase();
    if (action && !['verifysourcecode', 'verifyproxycontract', 'verifybuild', 'checkupgrade'].includes(action))
      return TEXT.largeBodyNotASubmission(OPEN_BODY_LIMIT);
    const apiKey = field('apikey');
    if (!apiKey) return TEXT.largeBodyNeedsKey(OPEN_BODY_LIMIT);
    const decision = await s.access.decide(apiKey, request.ip, 'submit');
    if (!decision.allowed) return accessRefusalText(decision.refusal);
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
      text = TEXT.bodyTooLarge(s.config.bodyLimit);
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
      s.logger.error({ err: error, url: redactUrl(request.url) }, 'request failed');
    }
    void reply.code(200).header('content-type', 'application/json; charset=utf-8').send(fail(text));
  });

  app.get('/health', async (_req, reply) => reply.send({ status: 'ok', chainId: s.chainId }));

  const handle = async (request: FastifyRequest): Promise<Envelope | KeptAnswer> => {
    if (request.method !== 'GET' && request.method !== 'POST') return fail(TEXT.methodNotAllowed(request.method));
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined;
    const params = new Params(request.query as Record<string, unknown>, body);
    const module = params.text('module').toLowerCase();
    if (!MODULES.has(module)) return fail(TEXT.unknownModule(module));
    const actionName = params.text('action');
    const action = ACTIONS.get(`${module}.${actionName.toLowerCase()}`);
    if (!action) return fail(TEXT.unknownAction(actionName, module));
    const chainIdText = params.text('chainid');
    if (chainIdText && chainIdText !== String(s.chainId)) return fail(TEXT.wrongChain(chainIdText, s.chainId));
    if (action.postOnly && request.method !== 'POST') return fail(TEXT.postRequired(actionName.toLowerCase()));
    // A large body's gate already decided (and took a rate token) for this key.
    const gated = gateDecisions.get(request);
    const decision = gated && gated.apiKey === params.text('apikey') ? gated.decision : await s.access.decide(params.text('apikey'), request.ip, action.class);
    if (!decision.allowed) return fail(accessRefusalText(decision.refusal));
    noteKeyId(request, decision.key?.id);
    const baseUrl = s.config.publicUrl ? s.config.publicUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
    const caller: Caller = {
      key: decision.key,
      client: request.ip,
      okMessage: decision.keylessRead ? TEXT.okKeyless : TEXT.ok,
      readsReasons: readsFailureReasons(request, params),
      baseUrl,
    };
    return action.run(s, params, caller);
  };
  // Etherscan's V2 path (`/v2/api?chainid=…`) is the same API: clients configured as for
  // Etherscan V2 get exactly what /api answers (a chainid other than the served chain is refused alike).
  for (const url of API_PATHS) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      handler: async (request, reply) => {
        const answer = await handle(request);
        if (!(answer instanceof KeptAnswer)) return answer;
        return reply.header('content-type', 'application/json; charset=utf-8').send(answer.body);
      },
    });
  }
  return app;
}
