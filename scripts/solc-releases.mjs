#!/usr/bin/env node

// Build a table of Solidity compiler releases published on npm as `solc`
// (>= 0.4.11), keyed by the version the loaded compiler itself reports.
//
// Usage: node scripts/solc-releases.mjs [--ts] [scratchDir] > solc-releases.json
//   scratchDir defaults to /tmp/solc-releases. Tarballs are cached there, so
//   a rerun only re-reads them. Nothing outside scratchDir is written or deleted.
//   --ts prints the service's table instead (src/core/solcReleases.ts), with the two
//   releases npm does not hold taken from solc-bin's published lists.
//
// Uses Node built-ins only (fetch, crypto, zlib, child_process).

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const REGISTRY = 'https://registry.npmjs.org/solc';
const MIN = [0, 4, 11];
const CONCURRENCY = 3;

const args = process.argv.slice(2);
const asTypeScript = args.includes('--ts');
const scratch = resolve(args.find((a) => !a.startsWith('--')) ?? '/tmp/solc-releases');
const tarDir = join(scratch, 'tarballs');
const jsDir = join(scratch, 'soljson');

const log = (...a) => console.error('[solc-releases]', ...a);

// ---------- versions ----------
function parseVersion(v) {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/.exec(v);
  if (!m) return null;
  return { nums: [+m[1], +m[2], +m[3]], pre: m[4] ?? null, base: `${m[1]}.${m[2]}.${m[3]}` };
}
function cmpNums(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
function cmpVersion(a, b) {
  const pa = parseVersion(a),
    pb = parseVersion(b);
  const c = cmpNums(pa.nums, pb.nums);
  if (c) return c;
  if (!pa.pre !== !pb.pre) return pa.pre ? 1 : -1; // plain before suffixed
  return (pa.pre ?? '').localeCompare(pb.pre ?? '');
}
// Suffixes that are re-publications of a real release (not nightlies/prereleases).
const isFixSuffix = (pre) => pre === null || /^fixed(\.\d+)?$/.test(pre);

// ---------- network ----------
async function fetchWithRetry(url, tries = 4) {
  let err;
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
      return res;
    } catch (e) {
      err = e;
      await new Promise((r) => setTimeout(r, 1000 * (i + 1)));
    }
  }
  throw err;
}

function checkIntegrity(buf, dist) {
  if (dist.integrity) {
    const sha512 = dist.integrity.split(/\s+/).find((s) => s.startsWith('sha512-'));
    if (sha512) {
      const got = `sha512-${createHash('sha512').update(buf).digest('base64')}`;
      return got === sha512 ? null : `sha512 mismatch (expected ${sha512}, got ${got})`;
    }
  }
  if (dist.shasum) {
    const got = createHash('sha1').update(buf).digest('hex');
    return got === dist.shasum ? null : `sha1 mismatch (expected ${dist.shasum}, got ${got})`;
  }
  return 'no integrity information in packument';
}

async function getTarball(version, dist) {
  const file = join(tarDir, `solc-${version}.tgz`);
  if (existsSync(file)) {
    const buf = await readFile(file);
    if (!checkIntegrity(buf, dist)) return buf;
    log(`cached tarball for ${version} failed integrity, re-downloading`);
  }
  const res = await fetchWithRetry(dist.tarball);
  const buf = Buffer.from(await res.arrayBuffer());
  const bad = checkIntegrity(buf, dist);
  if (bad) throw new Error(`${version}: ${bad}`);
  const part = `${file}.part`;
  await writeFile(part, buf);
  await rename(part, file);
  return buf;
}

// ---------- minimal tar reader (ustar + pax/GNU long names) ----------
function extractFile(tgz, wanted) {
  const tar = gunzipSync(tgz);
  let off = 0;
  let longName = null;
  const str = (b, s, l) => {
    const z = b.indexOf(0, s);
    return b.toString('utf8', s, z === -1 || z > s + l ? s + l : z);
  };
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    let name = str(h, 0, 100);
    const size = parseInt(str(h, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(h[156] || 48);
    const prefix = h.toString('utf8', 257, 263).startsWith('ustar') ? str(h, 345, 155) : '';
    if (prefix) name = `${prefix}/${name}`;
    const body = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      longName = m ? m[1] : null;
      continue;
    }
    if (type === 'L') {
      longName = str(body, 0, body.length);
      continue;
    }
    if (type === 'g') continue;
    if (longName) {
      name = longName;
      longName = null;
    }
    if ((type === '0' || type === '\0') && name.replace(/^\.\//, '') === wanted) return Buffer.from(body);
  }
  return null;
}

// ---------- load soljson in a child process ----------
const CHILD = `'use strict';
const soljson = require(process.argv[2]);
let v = null;
for (const fn of ['solidity_version', 'version']) {
  try {
    if (soljson['_' + fn] || (soljson.cwrap && fn === 'version')) {
      v = soljson.cwrap(fn, 'string', [])();
      if (v) break;
    }
  } catch (e) { v = null; }
}
process.stdout.write(JSON.stringify({ version: v }) + '\\n');
process.exit(0);
`;

function runChild(jsFile) {
  return new Promise((res, rej) => {
    execFile(
      process.execPath,
      ['--max-old-space-size=4096', join(scratch, 'read-version.cjs'), jsFile],
      { cwd: scratch, maxBuffer: 16 << 20, timeout: 300_000 },
      (err, stdout, stderr) => {
        const line = stdout
          .split('\n')
          .reverse()
          .find((l) => l.startsWith('{"version"'));
        if (line) return res(JSON.parse(line).version);
        rej(new Error(`child failed: ${err?.message ?? 'no output'} ${stderr.slice(-500)}`));
      },
    );
  });
}

const LONG_RE = /^(\d+\.\d+\.\d+)(?:-[0-9A-Za-z.-]+?)?\+commit\.([0-9a-f]{8})/;

async function processVersion(version, dist) {
  const tgz = await getTarball(version, dist);
  const js = extractFile(tgz, 'package/soljson.js');
  if (!js) throw new Error(`${version}: package/soljson.js not found in tarball`);
  const jsFile = join(jsDir, `soljson-${version}.js`);
  await writeFile(jsFile, js);
  try {
    const raw = await runChild(jsFile);
    if (!raw) throw new Error(`${version}: compiler reported no version`);
    const m = LONG_RE.exec(raw);
    if (!m) throw new Error(`${version}: unrecognised version string ${JSON.stringify(raw)}`);
    return { raw, release: m[1], long: `${m[1]}+commit.${m[2]}` };
  } finally {
    await rm(jsFile, { force: true }); // inside scratch dir only
  }
}

async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i).then(
          (value) => ({ ok: true, value }),
          (error) => ({ ok: false, error }),
        );
      }
    }),
  );
  return out;
}

// ---------- main ----------
async function main() {
  await mkdir(tarDir, { recursive: true });
  await mkdir(jsDir, { recursive: true });
  await writeFile(join(scratch, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  await writeFile(join(scratch, 'read-version.cjs'), CHILD);

  const packument = await (await fetchWithRetry(REGISTRY)).json();
  const versions = Object.keys(packument.versions)
    .filter((v) => {
      const p = parseVersion(v);
      return p && cmpNums(p.nums, MIN) >= 0 && isFixSuffix(p.pre);
    })
    .sort(cmpVersion);
  log(`${versions.length} npm versions to check`);

  let done = 0;
  const results = await pool(versions, CONCURRENCY, async (v) => {
    const r = await processVersion(v, packument.versions[v].dist);
    log(`${++done}/${versions.length} ${v} -> ${r.raw}`);
    return r;
  });

  const byRelease = new Map(); // release -> [{npm, long}]
  const mislabelled = {};
  const failures = {};
  versions.forEach((v, i) => {
    const r = results[i];
    if (!r.ok) {
      failures[v] = String(r.error?.message ?? r.error);
      log(`FAILED ${v}: ${failures[v]}`);
      return;
    }
    const { release, long } = r.value;
    if (parseVersion(v).base !== release) mislabelled[v] = long;
    if (!byRelease.has(release)) byRelease.set(release, []);
    byRelease.get(release).push({ npm: v, long });
  });

  const releases = {};
  const conflicts = {};
  for (const rel of [...byRelease.keys()].sort(cmpVersion)) {
    const cands = byRelease.get(rel);
    const rank = (c) => (c.npm === rel ? 0 : parseVersion(c.npm).base === rel ? 1 : 2);
    cands.sort((a, b) => rank(a) - rank(b) || cmpVersion(a.npm, b.npm));
    releases[rel] = { long: cands[0].long, npm: cands[0].npm };
    if (new Set(cands.map((c) => c.long)).size > 1) conflicts[rel] = cands;
  }

  const out = { generatedFrom: 'npm registry', releases, mislabelled };
  if (Object.keys(conflicts).length) out.conflicts = conflicts;
  if (Object.keys(failures).length) out.failures = failures;
  process.stdout.write(asTypeScript ? typeScriptTable(releases) : `${JSON.stringify(out, null, 2)}\n`);
  if (Object.keys(failures).length) process.exitCode = 1;
}

// Releases no npm package holds (0.4.12 was never published; `solc@0.8.1` holds 0.8.0),
// from solc-bin's list.txt files.
const SOLC_BIN_ONLY = { '0.4.12': '0.4.12+commit.194ff033', '0.8.1': '0.8.1+commit.df193b15' };

function typeScriptTable(releases) {
  const all = { ...releases };
  for (const [rel, long] of Object.entries(SOLC_BIN_ONLY)) all[rel] ??= { long, npm: null };
  const rows = Object.keys(all)
    .sort(cmpVersion)
    .map((rel) => `  ['${all[rel].long}', ${all[rel].npm === null ? 'null' : `'${all[rel].npm}'`}],`);
  return `/**
 * Every solc release from 0.4.11, with the commit its compiler reports and the npm \`solc\`
 * package that really holds it (\`solc@0.8.7\` holds 0.7.5; \`0.8.7-fixed\` holds 0.8.7; null:
 * not on npm). Generated by \`node scripts/solc-releases.mjs --ts\`, which loads every npm
 * release and asks the compiler its version. Newer releases are learned at run time.
 */
export const SOLC_RELEASES: ReadonlyArray<readonly [longVersion: string, npmPackage: string | null]> = [
${rows.join('\n')}
];
`;
}

main().catch((e) => {
  log(e?.stack ?? e);
  process.exit(1);
});
