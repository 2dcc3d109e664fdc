/**
 * The two routes of Sourcify's v1 API that hardhat-verify 2 calls, on the v2 machinery:
 * `GET check-all-by-addresses` (`perfect`/`partial` per chain, `false` when not verified) and
 * `POST /` with `{address, chain, files}` (metadata.json and its sources), which v1 answers
 * only once verified: it queues the same job and waits for its verdict.
 */
import { getJobStatus } from '../store/verificationJobs.js';
import { getStoredVerdict } from '../store/verifiedContracts.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Answer, checksummed, matched } from './answers.js';
import type { SourcifyContext } from './context.js';
import { jobStatus } from './jobStatus.js';
import { readMetadataRequest } from './metadataRequest.js';
import { verify } from './verify.js';

/** How long POST / waits for a verdict (a failure's diagnosis included). */
const WAIT_MS = 150_000;

const v1Error = (status: number, message: string): Answer => ({ status, body: { error: message } });

/** v1's word for a record: `perfect` when either part matched exactly, else `partial`. */
const v1Status = (match: string | null) => (match === 'exact_match' ? 'perfect' : 'partial');

export async function checkAllByAddresses(ctx: SourcifyContext, query: Record<string, unknown>): Promise<Answer> {
  const addresses = typeof query.addresses === 'string' ? query.addresses.split(',').map((a) => a.trim()) : [];
  const chainIds = typeof query.chainIds === 'string' ? query.chainIds.split(',').map((c) => c.trim()) : [];
  if (addresses.length === 0 || addresses.some((a) => !/^0x[0-9a-fA-F]{40}$/.test(a)))
    return v1Error(400, SOURCIFY_TEXT.invalidField('addresses', 'expected 0x addresses, comma-separated'));
  if (addresses.length > 100) return v1Error(400, SOURCIFY_TEXT.invalidField('addresses', 'at most 100 at once'));
  if (chainIds.length === 0) return v1Error(400, SOURCIFY_TEXT.missingField('chainIds'));
  const served = chainIds.includes(String(ctx.chainId));
  const results = [];
  for (const address of addresses) {
    const lower = address.toLowerCase();
    if (served) await ctx.records.check(lower as `0x${string}`);
    const verdict = served ? await getStoredVerdict(ctx.store.db, lower) : null;
    if (!verdict) {
      results.push({ address: checksummed(address), status: 'false' });
      continue;
    }
    const minimal = matched(ctx.chainId, { address: lower, ...verdict, verifiedAt: 0 });
    results.push({ address: checksummed(address), chainIds: [{ chainId: String(ctx.chainId), status: v1Status(minimal.match) }] });
  }
  return { status: 200, body: results };
}

export async function verifyFiles(ctx: SourcifyContext, body: unknown, client: string): Promise<Answer> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return v1Error(400, SOURCIFY_TEXT.invalidJson);
  const { address, chain, files } = body as Record<string, unknown>;
  if (typeof address !== 'string' || typeof chain !== 'string' || typeof files !== 'object' || files === null || Array.isArray(files)) {
    return v1Error(400, SOURCIFY_TEXT.invalidField('body', 'expected {address, chain, files}'));
  }
  const entries = Object.entries(files as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string');
  const metadataEntry = entries.find(([name]) => name.endsWith('metadata.json'));
  let metadata: unknown;
  try {
    metadata = metadataEntry ? JSON.parse(metadataEntry[1]) : undefined;
  } catch {
    return v1Error(400, SOURCIFY_TEXT.invalidField('metadata.json', 'not JSON'));
  }
  const sources = Object.fromEntries(entries.filter((e) => e !== metadataEntry));
  const read = readMetadataRequest({ metadata, sources });
  if (!read.ok) return v1Error(400, read.message);
  const submitted = await verify(ctx, { chainId: chain, address }, read.request, client);
  const refusal = submitted.body as { customCode?: string; message?: string; verificationId?: string };
  if (submitted.status === 409) {
    const verdict = await getStoredVerdict(ctx.store.db, address.toLowerCase());
    const minimal = verdict ? matched(ctx.chainId, { address, ...verdict, verifiedAt: 0 }) : null;
    return { status: 200, body: { result: [{ address: checksummed(address), chainId: String(ctx.chainId), status: v1Status(minimal?.match ?? null) }] } };
  }
  if (submitted.status !== 202 || !refusal.verificationId) return v1Error(submitted.status, refusal.message ?? SOURCIFY_TEXT.internalError);

  const receipt = refusal.verificationId;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const job = await getJobStatus(ctx.store.db, receipt);
    if (job && job.state !== 'queued' && job.state !== 'running') break;
    if (Date.now() > deadline) return v1Error(504, SOURCIFY_TEXT.stillRunning(receipt));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const status = (await jobStatus(ctx, receipt)).body as { contract: { match: string | null }; error?: { customCode: string; message: string } };
  if (status.error?.customCode === 'already_verified' || (!status.error && status.contract.match)) {
    const verdict = await getStoredVerdict(ctx.store.db, address.toLowerCase());
    const match = status.contract.match ?? (verdict ? matched(ctx.chainId, { address, ...verdict, verifiedAt: 0 }).match : null);
    return { status: 200, body: { result: [{ address: checksummed(address), chainId: String(ctx.chainId), status: v1Status(match) }] } };
  }
  return v1Error(400, status.error?.message ?? SOURCIFY_TEXT.internalError);
}
