#!/usr/bin/env node
/**
 * Installs the Vyper compilers the tests compile with: one Python virtual environment per
 * release in `.vyper/<version>` (git-ignored), `pip install vyper==<version>` from PyPI, the
 * releases listed in scripts/vyper-versions.json. A release already installed is left alone
 * without starting Python, so a second run takes milliseconds; `npm test` runs this first.
 *
 * Vyper 0.3.0 to 0.3.7 declare Python < 3.10 or < 3.11 but install and compile on 3.11, so
 * pip is told to ignore that declaration. Without Python (or PyPI) the Vyper tests are skipped
 * with a warning, unless SOLPROOF_REQUIRE names `vyper` (as .ci/run does): then this fails.
 *
 * Options: `--dir <path>` (default .vyper), `--python <exe>` (default $SOLPROOF_PYTHON or
 * python3), `--jobs <n>` (installs at once, default 4), and release names to install only those.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { versions: listed } = JSON.parse(readFileSync(join(root, 'scripts', 'vyper-versions.json'), 'utf8'));

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const dir = resolve(root, option('--dir', '.vyper'));
const python = option('--python', process.env.SOLPROOF_PYTHON || 'python3');
const jobs = Math.max(1, Number(option('--jobs', '4')) || 4);
const wanted = args.length > 0 ? args : listed;
const required = (process.env.SOLPROOF_REQUIRE ?? '')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .includes('vyper');

const say = (line) => process.stderr.write(`install-vyper: ${line}\n`);
const MARKER = '.installed';

/** Gives up: an error when the Vyper tests are required, a warning that they will be skipped otherwise. */
function giveUp(why) {
  if (required) {
    say(`${why} (SOLPROOF_REQUIRE names vyper)`);
    process.exit(1);
  }
  say(`${why}; the Vyper tests will be skipped`);
  process.exit(0);
}

const missing = wanted.filter((v) => !existsSync(join(dir, v, MARKER)));
if (missing.length === 0) process.exit(0);

for (const v of missing) {
  // A release name is a directory name below: nothing but the characters PyPI versions use.
  if (!/^\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?$/.test(v)) giveUp(`"${v}" is not a Vyper release`);
}

const probe = spawnSync(python, ['-c', 'import sys, venv; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
if (probe.status !== 0) giveUp(`${python} with its venv module is not available`);
// pip >= 22.3 can install into an environment made without pip of its own (--python), which
// saves running ensurepip in each one.
const pipProbe = spawnSync(python, ['-m', 'pip', '--version'], { encoding: 'utf8' });
const pipVersion = /^pip (\d+)\.(\d+)/.exec(pipProbe.stdout ?? '');
const outerPip = pipVersion !== null && (Number(pipVersion[1]) > 22 || (Number(pipVersion[1]) === 22 && Number(pipVersion[2]) >= 3));

mkdirSync(dir, { recursive: true });
const lock = join(dir, '.lock');
await takeLock();
// Another run may have installed some while this one waited for the lock.
const todo = missing.filter((v) => !existsSync(join(dir, v, MARKER)));

const started = Date.now();
say(`installing Vyper ${todo.join(', ')} into ${dir} with Python ${probe.stdout.trim()}...`);
const failures = [];
const queue = [...todo];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let v = queue.shift(); v !== undefined; v = queue.shift()) {
      const t0 = Date.now();
      const problem = await install(v);
      if (problem) failures.push(`${v}: ${problem}`);
      else say(`vyper ${v} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  }),
);
rmSync(lock, { recursive: true, force: true });
if (failures.length > 0) giveUp(`could not install ${failures.join('; ')}`);
say(`${todo.length} compilers installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

/** Installs one release; the reason it failed, or null. */
async function install(v) {
  const env = join(dir, v);
  // A directory without its marker is a half-made environment: start again.
  rmSync(env, { recursive: true, force: true });
  const venv = await run(python, ['-m', 'venv', ...(outerPip ? ['--without-pip'] : []), env]);
  if (venv.code !== 0) return `python -m venv failed: ${venv.output}`;
  const pipArgs = ['install', '--disable-pip-version-check', '--no-input', '--quiet', '--ignore-requires-python', `vyper==${v}`];
  const pip = outerPip
    ? await run(python, ['-m', 'pip', '--python', join(env, 'bin', 'python'), ...pipArgs])
    : await run(join(env, 'bin', 'python'), ['-m', 'pip', ...pipArgs]);
  if (pip.code !== 0) {
    rmSync(env, { recursive: true, force: true });
    return `pip install vyper==${v} failed: ${pip.output}`;
  }
  const reported = await run(join(env, 'bin', 'vyper'), ['--version']);
  const line = reported.output.trim().split('\n').pop() ?? '';
  if (reported.code !== 0 || !line.startsWith(v)) {
    rmSync(env, { recursive: true, force: true });
    return `the installed vyper reports "${line.slice(0, 200)}"`;
  }
  writeFileSync(join(env, MARKER), `${JSON.stringify({ version: v, reported: line })}\n`);
  return null;
}

/** Runs a command; its exit code and what it printed (the last 2000 characters). */
function run(command, argv) {
  return new Promise((done) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString('utf8')).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => done({ code: -1, output: e.message }));
    child.on('close', (code) => done({ code: code ?? -1, output: output.trim() }));
  });
}

/** One install at a time (the suite's setup and a developer's run may overlap); a lock older than 10 minutes is stale. */
async function takeLock() {
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > 10 * 60_000) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
