#!/usr/bin/env node
/**
 * `npm start`: builds dist/ when a source is newer than the last build (saying so), then runs
 * `solproof start` in this very process, so the PID npm reports is the service's: a signal to
 * it (npm forwards SIGINT and SIGTERM; the script is run with `exec`, leaving no shell between)
 * stops the service, which stops its devnet. Should npm itself be killed (SIGKILL), the service
 * notices its parent is gone and stops too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist', 'cli', 'main.js');
const say = (line) => process.stdout.write(`solproof: ${line}\n`);

/** The newest modification time of the sources the build reads. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** tsc writes every output on each build: dist/cli/main.js is as old as the last build. */
function buildIsCurrent() {
  if (!existsSync(main)) return false;
  const built = statSync(main).mtimeMs;
  return newestSource(join(root, 'src')) <= built && statSync(join(root, 'tsconfig.json')).mtimeMs <= built;
}

// The parent when started: npm (or whatever ran this). A new parent means that one is gone.
const parent = process.ppid;

if (buildIsCurrent()) {
  say('dist/ is up to date with src/: no build needed');
} else {
  say('building: compiling src/ to dist/ with tsc (about a minute the first time)...');
  const started = Date.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) {
    say(`the build failed (tsc exited with ${result.status ?? result.signal})`);
    process.exit(1);
  }
  say(`built in ${Math.round((Date.now() - started) / 1000)} s`);
}

const watch = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(watch);
    say('the process that started this one is gone: stopping');
    process.kill(process.pid, 'SIGTERM');
  }
}, 500);
watch.unref();

say('starting the service...');
process.argv = [process.argv[0], main, 'start', ...process.argv.slice(2)];
await import(pathToFileURL(main).href);
