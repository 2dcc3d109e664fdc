import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPost, sharedService } from '../helpers/api.js';
import { CLI, cleanEnv, newDataDir, type RunningService, startService } from '../helpers/service.js';
import { chromiumAvailable, launchChromium } from './fixtures.js';

const run = promisify(execFile);

/** A submission that only a valid key gets past: the address has no code, which is checked after the key. */
const submitWith = (apiUrl: string, apikey: string) =>
  apiPost(apiUrl, {
    module: 'contract',
    action: 'verifysourcecode',
    apikey,
    contractaddress: '0x000000000000000000000000000000000000dEaD',
    sourceCode: 'contract A {}',
    contractname: 'A',
    compilerversion: 'v0.8.28+commit.7893614a',
  });

const keyOn = (page: string): string | undefined => /data-api-key>([A-Z0-9]{34})</.exec(page)?.[1];

describe('self-service API keys (--self-service-keys 2)', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir: await newDataDir(false), args: ['--self-service-keys', '2', '--code-wait-ms', '0'] });
  });
  afterAll(async () => service?.stop());

  it('a visitor creates a free key, shown once, that the API takes; two per address per day; stored hashed', async () => {
    const page = await (await fetch(`${service.baseUrl}/keys`)).text();
    expect(page).toContain('<form method="post" action="/keys"><button type="submit">Create a free API key</button></form>');
    expect(page).toContain('Each address may create 2 keys a day.');

    const first = await fetch(`${service.baseUrl}/keys`, { method: 'POST' });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const firstPage = await first.text();
    const key = keyOn(firstPage);
    expect(key, firstPage).toBeDefined();
    expect(firstPage).toContain('This address may create 1 more key today.');
    // The key works; a made-up one does not.
    expect((await submitWith(service.apiUrl, key!)).result).toMatch(/^Unable to locate ContractCode at 0x000000000000000000000000000000000000dead/);
    expect((await submitWith(service.apiUrl, 'A'.repeat(34))).result).toBe('Invalid API Key');
    // Shown once: the page does not show it again.
    expect(await (await fetch(`${service.baseUrl}/keys`)).text()).not.toContain(key!);

    const second = keyOn(await (await fetch(`${service.baseUrl}/keys`, { method: 'POST' })).text());
    expect(second).toBeDefined();
    expect(second).not.toBe(key);
    const third = await fetch(`${service.baseUrl}/keys`, { method: 'POST' });
    expect(third.status).toBe(429);
    const refused = await third.text();
    expect(refused).toMatch(/This address has created its 2 free keys for today; it may create more after \d{4}-\d\d-\d\dT00:00:00Z\./);
    expect(keyOn(refused)).toBeUndefined();

    // The operator sees who made them; the store keeps only their hashes.
    const { stdout } = await run(process.execPath, [CLI, 'keys', 'list', '--data-dir', service.dataDir], { env: cleanEnv() });
    expect(stdout.split('\n').filter((line) => line.includes('\tself-service 127.0.0.1\tfree\t'))).toHaveLength(2);
    const storeFiles = readdirSync(service.dataDir).filter((f) => f.startsWith('solproof.sqlite'));
    expect(storeFiles).toContain('solproof.sqlite');
    for (const file of storeFiles) {
      const bytes = readFileSync(join(service.dataDir, file)).toString('latin1');
      expect(bytes.includes(key!), file).toBe(false);
      expect(bytes.includes(second!), file).toBe(false);
    }
  });
});

/** The self-service keys `keys list` shows for this service. */
const selfServiceKeys = async (dataDir: string): Promise<string[]> =>
  (await run(process.execPath, [CLI, 'keys', 'list', '--data-dir', dataDir], { env: cleanEnv() })).stdout
    .split('\n')
    .filter((line) => line.includes('\tself-service '));

describe.skipIf(!chromiumAvailable)('self-service keys are created from their own page only (Chromium)', () => {
  let service: RunningService;
  let browser: Browser;
  let otherSite: Server;
  let otherSiteUrl: string;

  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl'), dataDir: await newDataDir(false), args: ['--self-service-keys', '1', '--code-wait-ms', '0'] });
    // A page of another site that posts the key form to this service as soon as it opens.
    otherSite = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<form id="f" method="post" action="${service.baseUrl}/keys"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
    // Another site by name: Chromium maps it to this machine.
    otherSiteUrl = `http://other-site.test:${(otherSite.address() as AddressInfo).port}/`;
    browser = await launchChromium(['--host-resolver-rules=MAP other-site.test 127.0.0.1']);
  });
  afterAll(async () => {
    await browser?.close();
    otherSite?.close();
    await service?.stop();
  });

  it("a form on another site creates no key and spends none of the day's; the page's own button then creates one", async () => {
    const page = await browser.newPage();
    const refused = page.waitForResponse((r) => r.url() === `${service.baseUrl}/keys` && r.request().method() === 'POST');
    await page.goto(otherSiteUrl);
    expect((await refused).status()).toBe(403);
    await page.waitForURL(`${service.baseUrl}/keys`);
    expect(await page.locator('.notice.warn').textContent()).toBe(
      'No key was created: the request came from a page of another site. Keys are created from this page only; use its button if you meant to create one.',
    );
    expect(await page.locator('[data-api-key]').count()).toBe(0);
    expect(await selfServiceKeys(service.dataDir)).toEqual([]);

    // The refused page is this site's own: its button creates the one key of the day.
    await page.getByRole('button', { name: 'Create a free API key' }).click();
    const key = await page.locator('[data-api-key]').textContent();
    expect(key).toMatch(/^[A-Z0-9]{34}$/);
    expect(await page.locator('.card').textContent()).toContain('This address may create 0 more keys today.');
    expect(await selfServiceKeys(service.dataDir)).toHaveLength(1);
    await page.close();
  });
});

describe('API keys when self-service is off (the default)', () => {
  const { baseUrl } = sharedService();

  it('the page says the operator issues keys and creates none; the pages that need a key point to it', async () => {
    const page = await (await fetch(`${baseUrl}/keys`)).text();
    expect(page).toContain('API keys for this service are issued by its operator: ask whoever runs it for one.');
    expect(page).toContain('npm run solproof -- keys create --owner NAME');
    expect(page).not.toContain('action="/keys"');
    const post = await fetch(`${baseUrl}/keys`, { method: 'POST' });
    expect(post.status).toBe(403);
    expect(keyOn(await post.text())).toBeUndefined();
    const docs = await (await fetch(`${baseUrl}/docs/api`)).text();
    expect(docs).toContain('Submissions need an API key (<a href="/keys">how to get one</a>)');
    expect(docs).not.toContain('solproof keys create');
  });
});
