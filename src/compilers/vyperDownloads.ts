/**
 * Vyper's published release binaries: the list of releases in the shape of GitHub's releases
 * API (`[{tag_name, assets: [{name, digest}]}]`, as api.github.com and mirrors of it serve it),
 * and the Linux binary of a release, sha256-checked against the digest the list gives. Every
 * URL is built from configuration plus names that passed the checks below, never from a
 * client's input or from a URL the list holds.
 */
import { createHash } from 'node:crypto';
import { parseVyperVersion } from '../core/vyperVersion.js';
import { ChecksumError, DownloadError, type HttpLimits, httpGet } from './compilerDownloads.js';

/** One Linux binary a release list offers. */
export interface VyperReleaseAsset {
  /** `0.4.1`, `0.4.1rc2` */
  release: string;
  /** Eight (or more) hex digits, lower case. */
  commit: string;
  /** The release's tag (`v0.4.1`), a path segment of the download URL. */
  tag: string;
  /** `vyper.0.4.1+commit.8a93dd27.linux` */
  name: string;
  /** Lower-case hex; null when the list gives no digest (such a binary is not downloaded). */
  sha256: string | null;
}

// A tag and an asset name become path segments: nothing but what Vyper's releases use.
const TAG_RE = /^v?\d{1,3}\.\d{1,3}\.\d{1,3}[0-9A-Za-z.-]{0,20}$/;
const LINUX_ASSET_RE = /^vyper\.([0-9A-Za-z.-]{5,40})\+commit\.([0-9a-f]{7,40})\.linux$/;

/**
 * Fetches a release list and returns its Linux binaries by release. A release listed twice
 * keeps its first binary; drafts are skipped. Throws DownloadError when the list cannot be had
 * or is not a list of releases.
 */
export async function fetchVyperReleaseList(listUrl: string, limits: HttpLimits): Promise<Map<string, VyperReleaseAsset>> {
  const body = await httpGet(listUrl, { ...limits, maxBytes: Math.min(limits.maxBytes, 32 * 1024 * 1024) }, 'application/vnd.github+json, application/json');
  if (body === null) throw new DownloadError(`${listUrl} answered HTTP 404`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new DownloadError(`the Vyper release list at ${listUrl} is not JSON`);
  }
  if (!Array.isArray(parsed)) throw new DownloadError(`the Vyper release list at ${listUrl} is not a list of releases`);
  return readVyperReleaseList(parsed);
}

/** The Linux binaries of a parsed release list (see fetchVyperReleaseList). */
export function readVyperReleaseList(releases: readonly unknown[]): Map<string, VyperReleaseAsset> {
  const out = new Map<string, VyperReleaseAsset>();
  for (const entry of releases.slice(0, 10_000)) {
    const r = entry as { tag_name?: unknown; draft?: unknown; assets?: unknown } | null;
    if (typeof r?.tag_name !== 'string' || r.draft === true || !Array.isArray(r.assets) || !TAG_RE.test(r.tag_name)) continue;
    for (const a of r.assets as { name?: unknown; digest?: unknown }[]) {
      const m = typeof a?.name === 'string' ? LINUX_ASSET_RE.exec(a.name) : null;
      const v = m ? parseVyperVersion(`${m[1]}+commit.${m[2]}`) : null;
      if (!m || !v || out.has(v.release)) continue;
      const digest = typeof a.digest === 'string' ? (/^sha256:([0-9a-fA-F]{64})$/.exec(a.digest)?.[1]?.toLowerCase() ?? null) : null;
      out.set(v.release, { release: v.release, commit: v.commit!, tag: r.tag_name, name: a.name as string, sha256: digest });
    }
  }
  return out;
}

/** Downloads a listed binary from `<downloadUrl>/<tag>/<name>` and checks its sha256. */
export async function downloadVyperBinary(downloadUrl: string, asset: VyperReleaseAsset, limits: HttpLimits): Promise<Buffer> {
  if (asset.sha256 === null) throw new ChecksumError(`the release list gives no sha256 digest for ${asset.name}: it is not downloaded unchecked`);
  const url = `${downloadUrl.replace(/\/+$/, '')}/${encodeURIComponent(asset.tag)}/${encodeURIComponent(asset.name)}`;
  const body = await httpGet(url, limits);
  if (body === null) throw new DownloadError(`${url} is listed but answered HTTP 404`);
  const actual = createHash('sha256').update(body).digest('hex');
  if (actual !== asset.sha256) throw new ChecksumError(`${url}: sha256 ${actual} does not match the listed ${asset.sha256}`);
  return body;
}
