import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { withV } from '../../core/compilerVersion.js';
import { isOpenSourceLicense, LICENSES, licenseName } from '../../core/licenses.js';
import { clientKey, retryAfterSeconds } from '../../limits/clientAddress.js';
import {
  everyVerified,
  formatListCursor,
  type ListCursor,
  type ListFilter,
  listVerified,
  parseListCursor,
  proxiesAmong,
  verifiedCount,
} from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { csvRow } from '../csv.js';
import { contractListPage } from '../pages/contractListPage.js';
import { messagePage } from '../pages/messagePage.js';
import { compilerChoices } from './compilers.js';
import { sendPage } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Contracts per list page. */
export const LIST_PAGE_SIZE = 25;
/** `?page=N` reads by offset: only this far (deeper pages follow the keyset Older links). */
const MAX_OFFSET_PAGE = 40;
/** Rows read from the store per batch while writing the CSV. */
const CSV_BATCH = 100;
/** Per client: one CSV export per this many ms; and this many exports at once in all. */
const CSV_INTERVAL_MS = 10_000;
const CSV_AT_ONCE = 2;
/** Pause after each CSV batch while API requests are in flight (at most CSV_BATCH rows per pause then). */
const CSV_BUSY_PAUSE_MS = 10;

export const CSV_COLUMNS = ['ContractAddress', 'ContractName', 'CompilerVersion', 'LicenseType', 'MatchKind', 'VerifiedAt'] as const;

/** `/contracts` (the verified list, searched and filtered) and `/verified-contracts.csv` (the open-source-licensed ones). */
export function contractsRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
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
    const rows = await listVerified(ctx, { limit: LIST_PAGE_SIZE + 1, filter, ...(after ? { after } : { offset: (page - 1) * LIST_PAGE_SIZE }) });
    // The total is a stored counter; a filtered list is not counted (that would read every row).
    const total = filtered ? null : await verifiedCount(ctx);
    const contracts = rows.slice(0, LIST_PAGE_SIZE);
    const last = contracts[contracts.length - 1];
    const older = rows.length > LIST_PAGE_SIZE && last ? formatListCursor({ verifiedAt: last.verifiedAt, address: last.address }) : null;
    const compilers = await compilerChoices(ctx);
    const proxies = await proxiesAmong(
      ctx,
      contracts.map((c) => c.address),
    );
    return sendPage(
      reply,
      contractListPage({ chainId: ctx.chainId, contracts, newest: after === null && page === 1, older, total, filter, compilers, proxies }),
    );
  });

  web.get('/verified-contracts.csv', async (request, reply) => {
    const client = clientKey(request.ip);
    if (runtime.csvExports >= CSV_AT_ONCE || !(await runtime.limits.takeInterval('web-csv', client, CSV_INTERVAL_MS))) {
      // The real wait: this client's interval left (or a second while others' exports run), as
      // plain text on a .csv URL; a retry after Retry-After seconds is let through.
      const waitMs = runtime.csvExports >= CSV_AT_ONCE ? 1000 : await runtime.limits.intervalWait('web-csv', client, CSV_INTERVAL_MS);
      const seconds = retryAfterSeconds(waitMs);
      const why =
        runtime.csvExports >= CSV_AT_ONCE
          ? `${CSV_AT_ONCE} CSV exports are being written now`
          : `The CSV export is downloaded at most once per ${CSV_INTERVAL_MS / 1000} seconds from one client`;
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(`${why}; try again in ${seconds} second${seconds === 1 ? '' : 's'}.\n`);
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
}

/** The list's filters from the query (`q` name, `compiler`, `license`, `match`), or what is wrong with one. */
function readListFilter(query: Record<string, unknown>): { filter: ListFilter } | { error: string } {
  const text = (name: string): string => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  const filter: ListFilter = {};
  const name = text('q');
  if (name) {
    if (name.length > 256 || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
      return { error: 'Search by a contract name: letters, digits, _ and $, not starting with a digit.' };
    filter.name = name;
  }
  const compiler = text('compiler');
  if (compiler) {
    if (!/^v?\d{1,3}\.\d{1,3}\.\d{1,3}(-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?\+commit\.[0-9a-f]{8}$/.test(compiler))
      return { error: 'compiler must be a long version, e.g. v0.8.28+commit.7893614a' };
    filter.compiler = withV(compiler);
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

/**
 * The CSV rows, read in batches so a large store is never held in memory at once. Rows
 * verified while the export runs may shift the pages; the address set keeps each row once.
 */
async function* csvLines(ctx: WebContext, apiBusy: () => boolean): AsyncGenerator<string> {
  yield csvRow(CSV_COLUMNS);
  // By keyset, newest first: each batch is one short indexed query, whatever the store's size,
  // and the stream is pulled (a client that stops reading stops the reads).
  for await (const batch of everyVerified(ctx, CSV_BATCH)) {
    let chunk = '';
    for (const c of batch) {
      if (!isOpenSourceLicense(c.licenseType)) continue;
      chunk += csvRow([c.address, c.contractName, c.compilerVersion, licenseName(c.licenseType), c.matchKind, new Date(c.verifiedAt).toISOString()]);
    }
    if (chunk) yield chunk;
    if (apiBusy()) await new Promise((resolve) => setTimeout(resolve, CSV_BUSY_PAUSE_MS));
  }
}
