/**
 * The Vyper compiler family. A Vyper compiler is a native process (a Python program in a
 * virtual environment, or a PyInstaller release binary that unpacks itself and runs a child):
 * each compile runs `vyper --standard-json` with the input on stdin, in an empty scratch
 * directory, in the compiler pool's concurrency bound with its time and memory limits, the
 * memory of every process the compiler starts counted and all of them killed on overrun.
 *
 * Compilers come from a local directory of installed ones (what the tests use: one virtual
 * environment per release), then from a download cache, then from Vyper's published release
 * binaries through a configurable release list and download URL (a mirror), sha256-checked.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { access, chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompilerListSourceState, VyperBuild, VyperBuildSource, VyperListing } from '../core/compilerListing.js';
import { SolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { VyperInput } from '../core/types.js';
import { VYPER_RELEASES } from '../core/vyperReleases.js';
import {
  compareVyperVersions,
  etherscanVyperVersion,
  isSupportedVyper,
  knownVyperRelease,
  parseVyperVersion,
  sameCommit,
  type VyperReleaseLookup,
  type VyperVersion,
} from '../core/vyperVersion.js';
import type { VyperCompiler, VyperOutput } from '../verify/index.js';
import { ChecksumError, DownloadError, type HttpLimits } from './compilerDownloads.js';
import { failureText } from './compilerListSources.js';
import { CompilerPool } from './compilerPool.js';
import type { NativeCommand } from './nativeCompiler.js';
import { downloadVyperBinary, fetchVyperReleaseList, type VyperReleaseAsset } from './vyperDownloads.js';

export interface VyperCompilerOptions {
  /** Where downloaded release binaries are kept (normally `<dataDir>/compilers/vyper`). */
  cacheDir: string;
  /**
   * A directory of installed compilers: `<dir>/<release>/bin/vyper` (a Python virtual
   * environment per release, as scripts/install-vyper.mjs makes them) or a release binary
   * `<dir>/vyper.<release>+commit.<commit>.linux`. Null or absent: none.
   */
  localDir?: string | null;
  /**
   * The list of releases, in the shape of GitHub's releases API. Default
   * https://api.github.com/repos/vyperlang/vyper/releases?per_page=100; null turns downloads off.
   */
  releaseListUrl?: string | null;
  /** Binaries are fetched from `<downloadUrl>/<tag>/<asset name>`. Default https://github.com/vyperlang/vyper/releases/download */
  downloadUrl?: string;
  /** The pool solc compiles in: Vyper shares its concurrency bound and its time and memory limits. */
  pool?: CompilerPool;
  /** Without a pool: the limits of a pool of its own (defaults as solc's: 60 s, 2048 MB, one compile per core). */
  timeoutMs?: number;
  maxMemoryMb?: number;
  maxThreads?: number;
  /** Releases and their commits. Default: the table shipped with the service (VYPER_RELEASES). */
  releases?: VyperReleaseLookup;
  connectTimeoutMs?: number;
  downloadTimeoutMs?: number;
  logger?: Logger | undefined;
}

/** A Vyper compiler found here. */
export interface ResolvedVyper {
  path: string;
  /** `0.4.1+commit.8a93dd27` (the commit as long as the compiler or its name gives it). */
  longVersion: string;
  source: 'local' | 'cache' | 'mirror';
}

/** The service's Vyper compiler: resolves versions to installed or downloaded compilers and compiles in the pool. */
export interface VyperCompilerService extends VyperCompiler {
  resolve(version: string): Promise<ResolvedVyper>;
  /** The releases it can compile with or knows of, for the compiler list. */
  listing(): Promise<VyperListing>;
  stats(): { compiles: number; downloads: number };
  /** Stops the pool when it made its own. */
  close(): Promise<void>;
}

const DEFAULT_LIST = 'https://api.github.com/repos/vyperlang/vyper/releases?per_page=100';
const DEFAULT_DOWNLOADS = 'https://github.com/vyperlang/vyper/releases/download';
const LIST_TTL_MS = 10 * 60_000;
const LIST_FAILURE_TTL_MS = 60_000;
const NOT_FOUND_TTL_MS = 10 * 60_000;
const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;

/** How every Vyper compile is run: the input on stdin, Python reading and writing UTF-8, writing no bytecode caches. */
export const VYPER_COMMAND: NativeCommand = {
  args: ['--standard-json'],
  env: { PYTHONUTF8: '1', PYTHONIOENCODING: 'utf-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONNOUSERSITE: '1' },
  processGroup: true,
};

export function createVyperCompiler(options: VyperCompilerOptions): VyperCompilerService {
  const ownPool = options.pool
    ? null
    : new CompilerPool({
        maxThreads: Math.max(1, options.maxThreads ?? 2),
        timeoutMs: options.timeoutMs ?? 60_000,
        maxMemoryMb: options.maxMemoryMb ?? 2048,
        warmPerWorker: 0,
        idleTimeoutMs: 60_000,
        logger: options.logger,
      });
  const pool = options.pool ?? ownPool!;
  const releases = options.releases ?? knownVyperRelease;
  const listUrl = options.releaseListUrl === undefined ? DEFAULT_LIST : options.releaseListUrl;
  const downloadUrl = options.downloadUrl ?? DEFAULT_DOWNLOADS;
  const limits: HttpLimits = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    downloadTimeoutMs: options.downloadTimeoutMs ?? 180_000,
    maxBytes: MAX_DOWNLOAD_BYTES,
  };
  const logger = options.logger;
  const counters = { compiles: 0, downloads: 0 };
  const local = new LocalVyperDirectory(options.localDir ?? null);
  const inFlight = new Map<string, Promise<ResolvedVyper>>();
  const notFound = new Map<string, { at: number; error: SolproofError }>();
  let list: { at: number; assets: Map<string, VyperReleaseAsset> } | { at: number; error: DownloadError } | null = null;

  async function releaseList(): Promise<Map<string, VyperReleaseAsset>> {
    if (!listUrl) return new Map();
    const now = Date.now();
    if (list && 'error' in list && now - list.at < LIST_FAILURE_TTL_MS) throw list.error;
    if (list && 'assets' in list && now - list.at < LIST_TTL_MS) return list.assets;
    try {
      const assets = await fetchVyperReleaseList(listUrl, limits);
      list = { at: now, assets };
      return assets;
    } catch (e) {
      const error = e instanceof DownloadError ? e : new DownloadError(String(e), { cause: e });
      list = { at: now, error };
      throw error;
    }
  }

  function cachedPath(release: string, commit: string): string {
    return join(options.cacheDir, `vyper.${release}+commit.${commit}.linux`);
  }

  async function findCached(v: VyperVersion, commit: string | null): Promise<ResolvedVyper | null> {
    const names = await readdir(options.cacheDir).catch(() => [] as string[]);
    for (const name of names) {
      const m = /^vyper\.(.+)\+commit\.([0-9a-f]{7,40})\.linux$/.exec(name);
      if (!m || m[1] !== v.release || (commit !== null && !sameCommit(m[2]!, commit))) continue;
      const path = join(options.cacheDir, name);
      try {
        await access(path, constants.X_OK);
        return { path, longVersion: `${v.release}+commit.${m[2]}`, source: 'cache' };
      } catch {
        // not usable
      }
    }
    return null;
  }

  async function download(v: VyperVersion, commit: string | null, long: string): Promise<ResolvedVyper> {
    const failures: string[] = [];
    if (listUrl && process.platform === 'linux' && process.arch === 'x64') {
      let assets: Map<string, VyperReleaseAsset> | null = null;
      try {
        assets = await releaseList();
      } catch (e) {
        failures.push(`release list ${listUrl}: ${failureText(e)}`);
      }
      const asset = assets?.get(v.release);
      if (asset && (commit === null || sameCommit(asset.commit, commit))) {
        try {
          const bytes = await downloadVyperBinary(downloadUrl, asset, limits);
          counters.downloads++;
          const path = await store(cachedPath(v.release, asset.commit), bytes);
          logger?.info({ version: `${v.release}+commit.${asset.commit}`, source: downloadUrl }, 'vyper compiler downloaded');
          return { path, longVersion: `${v.release}+commit.${asset.commit}`, source: 'mirror' };
        } catch (e) {
          if (!(e instanceof DownloadError || e instanceof ChecksumError)) throw e;
          failures.push(e.message);
          logger?.warn({ version: long, err: e.message }, 'vyper compiler download failed');
        }
      }
    }
    if (failures.length > 0) {
      throw new SolproofError('compiler_download_failed', { version: long, failures, compiler: 'vyper' }, { retryable: true });
    }
    const error = new SolproofError('compiler_version_not_found', { version: long, why: 'not_available', compiler: 'vyper' });
    notFound.set(long, { at: Date.now(), error });
    if (notFound.size > 1000) notFound.delete(notFound.keys().next().value as string);
    throw error;
  }

  async function store(path: string, bytes: Buffer): Promise<string> {
    await mkdir(options.cacheDir, { recursive: true });
    const temp = join(options.cacheDir, `.partial-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(temp, bytes, { mode: 0o755 });
      await chmod(temp, 0o755);
      await rename(temp, path);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return path;
  }

  async function resolve(version: string): Promise<ResolvedVyper> {
    const v = parseVyperVersion(version);
    if (!v) throw new SolproofError('compiler_version_not_found', { version: String(version).slice(0, 80), why: 'not_a_version', compiler: 'vyper' });
    if (!isSupportedVyper(v)) {
      throw new SolproofError('compiler_version_not_found', { version: v.long, why: 'not_available', compiler: 'vyper' });
    }
    const known = releases(v.release);
    if (known && v.commit !== null && !sameCommit(v.commit, known)) {
      throw new SolproofError('compiler_version_not_found', {
        version: v.long,
        why: 'not_a_release',
        release: v.release,
        longVersion: `${v.release}+commit.${known}`,
        compiler: 'vyper',
      });
    }
    // The table's commit (eight digits) where the request named it shorter.
    const commit = known ?? v.commit;
    const long = commit ? `${v.release}+commit.${commit}` : v.release;
    const installed = await local.find(v.release);
    // A compiler installed from PyPI may not know its commit (0.3.1 reports `0.3.1`): the
    // release is the one PyPI published, the one the table names.
    if (installed && (commit === null || installed.commit === null || sameCommit(installed.commit, commit))) {
      const installedCommit = commit ?? installed.commit;
      return { path: installed.path, longVersion: installedCommit ? `${v.release}+commit.${installedCommit}` : v.release, source: 'local' };
    }
    const cached = await findCached(v, commit);
    if (cached) return cached;
    const key = `${v.release}+${commit ?? ''}`;
    const miss = notFound.get(long);
    if (miss && Date.now() - miss.at < NOT_FOUND_TTL_MS) throw miss.error;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = download(v, commit, long).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  }

  async function compile(version: string, input: VyperInput, signal?: AbortSignal): Promise<VyperOutput> {
    const resolved = await resolve(version);
    if (signal?.aborted) throw new SolproofError('compile_cancelled', {});
    const result = await pool.compileNative(resolved.path, JSON.stringify(input), signal, VYPER_COMMAND);
    counters.compiles++;
    logger?.debug({ version: resolved.longVersion, source: resolved.source, compileMs: Math.round(result.compileMs) }, 'vyper compiled');
    return result.output as VyperOutput;
  }

  async function listing(): Promise<VyperListing> {
    let assets: Map<string, VyperReleaseAsset> = new Map();
    let mirror: CompilerListSourceState | undefined;
    if (listUrl) {
      try {
        assets = await releaseList();
      } catch {
        // The state below says why; the other sources still answer.
      }
      const state = list;
      mirror = {
        url: listUrl,
        fetchedAt: state && 'assets' in state ? new Date(state.at).toISOString() : null,
        ageSeconds: state && 'assets' in state ? Math.floor((Date.now() - state.at) / 1000) : null,
        builds: assets.size,
        ...(state && 'error' in state ? { error: state.error.message, failedAt: new Date(state.at).toISOString() } : {}),
      };
    }
    const cacheNames = await readdir(options.cacheDir).catch(() => [] as string[]);
    return buildVyperListing({
      table: VYPER_RELEASES,
      local: await local.all(),
      cached: cacheNames.flatMap((name) => {
        const m = /^vyper\.(.+)\+commit\.([0-9a-f]{7,40})\.linux$/.exec(name);
        return m ? [{ release: m[1]!, commit: m[2]! }] : [];
      }),
      mirror: [...assets.values()].map((a) => ({ release: a.release, commit: a.commit })),
      ...(mirror ? { mirrorState: mirror } : {}),
    });
  }

  return {
    compile,
    resolve,
    listing,
    stats: () => ({ ...counters }),
    close: async () => {
      await ownPool?.close();
    },
  };
}

/** What the listing is put together from. */
export interface VyperListingInputs {
  table: ReadonlyArray<readonly [release: string, commit: string]>;
  local: readonly { release: string; commit: string | null }[];
  cached: readonly { release: string; commit: string }[];
  mirror: readonly { release: string; commit: string }[];
  mirrorState?: CompilerListSourceState;
}

/** One build per release from 0.2.5 on, newest first (a prerelease after its release). */
export function buildVyperListing(inputs: VyperListingInputs): VyperListing {
  const entries = new Map<string, { v: VyperVersion; commit: string | null; known: boolean; sources: Set<VyperBuildSource> }>();
  const entry = (release: string) => {
    const v = parseVyperVersion(release);
    if (!v || v.release !== release || !isSupportedVyper(v)) return null;
    let e = entries.get(release);
    if (!e) entries.set(release, (e = { v, commit: null, known: false, sources: new Set() }));
    return e;
  };
  for (const [release, commit] of inputs.table) {
    const e = entry(release);
    if (e) {
      e.known = true;
      e.commit = commit;
    }
  }
  const mark = (list: readonly { release: string; commit: string | null }[], source: VyperBuildSource) => {
    for (const { release, commit } of list) {
      const e = entry(release);
      // A build whose commit contradicts the table is not that release.
      if (!e || (commit !== null && e.commit !== null && !sameCommit(commit, e.commit))) continue;
      e.commit ??= commit;
      e.sources.add(source);
    }
  };
  mark(inputs.local, 'local');
  mark(inputs.cached, 'cache');
  mark(inputs.mirror, 'mirror');
  const order: VyperBuildSource[] = ['local', 'cache', 'mirror'];
  const builds: VyperBuild[] = [...entries.values()]
    .sort((a, b) => compareVyperVersions(b.v, a.v))
    .map((e) => ({
      version: e.v.release,
      longVersion: e.commit ? `${e.v.release}+commit.${e.commit}` : null,
      compilerVersion: etherscanVyperVersion(e.v),
      prerelease: e.v.prerelease !== null,
      known: e.known,
      cached: e.sources.has('local') || e.sources.has('cache'),
      sources: order.filter((s) => e.sources.has(s)),
    }));
  return { builds, ...(inputs.mirrorState ? { mirror: inputs.mirrorState } : {}) };
}

/**
 * The directory of installed compilers. A release's commit is read once: from the marker
 * scripts/install-vyper.mjs writes, else by asking the compiler (`--version`).
 */
class LocalVyperDirectory {
  private readonly commits = new Map<string, Promise<string | null>>();

  constructor(private readonly dir: string | null) {}

  /** The installed compiler of a release, with its commit (null when it does not report one); null when none is. */
  async find(release: string): Promise<{ path: string; commit: string | null } | null> {
    if (this.dir === null || !/^[0-9A-Za-z.]{5,40}$/.test(release)) return null;
    const venv = join(this.dir, release, 'bin', 'vyper');
    if (existsSync(venv)) return { path: venv, commit: await this.commitOf(venv, join(this.dir, release, '.installed')) };
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const m = /^vyper\.(.+)\+commit\.([0-9a-f]{7,40})\.linux$/.exec(name);
      if (m && m[1] === release) return { path: join(this.dir, name), commit: m[2]! };
    }
    return null;
  }

  /** Every installed release with its commit (null when it does not report one). */
  async all(): Promise<{ release: string; commit: string | null }[]> {
    if (this.dir === null) return [];
    const out: { release: string; commit: string | null }[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    for (const name of names) {
      const m = /^vyper\.(.+)\+commit\.([0-9a-f]{7,40})\.linux$/.exec(name);
      if (m) out.push({ release: m[1]!, commit: m[2]! });
      else if (parseVyperVersion(name)?.release === name) {
        const found = await this.find(name);
        if (found) out.push({ release: name, commit: found.commit });
      }
    }
    return out;
  }

  private commitOf(binary: string, marker: string): Promise<string | null> {
    let pending = this.commits.get(binary);
    if (!pending) {
      pending = (async () => {
        let reported: string | null = null;
        try {
          reported = String((JSON.parse(readFileSync(marker, 'utf8')) as { reported?: unknown }).reported ?? '');
        } catch {
          reported = await askVersion(binary);
        }
        return reported ? (parseVyperVersion(reported)?.commit ?? null) : null;
      })();
      this.commits.set(binary, pending);
    }
    return pending;
  }
}

/** What `vyper --version` prints (its last line), or null when it does not answer within 30 s. */
function askVersion(binary: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(binary, ['--version'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', ...VYPER_COMMAND.env },
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      if (out.length < 4096) out += c.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? (out.trim().split('\n').pop() ?? null) : null);
    });
  });
}
