import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { encodeAbiParameters, encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { chromiumAvailable, launchChromium, openZeppelinSources } from './fixtures.js';

const ACCOUNT = deployerAccount('web/explorer');
const { apiUrl, baseUrl, apiKey } = sharedService();

const XSS = '</script><script>alert(1)</script>';
const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// Shown on the explorer as text, never run: ${XSS}
contract Counter {
    uint256 public value;
    string public label;

    event Set(uint256 value);

    constructor(uint256 start) {
        value = start;
        label = "<b>not bold</b>";
    }

    function set(uint256 v) external {
        value = v;
        emit Set(v);
    }

    function double(uint256 x) external pure returns (uint256) {
        return x * 2;
    }
}
`;
const PROXY_PATH = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';

async function postJson(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent()) ?? '';
}

describe.skipIf(!chromiumAvailable)('explorer pages in Chromium', () => {
  let counter: Built;
  let proxyBuilt: Built;
  let counterAddress: Address; // verified, MIT
  let unlicensedAddress: Address; // its source says UNLICENSED (licence 1, None)
  let proxyAddress: Address; // ERC1967Proxy in front of counterAddress
  let proxyArgs: Hex;
  let browser: Browser;
  let context: BrowserContext;
  const dialogs: string[] = [];

  beforeAll(async () => {
    counter = await build('0.8.28', standardInput({ 'contracts/Counter.sol': COUNTER }, { optimizer: true, runs: 200 }), 'contracts/Counter.sol', 'Counter');
    proxyBuilt = await build('0.8.28', standardInput(openZeppelinSources(PROXY_PATH)), PROXY_PATH, 'ERC1967Proxy');
    counterAddress = (await deployContract(counter.abi, counter.bytecode, [7n], ACCOUNT)).address;
    const unlicensed = await build(
      '0.8.28',
      standardInput(
        { 'contracts/Counter.sol': COUNTER.replace('SPDX-License-Identifier: MIT', 'SPDX-License-Identifier: UNLICENSED') },
        { optimizer: true, runs: 200 },
      ),
      'contracts/Counter.sol',
      'Counter',
    );
    unlicensedAddress = (await deployContract(unlicensed.abi, unlicensed.bytecode, [8n], ACCOUNT)).address;
    const initData = encodeFunctionData({ abi: counter.abi, functionName: 'set', args: [42n] });
    proxyAddress = (await deployContract(proxyBuilt.abi, proxyBuilt.bytecode, [counterAddress, initData], ACCOUNT)).address;
    proxyArgs = encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [counterAddress, initData]);

    const [mit, none] = await Promise.all([
      verifyAndWait(apiUrl, apiKey, standardJsonFields(counterAddress, counter, 'contracts/Counter.sol:Counter', { licenseType: '3' })),
      // The source's SPDX line is the licence, whatever the submission says.
      verifyAndWait(apiUrl, apiKey, standardJsonFields(unlicensedAddress, unlicensed, 'contracts/Counter.sol:Counter', { licenseType: '3' })),
    ]);
    expect(mit.status?.result).toBe('Pass - Verified');
    expect(none.status?.result).toBe('Pass - Verified');

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('page', (page) =>
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      }),
    );
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('the contract page shows the verified details and the source as text (no script from it runs)', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}/address/${counterAddress}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    expect(await textOf(page, 'h1')).toContain('Counter');
    const facts = await textOf(page, 'dl.facts');
    expect(facts).toContain(counter.compilerVersion);
    expect(facts).toContain('enabled, 200 runs');
    expect(facts).toContain('MIT');
    expect(facts).toContain('Full match');

    // The source is shown exactly, the script tag in it as visible text.
    const source = await textOf(page, '#code pre.source code');
    expect(source).toBe(COUNTER);
    expect(await page.locator('#code').textContent()).toContain(XSS);
    expect(await page.locator('script').count()).toBe(1);
    expect(await textOf(page, '#code pre.abi')).toContain('"name": "double"');
    expect(await textOf(page, '#code')).toContain('contracts/Counter.sol');
    // Constructor argument 7, decoded.
    expect(await textOf(page, '#code')).toMatch(/start \(uint256\): 7/);

    await page.screenshot({ path: join(tmpdir(), 'solproof-contract-page.png'), fullPage: false });
    await page.close();
    expect(dialogs).toEqual([]);
  });

  it('Read Contract queries the chain: a stored value, a pure function with an input, a string shown as text', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${counterAddress}`);
    await page.getByRole('link', { name: /Read Contract/ }).click();
    expect(await page.locator('#read').isVisible()).toBe(true);
    expect(await page.locator('#code').isVisible()).toBe(false);

    const value = page.locator('#read form[data-signature="value()"]');
    await value.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => value.locator('output').textContent()).toMatch(/uint256\s+7$/);

    const double = page.locator('#read form[data-signature="double(uint256)"]');
    await double.locator('input').fill('21');
    await double.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => double.locator('output').textContent()).toMatch(/uint256\s+42$/);

    await double.locator('input').fill('twenty');
    await double.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => double.locator('output').textContent()).toBe('Error: Argument x: expected an integer (uint256)');

    const label = page.locator('#read form[data-signature="label()"]');
    await label.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => label.locator('output code').textContent()).toBe('<b>not bold</b>');
    expect(await label.locator('output b').count()).toBe(0);
    await page.screenshot({ path: join(tmpdir(), 'solproof-read-contract.png') });
    await page.close();
  });

  it('Write Contract shows the call data without a wallet, and sends it through a wallet when there is one', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${counterAddress}#write`);
    const set = page.locator('#write form[data-signature="set(uint256)"]');
    await set.locator('input[data-arg]').fill('99');
    await set.getByRole('button', { name: 'Write' }).click();
    const expected = encodeFunctionData({ abi: counter.abi, functionName: 'set', args: [99n] });
    await expect.poll(() => set.locator('output code.calldata').textContent()).toBe(expected);
    expect(await set.locator('output').textContent()).toContain(`to: ${counterAddress}`);
    await page.close();

    // A browser wallet (EIP-1193) whose signing is done by a devnet account over the real chain.
    const { walletClient, publicClient, account } = devnetClients(ACCOUNT);
    const walletContext = await browser.newContext();
    await walletContext.exposeBinding('solproofTestWallet', async (_source, method: string, params: any[]) => {
      if (method === 'eth_requestAccounts') return [account];
      if (method !== 'eth_sendTransaction') throw new Error(`unsupported ${method}`);
      const tx = params[0] as { from: Address; to: Address; data: Hex; value?: Hex };
      expect(tx.from).toBe(account);
      const hash = await walletClient.sendTransaction({ account: walletClient.account!, chain: walletClient.chain, to: tx.to, data: tx.data });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    });
    await walletContext.addInitScript(() => {
      const bridge = (window as any).solproofTestWallet as (method: string, params: unknown[]) => Promise<unknown>;
      (window as any).ethereum = { request: ({ method, params }: { method: string; params?: unknown[] }) => bridge(method, params ?? []) };
    });
    const walletPage = await walletContext.newPage();
    await walletPage.goto(`${baseUrl}/address/${counterAddress}#write`);
    const walletSet = walletPage.locator('#write form[data-signature="set(uint256)"]');
    await walletSet.locator('input[data-arg]').fill('99');
    await walletSet.getByRole('button', { name: 'Write' }).click();
    await expect.poll(() => walletSet.locator('output').textContent(), { timeout: 20_000 }).toMatch(/^Transaction sent: 0x[0-9a-f]{64}$/);

    await walletPage.getByRole('link', { name: /Read Contract/ }).click();
    const value = walletPage.locator('#read form[data-signature="value()"]');
    await value.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => value.locator('output').textContent(), { timeout: 20_000 }).toMatch(/uint256\s+99$/);
    await walletContext.close();
  });

  it('the list of verified contracts links to it, and the search box finds it', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/contracts`);
    expect(await textOf(page, 'h1')).toBe('Verified contracts');
    // Other test files verify contracts at the same time: walk the pages (newest first).
    let row = page.locator(`tr:has(a[href="/address/${counterAddress}"])`);
    for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
      await page.getByRole('link', { name: 'Older →' }).first().click();
      row = page.locator(`tr:has(a[href="/address/${counterAddress}"])`);
    }
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 5)).toEqual([counterAddress, 'Counter', counter.compilerVersion, 'MIT', 'full']);
    expect(cells[5]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await page.screenshot({ path: join(tmpdir(), 'solproof-list.png') });
    await row.getByRole('link').click();
    await page.waitForURL(`${baseUrl}/address/${counterAddress}`);
    expect(await textOf(page, 'h1')).toContain('Counter');

    await page.goto(`${baseUrl}/`);
    await page.screenshot({ path: join(tmpdir(), 'solproof-home.png') });
    await page.locator('.hero input[name=q]').fill(counterAddress.toUpperCase().replace('0X', '0x'));
    await page.locator('.hero button').click();
    await page.waitForURL(`${baseUrl}/address/${counterAddress}`);
    await page.close();
  });

  it('the CSV lists open-source licensed contracts only, quoted, as an attachment', async () => {
    const res = await fetch(`${baseUrl}/verified-contracts.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="verified-contracts.csv"');
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe('"ContractAddress","ContractName","CompilerVersion","LicenseType","MatchKind","VerifiedAt"');
    const row = lines.find((l) => l.startsWith(`"${counterAddress}"`));
    expect(row).toMatch(
      new RegExp(
        `^"${counterAddress}","Counter","${counter.compilerVersion.replace(/[.+]/g, '\\$&')}","MIT","full","\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"$`,
      ),
    );
    expect(lines.some((l) => l.includes(unlicensedAddress))).toBe(false);
    expect(lines.at(-1)).toBe('');
  });

  it('the receipt page shows the job in progress, then success with a link to the contract', async () => {
    const submit = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      ...standardJsonFields(proxyAddress, proxyBuilt, `${PROXY_PATH}:ERC1967Proxy`, { constructorArguements: proxyArgs.slice(2) }),
    });
    expect(submit.status).toBe('1');
    // A tool that would rather not poll reads the same stream: the pending state, then the verdict.
    const streamed = fetch(`${baseUrl}/receipt/${submit.result}/events`).then((r) => r.text());
    const page = await context.newPage();
    await page.goto(`${baseUrl}/receipt/${submit.result}`);
    // One reading of the page: the job may end (and the page turn to the verdict) between two.
    const first = await page.evaluate(() => ({
      h1: document.querySelector('h1')?.textContent?.trim() ?? '',
      events: document.querySelector('[data-receipt-events]')?.getAttribute('data-receipt-events') ?? null,
      current: document.querySelector('ol.steps li.current')?.textContent?.trim() ?? '',
    }));
    // With warm compilers the job may be done before the page loads: the pending page is checked when it is seen.
    expect(first.h1).toMatch(/^Verification (Queued|Compiling|Verified)$/);
    if (first.h1 !== 'Verification Verified') {
      // The page follows the receipt's server-sent events (a reload only where scripts are off).
      expect(first.events).toBe(`/receipt/${submit.result}/events`);
      expect(first.current).toMatch(/Queued|Compiling and comparing/);
      await page.screenshot({ path: join(tmpdir(), 'solproof-receipt-pending.png') });
    }

    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.includes('Verified'), undefined, { timeout: 120_000, polling: 250 });
    expect(await textOf(page, 'h1')).toBe('Verification Verified');
    expect(await page.locator('[data-receipt-events]').count()).toBe(0);
    // The stream of a finished receipt: its final state at once, then the end.
    const events = await (await fetch(`${baseUrl}/receipt/${submit.result}/events`)).text();
    expect(events).toBe(`event: state\ndata: ${JSON.stringify({ state: 'pass', status: 'Pass - Verified', done: true })}\n\n`);
    expect((await fetch(`${baseUrl}/receipt/${'0'.repeat(50)}/events`)).status).toBe(404);
    const live = (await streamed)
      .split('\n\n')
      .filter((e) => e.startsWith('event: state'))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as { state: string; done: boolean });
    expect(live[0]).toMatchObject({ done: false });
    expect(['queued', 'running']).toContain(live[0]!.state);
    expect(live.at(-1)).toEqual({ state: 'pass', status: 'Pass - Verified', done: true });
    expect(await page.locator('ol.steps li.done').count()).toBe(3);
    await page.screenshot({ path: join(tmpdir(), 'solproof-receipt-done.png') });
    await page.getByRole('link', { name: /Open the contract page/ }).click();
    await page.waitForURL(`${baseUrl}/address/${proxyAddress}`);
    expect(await textOf(page, 'h1')).toContain('ERC1967Proxy');
    expect(await page.locator('#code .file').count()).toBeGreaterThan(3);
    await page.close();
  });

  it('Read as Proxy uses the implementation ABI against the proxy address', async () => {
    const submit = await apiPost(apiUrl, { module: 'contract', action: 'verifyproxycontract', apikey: apiKey, address: proxyAddress });
    expect(submit.status).toBe('1');
    let status = submit;
    for (let i = 0; i < 600; i++) {
      status = await apiGet(apiUrl, { module: 'contract', action: 'checkproxyverification', guid: submit.result, apikey: apiKey });
      if (status.result !== 'Pending in queue') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status.status).toBe('1');

    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${proxyAddress}`);
    const proxyCard = await textOf(page, '#proxy');
    expect(proxyCard).toContain('EIP-1967 proxy');
    expect(proxyCard).toContain(counterAddress);
    expect(proxyCard).toMatch(/Read at block\s*\d+/);
    await page.getByRole('link', { name: 'Read as Proxy' }).click();
    const panel = page.locator('#read-proxy');
    expect(await panel.textContent()).toContain(`with the ABI of its implementation ${counterAddress}`);
    const value = panel.locator('form[data-signature="value()"]');
    await value.getByRole('button', { name: 'Query' }).click();
    // The proxy's own storage (set by its init call), not the implementation's.
    await expect.poll(() => value.locator('output').textContent()).toMatch(/uint256\s+42$/);
    await page.screenshot({ path: join(tmpdir(), 'solproof-read-as-proxy.png'), fullPage: true });

    await page.getByRole('link', { name: 'Write as Proxy' }).click();
    const set = page.locator('#write-proxy form[data-signature="set(uint256)"]');
    await set.locator('input[data-arg]').fill('5');
    await set.getByRole('button', { name: 'Write' }).click();
    await expect.poll(() => set.locator('output').textContent()).toContain(`to: ${proxyAddress}`);

    await page.goto(`${baseUrl}/receipt/${submit.result}`);
    expect(await textOf(page, 'h1')).toBe('Proxy verification Implementation found');
    await page.close();
  });

  it('bad input gets a page or a JSON error, never a server error', async () => {
    const bad = await fetch(`${baseUrl}/address/0x1234`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await bad.text()).toContain('is not an address');

    const script = await fetch(`${baseUrl}/address/${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(script.status).toBe(400);
    const scriptPage = await script.text();
    expect(scriptPage).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(scriptPage).not.toContain('<script>alert');

    const nobody = '0x00000000000000000000000000000000000000a1';
    const unverified = await fetch(`${baseUrl}/address/${nobody}`);
    expect(unverified.status).toBe(200);
    const unverifiedPage = await unverified.text();
    expect(unverifiedPage).toContain('Not verified');
    expect(unverifiedPage).toContain('no contract code at this address');

    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${unlicensedAddress.replace(/.$/, unlicensedAddress.endsWith('0') ? '1' : '0')}`);
    expect(await textOf(page, 'h1')).toContain('Not verified');
    await page.screenshot({ path: join(tmpdir(), 'solproof-unverified.png'), fullPage: true });
    await page.close();

    expect(await postJson(`/address/${counterAddress}/read`, { function: 'nope()' })).toEqual({
      status: 404,
      json: { error: "No function nope() in this contract's ABI" },
    });
    expect(await postJson(`/address/${counterAddress}/read`, { function: 'set(uint256)', args: ['1'] })).toEqual({
      status: 400,
      json: { error: 'set(uint256) changes state: use Write Contract' },
    });
    expect(await postJson(`/address/${counterAddress}/read`, { function: 'double', args: [] })).toEqual({
      status: 400,
      json: { error: 'double(uint256) takes 1 argument(s), 0 given' },
    });
    expect(await postJson(`/address/${nobody}/read`, { function: 'value' })).toEqual({ status: 404, json: { error: 'This contract is not verified' } });
    expect((await postJson(`/address/${unlicensedAddress}/read`, { function: 'value', asProxy: true })).status).toBe(404);
    expect(await postJson(`/address/${counterAddress}/read`, { function: 'double', args: ['1'.repeat(100_000)] })).toEqual({
      status: 413,
      json: { error: 'The request body is too large (at most 65536 bytes)' },
    });
    expect(await postJson(`/address/${counterAddress}/read`, { function: 'value' })).toEqual({
      status: 200,
      json: { function: 'value()', outputs: [{ name: '', type: 'uint256', value: '99' }] },
    });
    expect(await postJson(`/address/${counterAddress}/encode`, { function: 'set', args: ['1'], value: '5' })).toEqual({
      status: 400,
      json: { error: 'set(uint256) is not payable: send no value' },
    });

    expect((await fetch(`${baseUrl}/receipt/NOT-A-RECEIPT`)).status).toBe(400);
    expect((await fetch(`${baseUrl}/receipt/${'0'.repeat(50)}`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/contracts?page=abc`)).status).toBe(400);
    // Deep pages by offset are refused (they cost the same as every row before them); keyset links are not.
    expect((await fetch(`${baseUrl}/contracts?page=99999`)).status).toBe(400);
    expect((await fetch(`${baseUrl}/contracts?page=2`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/contracts?after=nonsense`)).status).toBe(400);
    const deep = await fetch(`${baseUrl}/contracts?after=1-0x${'0'.repeat(40)}`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('No contracts on this page.');
    const search = await fetch(`${baseUrl}/search?q=${encodeURIComponent('"><img src=x>')}`);
    expect(search.status).toBe(400);
    expect(await search.text()).toContain('value="&quot;&gt;&lt;img src=x&gt;"');
    expect(dialogs).toEqual([]);
  });
});
