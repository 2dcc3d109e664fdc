import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitStore } from '../limits/rateLimits.js';
import type { WebContext } from './context.js';
import { isOpenSourceLicense, licenseName, LICENSES } from '../core/licenses.js';
import { redactUrl } from '../core/log.js';
import type { Address } from '../core/types.js';
import { getProxyRecord } from '../store/proxyRecords.js';
import { isAddress } from '../core/hex.js';
import { isReceipt } from '../core/receipt.js';
import { getJobStatus } from '../store/verificationJobs.js';
import {
  countVerifiedContracts,
  getStoredVerdict,
  getVerifiedContract,
  listReplacedVerifications,
  allVerifiedContracts,
  formatListCursor,
  listVerifiedContracts,
  parseListCursor,
  type ListCursor,
  type ListFilter,
  type VerifiedContract,
} from '../store/verifiedContracts.js';
import { readStaticAsset } from './staticAssets.js';
import { abiFunctions, CallError, encodeCall, findFunction, parseWei, readFunction } from './contractCalls.js';
import { csvRow } from './csv.js';
import { html } from './html.js';
import { CONTENT_SECURITY_POLICY } from './layout.js';
import { apiDocsPage } from './pages/apiDocsPage.js';
import { compilersPage } from './pages/compilersPage.js';
import { contractListPage } from './pages/contractListPage.js';
import { contractPage, sourceFiles } from './pages/contractPage.js';
import { loadCompiledContract } from '../store/compilations.js';
import { homePage } from './pages/homePage.js';
import { messagePage } from './pages/messagePage.js';
import { receiptPage } from './pages/receiptPage.js';
import { receiptDocument } from './receiptDocument.js';
import { verifyPage } from './pages/verifyPage.js';
import { emptyFormValues, fieldOfApiError, readVerifyForm } from './verifyForm.js';
import { readVerifyFormBody, VerifyFormBody } from './verifyFormBody.js';
import { checkedRecord, checkedRows } from './routes/records.js';
import { baseUrlOf, sendPage, tooMany } from './routes/reply.js';
import { createWebRuntime } from './routes/runtime.js';


/** Contracts per list page. */
export const LIST_PAGE_SIZE = 25;
/** How many pages deep the list goes (bounds the offset a request can ask for). */
/** Receipt event streams: open at once per client and in all, how often each reads, how long at most. */
const RECEIPT_STREAMS_PER_CLIENT = 8;
const RECEIPT_STREAMS_AT_ONCE = 500;
const RECEIPT_STREAM_POLL_MS = 500;
const RECEIPT_STREAM_MAX_MS = 10 * 60_000;
/** `?page=N` reads by offset: only this far (deeper pages follow the keyset Older links). */
const MAX_OFFSET_PAGE = 40;
/** Latest contracts on the start page. */
const HOME_LATEST = 10;
/** Rows read from the store per batch while writing the CSV. */
const CSV_BATCH = 100;
/** Read/encode requests are small JSON documents. */
const CALL_BODY_LIMIT = 64 * 1024;
/** Per client: one CSV export per this many ms; and this many exports at once in all. */
const CSV_INTERVAL_MS = 10_000;
const CSV_AT_ONCE = 2;
/** Pause after each CSV batch while API requests are in flight (at most CSV_BATCH rows per pause then). */
const CSV_BUSY_PAUSE_MS = 10;
/** Verify & Publish form posts per client and second (each may carry megabytes of sources). */
const VERIFY_FORMS_PER_SECOND = 2;

export const CSV_COLUMNS = ['ContractAddress', 'ContractName', 'CompilerVersion', 'LicenseType', 'MatchKind', 'VerifiedAt'] as const;

/** The list's filters from the query (`q` name, `compiler`, `license`, `match`), or what is wrong with one. */
function readListFilter(query: Record<string, unknown>): { filter: ListFilter } | { error: string } {
  const text = (name: string): string => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  const filter: ListFilter = {};
  const name = text('q');
  if (name) {
    if (name.length > 256 || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) return { error: 'Search by a contract name: letters, digits, _ and $, not starting with a digit.' };
    filter.name = name;
  }
  const compiler = text('compiler');
  if (compiler) {
    if (!/^v?\d{1,3}\.\d{1,3}\.\d{1,3}(-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?\+commit\.[0-9a-f]{8}$/.test(compiler)) return { error: 'compiler must be a long version, e.g. v0.8.28+commit.7893614a' };
    filter.compiler = compiler.startsWith('v') ? compiler : `v${compiler}`;
  }
  const license = text('license');
  if (license) {
    if (!/^\d{1,2}$/.test(license) || !LICENSES[Number(license)]) return { error: 'license must be a licence code from 1 to 14' };
    filter.license = Number(license);
  }
  const match = text('match');
  if (match) {
    if (match !== 'full' && match !== 'partial') return { error: 'match must be full or partial' };
    filter.matchKind = match;
  }
  return { filter };
}

interface CallBody {
  function?: unknown;
  index?: unknown;
  args?: unknown;
  asProxy?: unknown;
  value?: unknown;
}

/**
 * The explorer: `/`, `/contracts`, `/address/:address` (+ `/read`, `/encode`), `/receipt/:guid`,
 * `/verified-contracts.csv`, `/compilers` (+ `.json`), `/docs/api`, `/search` and the static script and stylesheet.
 * Registered in a scope of its own so its errors become pages (or JSON `{error}` for the
 * call endpoints) instead of the API's envelopes.
 */
export async function registerWebRoutes(app: FastifyInstance, ctx: WebContext, limits: RateLimitStore): Promise<void> {
  // Per client and second: contract calls (read, encode) and address pages, which may ask the node.
  const CALLS_PER_SECOND = ctx.config.webRate;
  const ADDRESS_PAGES_PER_SECOND = ctx.config.webRate;
  // The whole list is up to a few thousand builds: bounded like the other pages that cost work.
  const COMPILER_LISTS_PER_SECOND = ctx.config.webRate;
  const runtime = createWebRuntime(limits);
  // API requests in flight: while there are any, the CSV export pauses between batches, so a
  // download of the whole store takes longer rather than taking the API's CPU.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api')) return;
    runtime.apiInFlight++;
    reply.raw.once('close', () => runtime.apiInFlight--);
  });
  // Closing the service ends open downloads (a client that stopped reading would hold it open).
  app.addHook('preClose', async () => {
    for (const response of runtime.openDownloads) response.destroy();
    runtime.openDownloads.clear();
  });
  await app.register(async (web) => {
    web.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-frame-options', 'DENY');
      return payload;
    });

    web.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
      const status = error instanceof CallError ? error.status : error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      if (status >= 500 && !(error instanceof CallError)) ctx.logger.error({ err: error, url: redactUrl(request.url) }, 'page failed');
      const text =
        error instanceof CallError
          ? error.message
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? `The request body is too large (at most ${CALL_BODY_LIMIT} bytes)`
            : status < 500
              ? 'The request could not be read'
              : 'Internal error; please try again later';
      if (request.method === 'POST') {
        return reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ error: text });
      }
      return sendPage(reply, messagePage({ chainId: ctx.chainId, title: status >= 500 ? 'Something went wrong' : 'Bad request', message: text }), status);
    });

    // Long versions of the releases (no nightlies), newest first: what the form and the list filter offer.
    const compilerChoices = async (): Promise<string[]> =>
      (await ctx.compilers.list()).builds.flatMap((b) => (!b.nightly && b.compilerVersion ? [b.compilerVersion] : []));

    const css = readStaticAsset('explorer.css');
    const js = readStaticAsset('explorer.js');
    web.get('/static/explorer.css', async (_req, reply) =>
      reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(css),
    );
    web.get('/static/explorer.js', async (_req, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(js),
    );

    web.get('/', async (_request, reply) => {
      const latest = await checkedRows(ctx, () => listVerifiedContracts(ctx.store.db, { limit: HOME_LATEST, offset: 0 }));
      const total = await countVerifiedContracts(ctx.store.db);
      return sendPage(reply, homePage({ chainId: ctx.chainId, latest, total }));
    });

    web.get('/search', async (request, reply) => {
      const raw = (request.query as Record<string, unknown>).q;
      const q = typeof raw === 'string' ? raw.trim() : '';
      if (isAddress(q)) return reply.redirect(`/address/${q.toLowerCase()}`, 303);
      if (isReceipt(q)) return reply.redirect(`/receipt/${q}`, 303);
      if (/^[A-Za-z_$][A-Za-z0-9_$]{0,255}$/.test(q)) return reply.redirect(`/contracts?q=${encodeURIComponent(q)}`, 303);
      const latest = await checkedRows(ctx, () => listVerifiedContracts(ctx.store.db, { limit: HOME_LATEST, offset: 0 }));
      const total = await countVerifiedContracts(ctx.store.db);
      const message = q
        ? 'Not an address, a receipt or a contract name: an address is 0x and 40 hex digits, a receipt 50 lower-case letters and digits, a name a Solidity identifier.'
        : 'Type an address or a receipt.';
      return sendPage(reply, homePage({ chainId: ctx.chainId, latest, total, message, query: q.slice(0, 120) }), 400);
    });

    web.get('/contracts', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const afterText = typeof query.after === 'string' ? query.after : '';
      const pageText = typeof query.page === 'string' ? query.page.trim() : '';
      const bad = (message: string) => sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Bad request', message }), 400);
      // Newest first, by keyset: `?after=<cursor>` continues after a row, whatever was verified
      // since, and costs the same at any depth. `?page=N` (offsets) only for the first pages.
      let after: ListCursor | null = null;
      let page = 1;
      if (afterText) {
        after = parseListCursor(afterText);
        if (!after) return bad('after must be a position from an Older link: <time>-<address>.');
      } else if (pageText) {
        page = /^\d{1,6}$/.test(pageText) ? Number(pageText) : NaN;
        if (!Number.isInteger(page) || page < 1) return bad(`page must be a whole number from 1 to ${MAX_OFFSET_PAGE}`);
        if (page > MAX_OFFSET_PAGE) return bad(`Pages past ${MAX_OFFSET_PAGE} are reached with the Older links (?after=…), which stay fast at any depth.`);
      }
      const read = readListFilter(query);
      if ('error' in read) return bad(read.error);
      const filter = read.filter;
      const filtered = Object.keys(filter).length > 0;
      const rows = await checkedRows(ctx, () =>
        listVerifiedContracts(ctx.store.db, { limit: LIST_PAGE_SIZE + 1, filter, ...(after ? { after } : { offset: (page - 1) * LIST_PAGE_SIZE }) }),
      );
      // The total is a stored counter; a filtered list is not counted (that would read every row).
      const total = filtered ? null : await countVerifiedContracts(ctx.store.db);
      const contracts = rows.slice(0, LIST_PAGE_SIZE);
      const last = contracts[contracts.length - 1];
      const older = rows.length > LIST_PAGE_SIZE && last ? formatListCursor({ verifiedAt: last.verifiedAt, address: last.address }) : null;
      const compilers = await compilerChoices();
      return sendPage(reply, contractListPage({ chainId: ctx.chainId, contracts, newest: after === null && page === 1, older, total, filter, compilers }));
    });

    web.get('/compilers.json', async (request, reply) => {
      if (!(await runtime.limits.takeToken('web-compilers', request.ip, COMPILER_LISTS_PER_SECOND))) {
        return reply.code(429).header('retry-after', '1').send({ error: `At most ${COMPILER_LISTS_PER_SECOND} compiler lists per second; please slow down.` });
      }
      const listing = await ctx.compilers.list();
      return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(listing));
    });

    web.get('/compilers', async (request, reply) => {
      if (!(await runtime.limits.takeToken('web-compilers', request.ip, COMPILER_LISTS_PER_SECOND))) {
        return tooMany(ctx, request, reply, `At most ${COMPILER_LISTS_PER_SECOND} compiler lists per second; please slow down.`);
      }
      const params = request.query as Record<string, unknown>;
      const query = typeof params.q === 'string' ? params.q.trim().slice(0, 80) : '';
      const listing = await ctx.compilers.list();
      return sendPage(reply, compilersPage({ chainId: ctx.chainId, listing, query, nightlies: params.nightlies === '1' }));
    });

    web.get('/docs/api', async (request, reply) => sendPage(reply, apiDocsPage({ chainId: ctx.chainId, baseUrl: baseUrlOf(ctx, request) })));

    // Verify & Publish: the form, and its plain multipart POST (files keep their names), read
    // as it arrives: the key is checked when it comes (first, on the page), before the sources.
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
      return sendPage(reply, verifyPage({ chainId: ctx.chainId, values: emptyFormValues(address), compilers: await compilerChoices(), contracts: [], errors: {} }));
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
          return sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Bad request', message: 'The form must be sent as multipart/form-data (the page does this).' }), 400);
        }
        const read = readVerifyForm(body.entries);
        const again = async (errors: Parameters<typeof verifyPage>[0]['errors'], status: number) =>
          sendPage(reply, verifyPage({ chainId: ctx.chainId, values: read.values, compilers: await compilerChoices(), contracts: read.contracts, errors }), status);
        if (body.refusal) return again({ [body.refusal.field]: body.refusal.message }, body.refusal.status);
        if (!read.ok || body.keyRefusal) return again({ ...(read.ok ? {} : read.errors), ...(body.keyRefusal ? { apiKey: body.keyRefusal } : {}) }, 400);
        const answer = await ctx.submitVerification(read.params, request.ip);
        if (answer.status === '1' && typeof answer.result === 'string' && isReceipt(answer.result)) return reply.redirect(`/receipt/${answer.result}`, 303);
        const message = typeof answer.result === 'string' && answer.result ? answer.result : answer.message;
        return again({ [fieldOfApiError(message, read.values.format)]: message }, 400);
      },
    );

    web.get('/address/:address', async (request, reply) => {
      if (!(await runtime.limits.takeToken('web-address', request.ip, ADDRESS_PAGES_PER_SECOND))) {
        return tooMany(ctx, request, reply, `At most ${ADDRESS_PAGES_PER_SECOND} address pages per second; please slow down.`);
      }
      const given = (request.params as { address: string }).address;
      if (!isAddress(given)) {
        return sendPage(
          reply,
          messagePage({
            chainId: ctx.chainId,
            title: 'Not an address',
            message: html`“${given.slice(0, 120)}” is not an address: an address is 0x followed by 40 hex digits.`,
            query: given.slice(0, 120),
          }),
          400,
        );
      }
      const address = given.toLowerCase() as Address;
      await ctx.records.check(address);
      // Not verified: it may be a copy of a contract that is.
      if (!(await getStoredVerdict(ctx.store.db, address))) await ctx.copies.tryVerify(address);
      const [contract, proxy, history] = await Promise.all([
        getVerifiedContract(ctx.store.db, address),
        getProxyRecord(ctx.store.db, address),
        listReplacedVerifications(ctx.store.db, address),
      ]);
      const implementation = proxy ? await checkedRecord(ctx, proxy.finalImplementation as Address) : null;
      let hasCode: boolean | null = true;
      if (!contract) {
        try {
          hasCode = (await ctx.chain.getCode(address)) !== '0x';
        } catch {
          hasCode = null;
        }
      }
      const fileText = (request.query as Record<string, unknown>).file;
      const chosenFile = typeof fileText === 'string' && /^\d{1,5}$/.test(fileText) ? Number(fileText) : null;
      const compiled = contract ? await loadCompiledContract(ctx.store.db, contract.compiledContractId) : null;
      const compiledCode = compiled ? { creation: compiled.compiled.creation.code, runtime: compiled.compiled.runtime.code } : null;
      return sendPage(
        reply,
        contractPage({ address, chainId: ctx.chainId, baseUrl: baseUrlOf(ctx, request), contract, proxy, implementation, hasCode, history, chosenFile, compiledCode }),
      );
    });

    // Downloads of a verified contract: one source file (1-based, in the page's order), or the standard JSON input.
    const verifiedFor = async (request: FastifyRequest, reply: FastifyReply): Promise<VerifiedContract | null> => {
      if (!(await runtime.limits.takeToken('web-address', request.ip, ADDRESS_PAGES_PER_SECOND))) {
        void tooMany(ctx, request, reply, `At most ${ADDRESS_PAGES_PER_SECOND} address pages per second; please slow down.`);
        return null;
      }
      const given = (request.params as { address: string }).address;
      const contract = isAddress(given) ? await checkedRecord(ctx, given.toLowerCase() as Address) : null;
      if (!contract) void sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Not verified', message: 'No verified contract has this address.' }), 404);
      return contract;
    };
    const attachmentName = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'source.sol';
    web.get('/address/:address/source/:index', async (request, reply) => {
      const contract = await verifiedFor(request, reply);
      if (!contract) return reply;
      const files = sourceFiles(contract);
      const index = Number((request.params as { index: string }).index);
      const file = Number.isInteger(index) && index >= 1 ? files[index - 1] : undefined;
      if (!file) return sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'No such file', message: `This contract has ${files.length} source file${files.length === 1 ? '' : 's'}.` }), 404);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${attachmentName(file.path.split('/').pop() ?? '')}"`)
        .send(file.content);
    });
    web.get('/address/:address/standard-input.json', async (request, reply) => {
      const contract = await verifiedFor(request, reply);
      if (!contract) return reply;
      const input = { language: 'Solidity', sources: Object.fromEntries(sourceFiles(contract).map((f) => [f.path, { content: f.content }])), settings: contract.settings };
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${attachmentName(`${contract.contractName}-${contract.address}`)}.standard-input.json"`)
        .send(JSON.stringify(input, null, 2));
    });

    /** The ABI a call uses: the contract's own, or with asProxy its implementation's. */
    const abiFor = async (request: FastifyRequest): Promise<{ address: Address; abi: string; body: CallBody }> => {
      const given = (request.params as { address: string }).address;
      if (!isAddress(given)) throw new CallError(400, 'Not an address: 0x followed by 40 hex digits');
      const address = given.toLowerCase() as Address;
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as CallBody;
      if (body.asProxy === true || body.asProxy === 'true') {
        const proxy = await getProxyRecord(ctx.store.db, address);
        if (!proxy) throw new CallError(404, 'No proxy is recorded for this address (verifyproxycontract first)');
        const implementation = await checkedRecord(ctx, proxy.finalImplementation as Address);
        if (!implementation) throw new CallError(409, `The implementation ${proxy.finalImplementation} is not verified`);
        return { address, abi: implementation.abi, body };
      }
      const contract = await checkedRecord(ctx, address);
      if (!contract) throw new CallError(404, 'This contract is not verified');
      return { address, abi: contract.abi, body };
    };

    web.post('/address/:address/read', { bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
      if (!(await runtime.limits.takeToken('web-call', request.ip, CALLS_PER_SECOND))) {
        return tooMany(ctx, request, reply, `At most ${CALLS_PER_SECOND} contract calls per second; please slow down.`);
      }
      const { address, abi, body } = await abiFor(request);
      const fn = findFunction(abiFunctions(abi), body.function, body.index);
      const result = await readFunction(ctx.chain, address, fn, body.args);
      return reply.header('content-type', 'application/json; charset=utf-8').send(result);
    });

    web.post('/address/:address/encode', { bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
      if (!(await runtime.limits.takeToken('web-call', request.ip, CALLS_PER_SECOND))) {
        return tooMany(ctx, request, reply, `At most ${CALLS_PER_SECOND} contract calls per second; please slow down.`);
      }
      const { address, abi, body } = await abiFor(request);
      const fn = findFunction(abiFunctions(abi), body.function, body.index);
      const data = encodeCall(fn, body.args);
      const value = parseWei(body.value);
      if (value > 0n && !fn.payable) throw new CallError(400, `${fn.signature} is not payable: send no value`);
      return reply.header('content-type', 'application/json; charset=utf-8').send({
        function: fn.signature,
        to: address,
        data,
        value: `0x${value.toString(16)}`,
        valueWei: value.toString(),
      });
    });

    web.get('/receipt/:guid', async (request, reply) => {
      const param = (request.params as { guid: string }).guid;
      // `/receipt/<guid>.json`: the same receipt for tools, with the diagnosis of a failure.
      if (param.endsWith('.json')) return receiptJson(reply, param.slice(0, -'.json'.length));
      const guid = param;
      if (!isReceipt(guid)) {
        return sendPage(
          reply,
          messagePage({ chainId: ctx.chainId, title: 'Not a receipt', message: 'A receipt is 50 lower-case letters and digits.' }),
          400,
        );
      }
      const job = await getJobStatus(ctx.store.db, guid);
      if (!job) {
        return sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Unknown receipt', message: 'No verification has this receipt.' }), 404);
      }
      return sendPage(reply, receiptPage({ chainId: ctx.chainId, job }));
    });

    // `/receipt/<guid>/events`: server-sent events, one `state` event per change of the
    // receipt's state ({state, status, done}), ending with the verdict; comments keep it alive.
    web.get('/receipt/:guid/events', async (request, reply) => {
      const guid = (request.params as { guid: string }).guid;
      if (!isReceipt(guid)) return reply.code(400).header('content-type', 'application/json; charset=utf-8').send({ error: 'A receipt is 50 lower-case letters and digits.' });
      const first = await getJobStatus(ctx.store.db, guid);
      if (!first) return reply.code(404).header('content-type', 'application/json; charset=utf-8').send({ error: 'No verification has this receipt.' });
      const perClient = runtime.receiptStreams.get(request.ip) ?? 0;
      if (perClient >= RECEIPT_STREAMS_PER_CLIENT || runtime.openDownloads.size >= RECEIPT_STREAMS_AT_ONCE) {
        return tooMany(ctx, request, reply, 'Too many receipt streams are open; poll checkverifystatus or /receipt/<guid>.json instead.');
      }
      runtime.receiptStreams.set(request.ip, perClient + 1);
      const raw = reply.raw;
      runtime.openDownloads.add(raw);
      let closed = false;
      raw.once('close', () => {
        closed = true;
        runtime.openDownloads.delete(raw);
        const left = (runtime.receiptStreams.get(request.ip) ?? 1) - 1;
        if (left > 0) runtime.receiptStreams.set(request.ip, left);
        else runtime.receiptStreams.delete(request.ip);
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
        job = await getJobStatus(ctx.store.db, guid);
      }
      if (!closed) raw.end();
    });

    async function receiptJson(reply: FastifyReply, guid: string): Promise<FastifyReply> {
      const json = (status: number, body: unknown) => reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
      if (!isReceipt(guid)) return json(400, { error: 'A receipt is 50 lower-case letters and digits.' });
      const job = await getJobStatus(ctx.store.db, guid);
      if (!job) return json(404, { error: 'No verification has this receipt.' });
      return json(200, receiptDocument(job));
    }

    web.get('/verified-contracts.csv', async (request, reply) => {
      if (runtime.csvExports >= CSV_AT_ONCE || !(await runtime.limits.takeInterval('web-csv', request.ip, CSV_INTERVAL_MS))) {
        return tooMany(ctx, request, reply, `The CSV export is being downloaded too often; try again in ${CSV_INTERVAL_MS / 1000} seconds.`);
      }
      runtime.csvExports++;
      const stream = Readable.from(csvLines(ctx, () => runtime.apiInFlight > 0));
      // A client that stops reading keeps its download open: closing the service ends it.
      runtime.openDownloads.add(reply.raw);
      reply.raw.once('close', () => runtime.openDownloads.delete(reply.raw));
      let released = false;
      const release = (): void => {
        if (!released) runtime.csvExports--;
        released = true;
      };
      stream.once('close', release);
      reply.raw.once('close', release);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="verified-contracts.csv"')
        .header('cache-control', 'no-store')
        .send(stream);
    });
  });
}

/**
 * The CSV rows, read in batches so a large store is never held in memory at once. Rows
 * verified while the export runs may shift the pages; the address set keeps each row once.
 */
async function* csvLines(ctx: WebContext, apiBusy: () => boolean): AsyncGenerator<string> {
  yield csvRow(CSV_COLUMNS);
  // By keyset, newest first: each batch is one short indexed query, whatever the store's size,
  // and the stream is pulled (a client that stops reading stops the reads).
  let chunk = '';
  let rows = 0;
  for await (const c of allVerifiedContracts(ctx.store.db, CSV_BATCH)) {
    if (isOpenSourceLicense(c.licenseType)) {
      chunk += csvRow([c.address, c.contractName, c.compilerVersion, licenseName(c.licenseType), c.matchKind, new Date(c.verifiedAt).toISOString()]);
    }
    if (++rows % CSV_BATCH === 0) {
      if (chunk) yield chunk;
      chunk = '';
      if (apiBusy()) await new Promise((resolve) => setTimeout(resolve, CSV_BUSY_PAUSE_MS));
    }
  }
  if (chunk) yield chunk;
}
