import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { packageSources } from '../helpers/contracts.js';
import { available } from '../helpers/requirements.js';

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

/**
 * An OpenZeppelin source file and everything it imports, read from the installed
 * @openzeppelin/contracts package, keyed by import path (a standard JSON `sources` map).
 */
export const openZeppelinSources = packageSources;
