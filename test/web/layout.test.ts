/**
 * The explorer as people see it, in Chromium at a phone's width (390 px) and a desktop's
 * (1280 px): one line of code per rendered line; no page wider than the screen, the source
 * column readable on a phone; headings that break between words; addresses on one line (cut
 * with an ellipsis, the full value kept); the header's search placeholder whole; the list's
 * filters aligned; a 404 page for browsers (JSON for the API's paths) and a favicon; the CSV's
 * 429 answered as text with the real wait.
 *
 * With SOLPROOF_SCREENSHOTS=<dir>, every page is also saved there at both widths.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, deployRaw } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { type RunningService, startService } from '../helpers/service.js';
import { chromiumAvailable, launchChromium, openZeppelinSources } from './fixtures.js';

const ACCOUNT = deployerAccount('web/layout');
const { apiUrl, baseUrl, apiKey } = sharedService();
const SHOTS = process.env['SOLPROOF_SCREENSHOTS'];
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PROXY_PATH = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';

/** A library file of 12 lines (the last ends with a newline). */
const part = (i: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// Part ${i} of the phone shelf: a constant, and a function that reads it.
library PhonePart${i} {
    uint256 internal constant VALUE = ${i + 700};

    function value() internal pure returns (uint256) {
        // A comment long enough to need the source column to scroll sideways on a phone screen.
        return VALUE;
    }
}
`;
const PARTS = 8;
const SHELF = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

${Array.from({ length: PARTS }, (_, i) => `import {PhonePart${i}} from "./parts/PhonePart${i}.sol";`).join('\n')}

/// Nine files: its own and eight libraries.
contract PhoneShelfWithAVeryLongContractName {
    uint256 public total;
    string public label = "phone shelf";
    address public owner;

    constructor() {
        owner = msg.sender;
        total = ${Array.from({ length: PARTS }, (_, i) => `PhonePart${i}.value()`).join(' + ')};
    }

    function set(uint256 v) external {
        total = v;
    }
}
`;

/** What breaks a layout rule on the page, measured by the browser; empty when none. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width) problems.push(`page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`);
    // Headings: no word split across two lines.
    for (const heading of Array.from(document.querySelectorAll('h1, h2, h3'))) {
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Text cut by an ellipsis on purpose (an address, a name longer than the screen) is one box however long.
        if ((node.parentElement as HTMLElement).closest('.addr, .ident')) continue;
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
          if (tops.size > 1) problems.push(`heading word "${m[0]}" breaks across lines`);
        }
      }
    }
    // Addresses: one line, whole or cut with an ellipsis, wherever they sit.
    for (const a of Array.from(document.querySelectorAll<HTMLElement>('.addr'))) {
      const style = getComputedStyle(a);
      const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
      const rects = Array.from(a.getClientRects());
      const height = rects.length ? Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top)) : 0;
      if (rects.length > 1 || height > line + 1) problems.push(`address ${a.textContent?.slice(0, 12)}… takes ${Math.round(height / line)} lines`);
      if (a.getBoundingClientRect().right > width + 0.5) problems.push(`address ${a.textContent?.slice(0, 12)}… runs past the screen`);
    }
    // Running text (notices, receipts' outcomes, facts) wraps within its box, addresses included.
    for (const box of Array.from(document.querySelectorAll<HTMLElement>('.notice, table.receipts td, dl.facts dd'))) {
      if (box.scrollWidth > box.clientWidth + 1) problems.push(`text runs out of its box: ${box.textContent?.trim().slice(0, 40)}`);
    }
    return problems;
  });
}

async function shot(page: Page, name: string, width: number): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

describe.skipIf(!chromiumAvailable)('the explorer at 390 px and 1280 px in Chromium', () => {
  let browser: Browser;
  let phone: BrowserContext;
  let desktop: BrowserContext;
  let shelf: Built;
  let shelfAddress: Address;
  let proxyAddress: Address;
  let failedReceipt: string;

  beforeAll(async () => {
    const sources: Record<string, string> = { 'src/PhoneShelf.sol': SHELF };
    for (let i = 0; i < PARTS; i++) sources[`src/parts/PhonePart${i}.sol`] = part(i);
    shelf = await build('0.8.28', standardInput(sources, { optimizer: true, runs: 200 }), 'src/PhoneShelf.sol', 'PhoneShelfWithAVeryLongContractName');
    shelfAddress = (await deployContract(shelf.abi, shelf.bytecode, [], ACCOUNT)).address;
    // Compiled with settings of its own: another file's receipt of the same proxy is not answered from this compilation.
    const proxyBuilt = await build('0.8.28', standardInput(openZeppelinSources(PROXY_PATH), { optimizer: true, runs: 7 }), PROXY_PATH, 'ERC1967Proxy');
    const init = encodeFunctionData({ abi: shelf.abi, functionName: 'set', args: [42n] });
    proxyAddress = (await deployContract(proxyBuilt.abi, proxyBuilt.bytecode, [shelfAddress, init], ACCOUNT)).address;

    // A failure first (optimizer off): its receipt carries a diagnosis.
    const [failed, passed, proxied] = await Promise.all([
      verifyAndWait(
        apiUrl,
        apiKey,
        standardJsonFields(
          shelfAddress,
          { ...shelf, input: standardInput(sources, { optimizer: false }) },
          'src/PhoneShelf.sol:PhoneShelfWithAVeryLongContractName',
        ),
      ),
      verifyAndWait(apiUrl, apiKey, standardJsonFields(proxyAddress, proxyBuilt, `${PROXY_PATH}:ERC1967Proxy`)),
      Promise.resolve(null),
    ]);
    void proxied;
    expect(failed.status?.status).toBe('0');
    failedReceipt = failed.submit.result as string;
    expect(passed.status?.result).toBe('Pass - Verified');
    const shelfPass = await verifyAndWait(apiUrl, apiKey, standardJsonFields(shelfAddress, shelf, 'src/PhoneShelf.sol:PhoneShelfWithAVeryLongContractName'));
    expect(shelfPass.status?.result).toBe('Pass - Verified');
    const proxy = await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', apikey: apiKey, address: proxyAddress });
    expect(proxy.status).toBe('1');
    for (let i = 0; i < 600; i++) {
      const status = await apiGet(apiUrl, { module: 'contract', action: 'checkproxyverification', guid: proxy.result, apikey: apiKey });
      if (status.result !== 'Pending in queue') break;
      await new Promise((r) => setTimeout(r, 100));
    }

    browser = await launchChromium();
    phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    desktop = await browser.newContext({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await phone?.close();
    await desktop?.close();
    await browser?.close();
  });

  const pages = () => [
    { name: 'home', path: '/' },
    { name: 'list', path: '/contracts' },
    { name: 'contract', path: `/address/${shelfAddress}` },
    { name: 'proxy-read', path: `/address/${proxyAddress}#read-proxy` },
    { name: 'proxy-write', path: `/address/${proxyAddress}#write-proxy` },
    { name: 'verify', path: '/verify' },
    { name: 'receipt', path: `/receipt/${failedReceipt}` },
    { name: 'compilers', path: '/compilers' },
    { name: 'not-found', path: '/no/such/page' },
  ];

  it('at 390 px no page is wider than the screen, headings break between words and addresses stay on a line', async () => {
    const page = await phone.newPage();
    for (const { name, path } of pages()) {
      await page.goto(`${baseUrl}${path}`);
      await page.waitForLoadState('networkidle');
      expect(await layoutProblems(page), name).toEqual([]);
      await shot(page, name, PHONE.width);
    }
    await page.close();
  });

  it('at 1280 px the same rules hold', async () => {
    const page = await desktop.newPage();
    for (const { name, path } of pages()) {
      await page.goto(`${baseUrl}${path}`);
      await page.waitForLoadState('networkidle');
      expect(await layoutProblems(page), name).toEqual([]);
      await shot(page, name, DESKTOP.width);
    }
    await page.close();
  });

  it('at 390 px the source column takes the screen and scrolls sideways inside itself', async () => {
    const page = await phone.newPage();
    await page.goto(`${baseUrl}/address/${shelfAddress}`);
    const box = await page.locator('#f1 pre.source').boundingBox();
    expect(box).not.toBeNull();
    // The code has the width of the screen less the page's margins (not a 58 px column).
    expect(box!.width).toBeGreaterThanOrEqual(PHONE.width - 60);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    // A long line scrolls within the code, not the page.
    const scroll = await page.locator('#f1 pre.source').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll.scroll).toBeGreaterThan(scroll.client);
    // The address under the heading is whole in the page's text and copyable.
    expect(await page.locator('#contract-address').textContent()).toBe(shelfAddress);
    await page.close();
  });

  for (const [label, viewport] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`one line of code per rendered line at ${label} px`, async () => {
      const page = await (viewport === PHONE ? phone : desktop).newPage();
      await page.goto(`${baseUrl}/address/${shelfAddress}?file=2#f2`);
      const measured = await page.evaluate(() => {
        const file = document.querySelector<HTMLElement>('.file:not(#f1) pre.source code')!;
        const lines = Array.from(file.querySelectorAll<HTMLElement>('.line'));
        const lineHeight = Number.parseFloat(getComputedStyle(lines[0]!).lineHeight);
        return { count: lines.length, lineHeight, heights: lines.map((l) => l.getBoundingClientRect().height), code: file.getBoundingClientRect().height };
      });
      // A 12-line file: 12 lines, each one line high, 12 line heights in all.
      expect(measured.count).toBe(12);
      for (const h of measured.heights) expect(Math.abs(h - measured.lineHeight)).toBeLessThan(1);
      expect(Math.abs(measured.code - 12 * measured.lineHeight)).toBeLessThan(2);
      await page.close();
    });
  }

  it("the header's search placeholder is shown whole, at 390 and 1280 px", async () => {
    for (const context of [phone, desktop]) {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/contracts`);
      const fit = await page.locator('header form.search input').evaluate((input) => {
        const el = input as HTMLInputElement;
        const style = getComputedStyle(el);
        const canvas = document.createElement('canvas').getContext('2d')!;
        canvas.font = `${style.fontSize} ${style.fontFamily}`;
        const inner = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return { text: canvas.measureText(el.placeholder).width, inner };
      });
      expect(fit.text).toBeLessThanOrEqual(fit.inner);
      await page.close();
    }
  });

  it('tabs follow the address bar: a changed hash, back and forward show their tab', async () => {
    const page = await desktop.newPage();
    await page.goto(`${baseUrl}/address/${shelfAddress}#code`);
    expect(await page.locator('#code').isVisible()).toBe(true);
    await page.evaluate(() => {
      location.hash = '#read';
    });
    await expect.poll(() => page.locator('#read').isVisible()).toBe(true);
    await page.evaluate(() => {
      location.hash = '#write';
    });
    await expect.poll(() => page.locator('#write').isVisible()).toBe(true);
    expect(await page.locator('#read').isVisible()).toBe(false);
    await page.goBack();
    await expect.poll(() => page.locator('#read').isVisible()).toBe(true);
    await page.goForward();
    await expect.poll(() => page.locator('#write').isVisible()).toBe(true);
    await page.close();
  });

  it('the Read tab shows the values of functions without arguments at once; Read as Proxy too', async () => {
    const page = await desktop.newPage();
    await page.goto(`${baseUrl}/address/${shelfAddress}#read`);
    // No click: answered as the tab opens.
    await expect.poll(() => page.locator('#read form[data-signature="label()"] output').textContent(), { timeout: 20_000 }).toMatch(/string\s+phone shelf$/);
    await expect.poll(() => page.locator('#read form[data-signature="total()"] output').textContent(), { timeout: 20_000 }).toMatch(/uint256\s+\d+$/);
    await page.goto(`${baseUrl}/address/${proxyAddress}#read-proxy`);
    // The proxy's own storage (its init call set 42).
    await expect.poll(() => page.locator('#read-proxy form[data-signature="total()"] output').textContent(), { timeout: 20_000 }).toMatch(/uint256\s+42$/);
    await page.close();
  });

  it('a nine-file contract opens its own file only; the others open from the tree or their line', async () => {
    const page = await desktop.newPage();
    await page.goto(`${baseUrl}/address/${shelfAddress}`);
    expect(await page.locator('#code .file').count()).toBe(9);
    expect(await page.locator('#code details.file[open]').count()).toBe(1);
    expect(await page.locator('#f1').getAttribute('open')).not.toBeNull();
    // Not a page of every file: a few screens at most.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3500);
    await page.locator('nav.file-tree a', { hasText: 'PhonePart3.sol' }).click();
    await expect.poll(() => page.locator('#f5').getAttribute('open')).not.toBeNull();
    expect(await page.locator('#f5-L6').isVisible()).toBe(true);
    await page.close();
  });

  it('the verified list marks the proxy', async () => {
    const page = await desktop.newPage();
    await page.goto(`${baseUrl}/contracts`);
    const row = page.locator('table.contracts tr', { has: page.locator(`a[href="/address/${proxyAddress}"]`) });
    expect(await row.locator('.badge', { hasText: 'proxy' }).count()).toBe(1);
    const plain = page.locator('table.contracts tr', { has: page.locator(`a[href="/address/${shelfAddress}"]`) });
    expect(await plain.locator('.badge', { hasText: 'proxy' }).count()).toBe(0);
    await page.close();
  });

  it("an unverified address's snippets name this chain: Hardhat's network and custom chain, Foundry's [etherscan] entry and command", async () => {
    const rpcUrl = inject('rpcUrl');
    // Code no one verified (an address without code shows no snippets): PUSH32 <random>, STOP.
    const runtime = `7f${randomBytes(32).toString('hex')}00`;
    const unverified = (await deployRaw(`0x6022600c60003960226000f3${runtime}`, ACCOUNT)).address.toLowerCase();
    const page = await desktop.newPage();
    await page.goto(`${baseUrl}/address/${unverified}`);
    const hardhat = (await page.locator('#hint-hardhat').textContent()) ?? '';
    expect(hardhat).toContain(`solproof: { url: '${rpcUrl}', chainId: 31337 }`);
    expect(hardhat).toContain(`urls: { apiURL: '${baseUrl}/api', browserURL: '${baseUrl}' }`);
    expect(hardhat).toContain(`npx hardhat verify --network solproof ${unverified}`);
    expect(await page.locator('#hint-foundry-toml').textContent()).toBe(
      `# foundry.toml\n[etherscan]\nsolproof = { key = "\${SOLPROOF_API_KEY}", chain = 31337, url = "${baseUrl}/api" }`,
    );
    expect(await page.locator('#hint-forge').textContent()).toContain(
      `forge verify-contract ${unverified} src/MyContract.sol:MyContract \\\n  --chain 31337 --rpc-url ${rpcUrl}`,
    );
    await page.close();
  });

  it("the list's filter fields line up: labels on one top line, fields on one bottom line", async () => {
    const page = await desktop.newPage();
    await page.goto(`${baseUrl}/contracts`);
    const boxes = await page.locator('form.list-filter').evaluate((form) => ({
      labels: Array.from(form.querySelectorAll('label')).map((l) => Math.round(l.getBoundingClientRect().top)),
      fields: Array.from(form.querySelectorAll('input, select, button')).map((f) => Math.round(f.getBoundingClientRect().bottom)),
    }));
    expect(new Set(boxes.labels).size).toBe(1);
    expect(new Set(boxes.fields).size).toBe(1);
    await page.close();
  });
});

describe('pages for unknown paths, the favicon, and the CSV export refused as text', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl') });
  });
  afterAll(async () => service?.stop());

  it('an unknown page is an HTML page for browsers and JSON under /api; /favicon.ico is an icon every page links', async () => {
    const page = await fetch(`${service.baseUrl}/no/such/page`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const text = await page.text();
    expect(text).toContain('<h1>Page not found</h1>');
    expect(text).toContain('/no/such/page');
    expect(text).toContain('<link rel="icon" href="/favicon.ico"');

    const api = await fetch(`${service.baseUrl}/api/nope`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await api.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });

    const icon = await fetch(`${service.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    // An ICO directory with one 16x16 image.
    expect([...bytes.subarray(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 16, 16]);
    expect(bytes.length).toBe(bytes.readUInt32LE(18) + bytes.readUInt32LE(14));
    const home = await (await fetch(`${service.baseUrl}/`)).text();
    expect(home).toContain('<link rel="icon" href="/favicon.ico"');
  });

  it("the CSV's 429 is text whose Retry-After is the real wait: a retry after it is served", async () => {
    const first = await fetch(`${service.baseUrl}/verified-contracts.csv`);
    expect(first.status).toBe(200);
    await first.text();
    const refused = await fetch(`${service.baseUrl}/verified-contracts.csv`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    const wait = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(wait) && wait >= 1 && wait <= 10).toBe(true);
    const body = await refused.text();
    expect(body).not.toContain('<');
    expect(body).toContain(`try again in ${wait} second`);
    await new Promise((r) => setTimeout(r, wait * 1000));
    const retried = await fetch(`${service.baseUrl}/verified-contracts.csv`);
    expect(retried.status).toBe(200);
    expect((await retried.text()).split('\n')[0]).toContain('ContractAddress');
  });
});
