/**
 * Verify & Publish as people use it, in Chromium: the licence follows the source's SPDX line
 * unless chosen (and the receipt says when a choice was overruled); a pasted source (sent with
 * CRLF line endings by the browser) of a contract built from LF files is a full match; the
 * form keeps an uploaded build-info and the files chosen after a refusal; a build-info holding
 * several contracts is matched to the address; a failed receipt's fix resubmits through a
 * pre-filled form; and the address page lists its recent receipts with their diagnoses.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { chromiumAvailable, launchChromium } from './fixtures.js';

const ACCOUNT = deployerAccount('web/formWork');
const { apiUrl, baseUrl, apiKey } = sharedService();

const gpl = (name: string, edition: number) => `// SPDX-License-Identifier: GPL-3.0-only
pragma solidity ^0.8.0;

contract ${name} {
    uint256 public constant EDITION = ${edition}0426;
    uint256 public value;

    function set(uint256 v) external {
        value = v;
    }
}
`;

let lastSubmit = 0;
/** Sends the form no faster than the service's form rate (2 a second per client). */
async function submitForm(page: Page): Promise<void> {
  const wait = lastSubmit + 600 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastSubmit = Date.now();
  await page.click('#verify-submit');
}

async function verdictOf(page: Page): Promise<string> {
  await page.waitForURL(/\/receipt\/[0-9a-z]{50}$/, { timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('[data-receipt-events]'), undefined, { timeout: 180_000, polling: 250 });
  return (await page.locator('h1 .badge').textContent()) ?? '';
}

/** The CSV export, waiting out its per-client interval (Retry-After) when other files took it just now. */
async function csv(): Promise<string> {
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${baseUrl}/verified-contracts.csv`);
    if (res.status === 200) return res.text();
    expect(res.status).toBe(429);
    await res.text();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
  }
  throw new Error('the CSV export stayed refused');
}

describe.skipIf(!chromiumAvailable)('Verify & Publish keeps what people give it', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a GPL-3.0-only source pasted into the form is published as GPL-3.0 (a full match despite CRLF), in the API, the page and the CSV', async () => {
    const built = await build('0.8.28', standardInput({ 'GplBox.sol': gpl('GplBox', 1) }), 'GplBox.sol', 'GplBox');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${address}`);
    // Nothing pre-selected but the source's own line.
    expect(await page.inputValue('#license')).toBe('');
    await page.fill('#source', gpl('GplBox', 1));
    await page.locator('#source').blur();
    await expect.poll(() => page.locator('#license-note').textContent()).toContain('GNU GPLv3');
    await page.fill('#compiler', built.compilerVersion);
    await page.fill('#apikey', apiKey);
    // The browser sends the textarea with CRLF line endings.
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/verify'));
    await submitForm(page);
    expect((await sent).postDataBuffer()?.toString('utf8')).toContain('pragma solidity ^0.8.0;\r\n');
    expect(await verdictOf(page)).toBe('Verified');

    const source = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(source.result[0].LicenseType).toBe('GNU GPLv3');
    // Published as proven: the deployed metadata names the LF file.
    expect(source.result[0].SourceCode).toBe(gpl('GplBox', 1));
    await page.goto(`${baseUrl}/address/${address}`);
    const facts = (await page.locator('dl.facts').textContent()) ?? '';
    expect(facts).toContain('GNU GPLv3');
    expect(facts).toContain('Full match');
    expect(await csv()).toMatch(new RegExp(`"${address}","GplBox","[^"]+","GNU GPLv3","full"`));
    await context.close();
  });

  it('a licence chosen against the SPDX line is overruled, and the form and the receipt say so', async () => {
    const built = await build('0.8.28', standardInput({ 'GplChosen.sol': gpl('GplChosen', 2) }), 'GplChosen.sol', 'GplChosen');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${address}`);
    await page.fill('#source', gpl('GplChosen', 2));
    await page.locator('#source').blur();
    await page.selectOption('#license', '3');
    await expect.poll(() => page.locator('#license-note').textContent()).toContain('not MIT: the contract is published as GNU GPLv3');
    await page.fill('#compiler', built.compilerVersion);
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    expect(await page.locator('#license-differs').textContent()).toContain('MIT was chosen, but the source');
    await page.goto(`${baseUrl}/address/${address}`);
    expect(await page.locator('dl.facts').textContent()).toContain('GNU GPLv3');
    await context.close();
  });

  it('a single file sent over the API with CRLF line endings, built from LF, is a full match', async () => {
    const text = gpl('CrlfBox', 3);
    const built = await build('0.8.28', standardInput({ 'CrlfBox.sol': text }), 'CrlfBox.sol', 'CrlfBox');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const { submit, status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'CrlfBox', text.replace(/\n/g, '\r\n')));
    expect(status?.result).toBe('Pass - Verified');
    const receipt = (await (await fetch(`${baseUrl}/receipt/${submit.result}.json`)).json()) as { result: { matchKind: string } };
    expect(receipt.result.matchKind).toBe('full');
    const source = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(source.result[0].SourceCode).toBe(text);
  });

  it('after a refusal the uploaded build-info and the chosen files are still there; a build-info of several contracts picks the deployed one', async () => {
    const sources = {
      'contracts/Alpha.sol': gpl('Alpha', 4),
      'contracts/Beta.sol': gpl('Beta', 5),
    };
    const built: Built = await build('0.8.28', standardInput(sources), 'contracts/Beta.sol', 'Beta');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const buildInfo = JSON.stringify({
      id: 'two-contracts',
      _format: 'hh-sol-build-info-1',
      solcVersion: built.compilerVersion.slice(1).split('+')[0],
      solcLongVersion: built.compilerVersion.slice(1),
      input: built.input,
      output: built.output,
    });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${address}`);
    await page.check('input[name=format][value=json]');
    await page.setInputFiles('#jsonfile', { name: 'build-info.json', mimeType: 'application/json', buffer: Buffer.from(buildInfo) });
    await page.fill('#apikey', 'NOTAKEY'); // refused: the form comes back
    await submitForm(page);
    expect((await page.locator('#apiKey-error').textContent())?.toLowerCase()).toContain('api key');
    // The file is kept in the form, and no contract name was asked for: the deployed one was picked.
    expect(await page.inputValue('#standardjson')).toBe(buildInfo);
    expect(await page.inputValue('#contractname')).toBe('contracts/Beta.sol:Beta');
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');

    // Several files: kept after a refusal (no key), sent again as they are.
    const other = await build('0.8.28', standardInput({ 'Gamma.sol': gpl('Gamma', 6) }), 'Gamma.sol', 'Gamma');
    const gamma = await deployContract(other.abi, other.bytecode, [], ACCOUNT);
    await page.goto(`${baseUrl}/verify?address=${gamma.address}`);
    await page.check('input[name=format][value=files]');
    await page.setInputFiles('#sourcefiles', [{ name: 'Gamma.sol', mimeType: 'text/plain', buffer: Buffer.from(gpl('Gamma', 6)) }]);
    await page.fill('#compiler', other.compilerVersion);
    await submitForm(page);
    expect(await page.locator('#apiKey-error').count()).toBe(1);
    expect(await page.locator('#kept-files').textContent()).toContain('The file you chose is kept');
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    await context.close();
  });

  it("a failed receipt's fix resubmits through a filled-in form; the address page lists both receipts with the diagnosis", async () => {
    const text = gpl('FixBox', 7);
    const built = await build('0.8.28', standardInput({ 'FixBox.sol': text }, { optimizer: true, runs: 200 }), 'FixBox.sol', 'FixBox');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    // Sent with the optimizer off: fails, and the diagnosis finds the optimizer.
    const failed = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'FixBox', text, { optimizationUsed: '0' }));
    expect(failed.status?.status).toBe('0');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/receipt/${failed.submit.result}`);
    await page.click('#resubmit');
    await page.waitForURL(/\/verify\?from=/);
    expect(await page.inputValue('#address')).toBe(address);
    expect(await page.inputValue('#source')).toBe(text);
    expect(await page.isChecked('input[name=optimization]')).toBe(true);
    expect(await page.inputValue('#runs')).toBe('200');
    expect(await page.inputValue('#compiler')).toBe(built.compilerVersion);
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    const passed = page.url().split('/').pop()!;

    await page.goto(`${baseUrl}/address/${address}`);
    const rows = page.locator('#receipts tbody tr');
    expect(await rows.count()).toBe(2);
    // Newest first: the pass, linking its receipt, then the failure with its diagnosis. The
    // failure's receipt is not given away: it would open the submitted sources in the form.
    expect(await rows.nth(0).locator('a').getAttribute('href')).toBe(`/receipt/${passed}`);
    expect(await rows.nth(0).textContent()).toContain('Passed');
    expect(await rows.nth(1).locator('a').count()).toBe(0);
    expect(await page.content()).not.toContain(failed.submit.result as string);
    const failure = (await rows.nth(1).textContent()) ?? '';
    expect(failure).toContain('Failed');
    expect(failure).toContain('Diagnosis: passes with the optimizer enabled, 200 runs');
    await context.close();
  });
});
