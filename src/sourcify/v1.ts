/**
 * The two routes of Sourcify's v1 API that hardhat-verify 2 calls, on the v2 machinery:
 * `GET check-all-by-addresses` (`perfect`/`partial` per chain, `false` when not verified) and
 * `POST /` with `{address, chain, files}` (metadata.json and its sources), which v1 answers
 * only once verified: it queues the same job and waits for its verdict.
 */
import { parseAddress } from '../core/hex.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { isFinished, readVerdict, type Services, waitForVerdict } from '../useCases/index.js';
import { type Answer, checksummed, matchesOf } from './answers.js';
import { jobStatus } from './jobStatus.js';
import { readMetadataRequest } from './metadataRequest.js';
import { verify } from './verify.js';

/** How long POST / waits for a verdict (a failure's diagnosis included). */
const WAIT_MS = 150_000;

const v1Error = (status: number, message: string): Answer => ({ status, body: { error: message } });

/** v1's word for a record: `perfect` for what the service proved an exact match, else `partial`. */
const v1Status = (match: string | null) => (match === 'exact_match' ? 'perfect' : 'partial');

export async function checkAllByAddresses(s: Services, query: Record<string, unknown>): Promise<Answer> {
  const addresses = typeof query.addresses === 'string' ? query.addresses.split(',').map((a) => a.trim()) : [];
  const chainIds = typeof query.chainIds === 'string' ? query.chainIds.split(',').map((c) => c.trim()) : [];
  if (addresses.length === 0 || addresses.some((a) => parseAddress(a) === null))
    return v1Error(400, SOURCIFY_TEXT.invalidField('addresses', 'expected 0x addresses, comma-separated'));
  if (addresses.length > 100) return v1Error(400, SOURCIFY_TEXT.invalidField('addresses', 'at most 100 at once'));
  if (chainIds.length === 0) return v1Error(400, SOURCIFY_TEXT.missingField('chainIds'));
  const served = chainIds.includes(String(s.chainId));
  const results = [];
  for (const address of addresses) {
    const verdict = served ? await readVerdict(s, parseAddress(address)!) : null;
    if (!verdict) {
      results.push({ address: checksummed(address), status: 'false' });
      continue;
    }
    results.push({ address: checksummed(address), chainIds: [{ chainId: String(s.chainId), status: v1Status(matchesOf(verdict).match) }] });
  }
  return { status: 200, body: results };
}

export async function verifyFiles(s: Services, body: unknown, client: string): Promise<Answer> {
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
  const submitted = await verify(s, { chainId: chain, address }, read.request, client);
  const refusal = submitted.body as { customCode?: string; message?: string; verificationId?: string };
  const verifiedNow = async (match: string | null) => {
    const verdict = match === null ? await readVerdict(s, parseAddress(address)!) : null;
    const status = v1Status(match ?? (verdict ? matchesOf(verdict).match : null));
    return { status: 200, body: { result: [{ address: checksummed(address), chainId: String(s.chainId), status }] } };
  };
  if (submitted.status === 409) return verifiedNow(null);
  if (submitted.status !== 202 || !refusal.verificationId) return v1Error(submitted.status, refusal.message ?? SOURCIFY_TEXT.internalError);

  const receipt = refusal.verificationId;
  const job = await waitForVerdict(s, receipt, WAIT_MS);
  if (!job || !isFinished(job)) return v1Error(504, SOURCIFY_TEXT.stillRunning(receipt));
  const status = (await jobStatus(s, receipt)).body as { contract: { match: string | null }; error?: { customCode: string; message: string } };
  if (status.error?.customCode === 'already_verified') return verifiedNow(null);
  if (!status.error && status.contract.match) return verifiedNow(status.contract.match);
  return v1Error(400, status.error?.message ?? SOURCIFY_TEXT.internalError);
}
