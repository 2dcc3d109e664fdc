/**
 * `solproof publish --url URL --key KEY [--deployment RECORD] [--project DIR]`: verifies a
 * deployment made without `--verify`, in one command, run in a Foundry or Hardhat project. It
 * sends the project's build-info files through `verifybuild` (one unit of the key's daily quota
 * each): the service compiles each build once and verifies every deployed contract that is one
 * of its contracts, libraries and factories' children included. With a deployment record
 * (Foundry's broadcast run-latest.json, or an Ignition deployment folder) it checks the record's
 * chain before sending anything and reports the record's contracts only; one line per contract:
 * address, name, verdict, reason. Exit code 0 when every contract reported is verified.
 *
 * A client of the service's HTTP API like any other: it reads no store.
 */
import { resolve } from 'node:path';
import { type BuildInfo, type DeploymentRecord, PublishInputError, readBuildInfos, readDeploymentRecord } from './deploymentRecord.js';

export interface PublishOptions {
  url?: string | undefined;
  key?: string | undefined;
  deployment?: string | undefined;
  project?: string | undefined;
}

interface Verified {
  address: string;
  contractName: string;
  matchKind: string;
}

interface Envelope {
  status: string;
  message: string;
  result: unknown;
}

/** How long one build may take to be verified, queue included. */
const BUILD_TIMEOUT_MS = 600_000;

const out = (line: string): void => void process.stdout.write(`${line}\n`);

/** Runs the command; returns the exit code. Problems with the input are thrown as PublishInputError. */
export async function publish(options: PublishOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const key = options.key ?? env.SOLPROOF_API_KEY ?? '';
  if (!options.url) throw new PublishInputError('--url is required: the service, e.g. --url http://127.0.0.1:8080');
  if (!key) throw new PublishInputError('--key is required (or SOLPROOF_API_KEY): an API key of the service');
  const base = serviceBase(options.url);
  const project = resolve(options.project ?? '.');

  // Everything local is read and checked before anything is sent.
  const record = options.deployment ? readDeploymentRecord(options.deployment, project) : null;
  const { dir, builds } = readBuildInfos(project, record?.buildInfoDir ?? null);
  const served = await servedChain(base);
  if (record && record.chainId !== served) {
    throw new PublishInputError(
      `${record.where} is a deployment on chain ${record.chainId}, but ${base} serves chain ${served}: nothing was sent (use the service of chain ${record.chainId})`,
    );
  }

  out(
    `Publishing ${builds.length} build-info file(s) from ${dir} to ${base} (chain ${served})${record ? ` for the ${record.contracts.length} contracts of ${record.where}` : ''}`,
  );
  const verified = new Map<string, Verified>();
  let failedBuilds = 0;
  for (const build of builds) {
    const outcome = await verifyBuild(base, key, build);
    if (!outcome.ok) {
      failedBuilds++;
      out(`${build.file}: not verified: ${outcome.reason}`);
      continue;
    }
    for (const v of outcome.verified) verified.set(v.address.toLowerCase(), v);
  }

  if (!record) {
    for (const v of [...verified.values()].sort((a, b) => a.address.localeCompare(b.address)))
      out(line(v.address, v.contractName, 'verified', matchText(v.matchKind)));
    if (verified.size === 0 && failedBuilds === 0) out('No deployed contract on this chain is one of these builds.');
    return failedBuilds === 0 ? 0 : 1;
  }
  return report(base, key, record, verified);
}

/** One line per contract of the record; 0 when all are verified. */
async function report(base: string, key: string, record: DeploymentRecord, verified: Map<string, Verified>): Promise<number> {
  let unverified = 0;
  for (const contract of record.contracts) {
    const now = verified.get(contract.address);
    if (now) {
      out(line(contract.address, now.contractName, 'verified', matchText(now.matchKind)));
      continue;
    }
    // Not one this publish verified: verified before (by another build or submission), or not at all.
    const before = await readRecord(base, key, contract.address);
    if (before) {
      out(line(contract.address, before.name, 'verified', `${matchText(before.matchKind)}, verified before`));
      continue;
    }
    unverified++;
    out(
      line(
        contract.address,
        contract.name ?? '?',
        'not verified',
        'no contract of the build-info files has the code deployed here: was it built from other sources or settings, or is its build-info missing?',
      ),
    );
  }
  out(unverified === 0 ? `All ${record.contracts.length} contracts are verified.` : `${unverified} of ${record.contracts.length} contracts are not verified.`);
  return unverified === 0 ? 0 : 1;
}

const line = (address: string, name: string, verdict: string, reason: string) => `${address}  ${name}  ${verdict}  ${reason}`;
const matchText = (kind: string) => (kind === 'full' ? 'full match' : 'partial match (the metadata differs)');

/** The service's base URL from what the user gave (`http://host:8080`, `…/api`, `…/v2/api`). */
function serviceBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PublishInputError(`--url ${url} is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new PublishInputError(`--url ${url} is not an http(s) URL`);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/(v2\/)?api$/, '')}`;
}

async function servedChain(base: string): Promise<number> {
  let body: unknown;
  try {
    const res = await fetch(`${base}/health`);
    body = await res.json();
  } catch (error) {
    throw new PublishInputError(`cannot reach the service at ${base}: ${(error as Error).message}`);
  }
  const chainId = (body as { chainId?: unknown } | null)?.chainId;
  if (typeof chainId !== 'number') throw new PublishInputError(`${base}/health does not answer as a solproof service does`);
  return chainId;
}

async function api(base: string, key: string, params: Record<string, string>, body?: Record<string, string>): Promise<Envelope> {
  // The key goes in the query: the service reads a large body only for a key it has checked first.
  const url = `${base}/api?${new URLSearchParams({ ...params, apikey: key })}`;
  const res = await fetch(
    url,
    body ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) } : {},
  );
  if (res.status !== 200) throw new PublishInputError(`${base}/api answered HTTP ${res.status}`);
  return (await res.json()) as Envelope;
}

type BuildOutcome = { ok: true; verified: Verified[] } | { ok: false; reason: string };

async function verifyBuild(base: string, key: string, build: BuildInfo): Promise<BuildOutcome> {
  const submitted = await api(base, key, { module: 'contract', action: 'verifybuild' }, { sourceCode: build.text });
  if (submitted.status !== '1') return { ok: false, reason: String(submitted.result) };
  const receipt = String(submitted.result);
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    // A check of a running job waits for the verdict on the service's side: no sleep here.
    const status = await api(base, key, { module: 'contract', action: 'checkbuildstatus', guid: receipt });
    if (status.status === '1') return { ok: true, verified: ((status.result as { verified?: Verified[] }).verified ?? []) as Verified[] };
    if (status.result !== 'Pending in queue') return { ok: false, reason: String(status.result) };
    if (Date.now() > deadline) return { ok: false, reason: `still pending after ${BUILD_TIMEOUT_MS / 60_000} minutes; its receipt is ${receipt}` };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function readRecord(base: string, key: string, address: string): Promise<{ name: string; matchKind: string } | null> {
  const env = await api(base, key, { module: 'contract', action: 'getsourcecode', address });
  const row = Array.isArray(env.result) ? (env.result[0] as Record<string, string> | undefined) : undefined;
  if (env.status !== '1' || !row || !row.SourceCode) return null;
  return { name: row.ContractName ?? '?', matchKind: row.MatchKind ?? 'full' };
}
