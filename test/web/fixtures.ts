import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { available } from '../helpers/requirements.js';

const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = resolve(here, '../../node_modules');

/** Debian's Chromium (scripts/ensure-chromium.sh installs it). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const chromiumAvailable = available(
  'chromium',
  existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is missing (run scripts/ensure-chromium.sh as root to install it)`,
);

/** Headless Chromium with no network of its own (this machine reaches only 127.0.0.1); `args` are added to its own. */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

const IMPORT_RE = /^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;

/**
 * An OpenZeppelin source file and everything it imports, read from the installed
 * @openzeppelin/contracts package, keyed by import path (a standard JSON `sources` map).
 */
export function openZeppelinSources(entry: string): Record<string, string> {
  const sources: Record<string, string> = {};
  const pending = [entry];
  while (pending.length) {
    const path = pending.pop()!;
    if (path in sources) continue;
    const text = readFileSync(join(nodeModules, path), 'utf8');
    sources[path] = text;
    for (const match of text.matchAll(IMPORT_RE)) {
      const target = match[1]!;
      pending.push(target.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), target)) : target);
    }
  }
  return sources;
}
