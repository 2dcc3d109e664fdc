/**
 * HTTP side of compiler resolution: solc-bin style mirrors and the npm registry.
 * Every URL is built from configuration plus a version string that passed
 * parseCompilerVersion, never from raw user input.
 */
import { createHash } from 'node:crypto';
import { Parser, type ReadEntry } from 'tar';

export interface HttpLimits {
  /** Time allowed until response headers arrive (covers DNS and connect). */
  connectTimeoutMs: number;
  /** Time allowed for a whole request, body included. */
  downloadTimeoutMs: number;
  maxBytes: number;
}

/** The network or the server failed; trying again later may work. */
export class DownloadError extends Error {
  /** No answer at all (DNS, connect, timeout before headers): the source is down. */
  readonly unreachable: boolean;
  constructor(message: string, options?: { cause?: unknown; unreachable?: boolean }) {
    super(message, options);
    this.name = 'DownloadError';
    this.unreachable = options?.unreachable ?? false;
  }
}

/** The bytes arrived but are not what the source promised. */
export class ChecksumError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChecksumError';
  }
}

/**
 * GET with a short deadline for the connection and a size cap on the body.
 * Returns null on 404 (the source answered: no such thing).
 */
export async function httpGet(url: string, limits: HttpLimits, accept = '*/*'): Promise<Buffer | null> {
  const controller = new AbortController();
  let phase = 'connect';
  const connectTimer = setTimeout(() => controller.abort(), limits.connectTimeoutMs);
  const totalTimer = setTimeout(() => controller.abort(), limits.downloadTimeoutMs);
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: controller.signal, redirect: 'follow', headers: { accept } });
    } finally {
      clearTimeout(connectTimer);
    }
    phase = 'download';
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new DownloadError(`GET ${url} answered HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > limits.maxBytes) {
      await res.body.cancel();
      throw new DownloadError(`GET ${url}: ${declared} bytes is more than the limit of ${limits.maxBytes}`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) {
        controller.abort();
        throw new DownloadError(`GET ${url}: more than the limit of ${limits.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch (e) {
    if (e instanceof DownloadError) throw e;
    const reason = controller.signal.aborted ? `timed out (${phase})` : describeFetchError(e);
    throw new DownloadError(`GET ${url} failed: ${reason}`, { cause: e, unreachable: phase === 'connect' });
  } finally {
    clearTimeout(connectTimer);
    clearTimeout(totalTimer);
  }
}

function describeFetchError(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } } | null)?.cause;
  if (cause?.code) return cause.code;
  return e instanceof Error ? e.message : String(e);
}

export type SolcBinPlatform = 'linux-amd64' | 'wasm' | 'bin';

/** One entry of a solc-bin `list.json`. */
export interface SolcBinBuild {
  path: string;
  longVersion: string;
  sha256: string;
}

// solc-bin paths are flat file names; anything else is not followed.
const BUILD_PATH_RE = /^[A-Za-z0-9._+-]{1,200}$/;

/** Fetches `<base>/<platform>/list.json`; null when the mirror has no such list. */
export async function fetchSolcBinList(base: string, platform: SolcBinPlatform, limits: HttpLimits): Promise<Map<string, SolcBinBuild> | null> {
  const body = await httpGet(`${trimSlash(base)}/${platform}/list.json`, { ...limits, maxBytes: Math.min(limits.maxBytes, 64 * 1024 * 1024) });
  if (body === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new DownloadError(`${platform}/list.json from ${base} is not JSON`);
  }
  const builds = (parsed as { builds?: unknown } | null)?.builds;
  if (!Array.isArray(builds)) throw new DownloadError(`${platform}/list.json from ${base} has no builds`);
  const byVersion = new Map<string, SolcBinBuild>();
  for (const b of builds as Record<string, unknown>[]) {
    if (typeof b?.path !== 'string' || typeof b.longVersion !== 'string' || typeof b.sha256 !== 'string') continue;
    if (!BUILD_PATH_RE.test(b.path) || b.path.startsWith('.')) continue;
    byVersion.set(b.longVersion, { path: b.path, longVersion: b.longVersion, sha256: b.sha256 });
  }
  return byVersion;
}

/** Downloads one build listed by a mirror and checks its sha256. */
export async function downloadSolcBinBuild(base: string, platform: SolcBinPlatform, build: SolcBinBuild, limits: HttpLimits): Promise<Buffer> {
  const url = `${trimSlash(base)}/${platform}/${encodeURIComponent(build.path)}`;
  const body = await httpGet(url, limits);
  if (body === null) throw new DownloadError(`${url} is listed but answered HTTP 404`);
  const expected = build.sha256.toLowerCase().replace(/^0x/, '');
  const actual = createHash('sha256').update(body).digest('hex');
  if (actual !== expected) throw new ChecksumError(`${url}: sha256 ${actual} does not match the listed ${expected}`);
  return body;
}

/**
 * Fetches `soljson.js` of release `version` (`0.5.0`) from an npm registry, checking the
 * tarball against the registry's sha512 integrity. Null when the registry has no such release.
 */
export async function fetchNpmSoljson(registry: string, version: string, limits: HttpLimits): Promise<Buffer | null> {
  const docBody = await httpGet(`${trimSlash(registry)}/solc/${encodeURIComponent(version)}`, { ...limits, maxBytes: 4 * 1024 * 1024 });
  if (docBody === null) return null;
  let doc: { version?: unknown; dist?: { tarball?: unknown; integrity?: unknown } };
  try {
    doc = JSON.parse(docBody.toString('utf8')) as typeof doc;
  } catch {
    throw new DownloadError(`npm registry answer for solc@${version} is not JSON`);
  }
  const tarball = doc.dist?.tarball;
  const integrity = doc.dist?.integrity;
  if (doc.version !== version || typeof tarball !== 'string' || !/^https?:\/\//.test(tarball)) {
    throw new DownloadError(`npm registry answer for solc@${version} has no usable tarball`);
  }
  const sha512 = typeof integrity === 'string' ? /(?:^|\s)sha512-([A-Za-z0-9+/=]+)/.exec(integrity)?.[1] : undefined;
  if (!sha512) throw new DownloadError(`npm registry answer for solc@${version} has no sha512 integrity`);
  const tgz = await httpGet(tarball, limits);
  if (tgz === null) throw new DownloadError(`${tarball} answered HTTP 404`);
  const actual = createHash('sha512').update(tgz).digest('base64');
  if (actual !== sha512) throw new ChecksumError(`${tarball}: sha512 does not match the registry's integrity`);
  const soljson = await extractFromTarball(tgz, 'package/soljson.js', limits.maxBytes);
  if (!soljson) throw new DownloadError(`${tarball} has no package/soljson.js`);
  return soljson;
}

// An npm version of solc: `0.8.26`, `0.8.7-fixed`. Anything else is not a compiler release.
const NPM_VERSION_RE = /^\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.-]{1,40})?$/;
/** More versions than solc will ever publish; a longer list is cut there. */
const MAX_NPM_VERSIONS = 10_000;

/**
 * The versions of the `solc` package an npm registry has (`0.8.26`, `0.8.7-fixed`), read from
 * its abbreviated packument; an empty list when the registry has no `solc` package.
 */
export async function fetchNpmSolcVersions(registry: string, limits: HttpLimits): Promise<string[]> {
  // The abbreviated form is what npm install reads: the versions without their readmes.
  const accept = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8';
  const body = await httpGet(`${trimSlash(registry)}/solc`, { ...limits, maxBytes: Math.min(limits.maxBytes, 32 * 1024 * 1024) }, accept);
  if (body === null) return [];
  let doc: { versions?: unknown };
  try {
    doc = JSON.parse(body.toString('utf8')) as typeof doc;
  } catch {
    throw new DownloadError(`npm registry answer for solc from ${registry} is not JSON`);
  }
  if (typeof doc?.versions !== 'object' || doc.versions === null || Array.isArray(doc.versions)) {
    throw new DownloadError(`npm registry answer for solc from ${registry} has no versions`);
  }
  return Object.keys(doc.versions)
    .filter((v) => NPM_VERSION_RE.test(v))
    .slice(0, MAX_NPM_VERSIONS);
}

/** Reads one file out of a (gzipped) tarball held in memory. */
export async function extractFromTarball(tgz: Buffer, wanted: string, maxBytes: number): Promise<Buffer | null> {
  return new Promise<Buffer | null>((resolve, reject) => {
    let found: Buffer | null = null;
    let failed = false;
    const parser = new Parser({
      onReadEntry: (entry: ReadEntry) => {
        if (entry.path !== wanted || entry.type !== 'File' || entry.size > maxBytes) {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => {
          found = Buffer.concat(chunks);
        });
      },
    });
    parser.on('error', (e: unknown) => {
      failed = true;
      reject(new DownloadError(`corrupt tarball: ${e instanceof Error ? e.message : String(e)}`));
    });
    parser.on('end', () => {
      if (!failed) resolve(found);
    });
    parser.end(tgz);
  });
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
