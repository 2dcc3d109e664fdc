/**
 * Verify & Publish from the browser (`/verify`), in Chromium: a single file pasted into the
 * plain form with scripts turned off, several files uploaded (imports resolved among them), a
 * Hardhat build-info file uploaded, a standard JSON input pasted; refusals shown next to the
 * field they concern; and sources carrying markup shown back as text, never run.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { sharedService } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { chromiumAvailable, launchChromium } from './fixtures.js';

const ACCOUNT = deployerAccount('web/verifyPage');
const { baseUrl, apiKey } = sharedService();
const XSS = '</textarea><script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';

const single = (edition: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract FormBox {
    uint256 public constant EDITION = ${edition}0313;
    uint256 public value;

    constructor(uint256 start) {
        value = start;
    }

    function set(uint256 v) external {
        value = v;
    }
}
`;
const MATH = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

library FormMath {
    function triple(uint256 x) internal pure returns (uint256) {
        return x * 3 + 20313;
    }
}
`;
const MAIN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import {FormMath} from "./lib/FormMath.sol";

contract FormMain {
    function tripled(uint256 x) external pure returns (uint256) {
        return FormMath.triple(x);
    }
}
`;

/** When the last form was sent: the service takes at most 2 forms a second from one client. */
let lastSubmit = 0;

/** Sends the form as a person would, no faster than the service's form rate (2 a second per client). */
async function submitForm(page: Page): Promise<void> {
  const wait = lastSubmit + 600 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastSubmit = Date.now();
  await page.click('#verify-submit');
}

/** The verdict badge of a receipt page, waiting while it is pending (live or by reloads). */
async function verdictOf(page: Page): Promise<string> {
  await page.waitForURL(/\/receipt\/[0-9a-z]{50}$/, { timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('[data-receipt-events]'), undefined, { timeout: 120_000, polling: 250 });
  return (await page.locator('h1 .badge').textContent()) ?? '';
}

describe.skipIf(!chromiumAvailable)('Verify & Publish in Chromium', () => {
  let browser: Browser;
  let box: Built;
  let boxAddress: Address;
  let xssAddress: Address;
  let multi: Built;
  let multiAddress: Address;
  let token: Built;
  let tokenAddress: Address;
  let pasted: Built;
  let pastedAddress: Address;

  beforeAll(async () => {
    box = await build('0.8.28', standardInput({ 'FormBox.sol': single(1) }), 'FormBox.sol', 'FormBox');
    boxAddress = (await deployContract(box.abi, box.bytecode, [5n], ACCOUNT)).address;
    const xssBox = await build('0.8.28', standardInput({ 'FormBox.sol': single(2) }), 'FormBox.sol', 'FormBox');
    xssAddress = (await deployContract(xssBox.abi, xssBox.bytecode, [6n], ACCOUNT)).address;
    multi = await build(
      '0.8.28',
      standardInput({ 'contracts/FormMain.sol': MAIN, 'contracts/lib/FormMath.sol': MATH }, { optimizer: true, runs: 500 }),
      'contracts/FormMain.sol',
      'FormMain',
    );
    multiAddress = (await deployContract(multi.abi, multi.bytecode, [], ACCOUNT)).address;
    token = await build(
      '0.8.28',
      standardInput({ 'contracts/FormToken.sol': single(3).replace('FormBox', 'FormToken') }),
      'contracts/FormToken.sol',
      'FormToken',
    );
    tokenAddress = (await deployContract(token.abi, token.bytecode, [9n], ACCOUNT)).address;
    pasted = await build(
      '0.8.26',
      standardInput({ 'src/Pasted.sol': single(4).replace('FormBox', 'Pasted') }, { evmVersion: 'paris' }),
      'src/Pasted.sol',
      'Pasted',
    );
    pastedAddress = (await deployContract(pasted.abi, pasted.bytecode, [1n], ACCOUNT)).address;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('an unverified address links to the form with its address filled in; the header links to it too', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${boxAddress}`);
    expect(await page.locator('header nav a[href="/verify"]').count()).toBe(1);
    await page.click(`a[href="/verify?address=${boxAddress}"]`);
    expect(await page.inputValue('#address')).toBe(boxAddress);
    // Every field has a visible label; the compiler list is there, newest release first.
    for (const id of ['address', 'source', 'compiler', 'contractname', 'constructorarguments', 'license', 'apikey', 'evmversion', 'runs']) {
      expect(await page.locator(`label[for="${id}"]`).count(), id).toBe(1);
    }
    const compilers = await page.locator('#compiler-list option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(compilers).toContain(box.compilerVersion);
    // solc's releases, newest first, then Vyper's.
    const solc = compilers.filter((c) => !c.startsWith('vyper:'));
    expect(solc[0]!.localeCompare(solc[solc.length - 1]!, undefined, { numeric: true })).toBeGreaterThan(0);
    expect(compilers.slice(0, solc.length)).toEqual(solc);
    await context.close();
  });

  it('without scripts: a pasted single file is verified through the plain form, the receipt reloading itself', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${boxAddress}`);
    await page.fill('#source', single(1));
    await page.fill('#compiler', box.compilerVersion);
    await page.fill('#apikey', apiKey);
    await page.selectOption('#license', '3');
    // The contract name is left empty: the source declares one contract, which is taken.
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    await page.goto(`${baseUrl}/address/${boxAddress}`);
    expect(await page.locator('h1').textContent()).toContain('FormBox');
    await context.close();
  });

  it('several files: the contracts in them are offered, imports are resolved among them, the key is remembered when asked', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${multiAddress}`);
    // Scripts on: only the chosen format's fields are shown.
    expect(await page.locator('section[data-format="files"]').isVisible()).toBe(false);
    await page.check('input[name=format][value=files]');
    expect(await page.locator('section[data-format="files"]').isVisible()).toBe(true);
    expect(await page.locator('section[data-format="single"]').isVisible()).toBe(false);
    await page.setInputFiles('#sourcefiles', [
      { name: 'FormMain.sol', mimeType: 'text/plain', buffer: Buffer.from(MAIN) },
      { name: 'FormMath.sol', mimeType: 'text/plain', buffer: Buffer.from(MATH) },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#contract-list option').length === 2);
    const offered = await page.locator('#contract-list option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).sort());
    expect(offered).toEqual(['FormMain.sol:FormMain', 'FormMath.sol:FormMath']);
    await page.fill('#contractname', 'FormMain');
    await page.fill('#compiler', multi.compilerVersion);
    await page.check('input[name=optimization]');
    await page.fill('#runs', '500');
    await page.fill('#apikey', apiKey);
    await page.check('#remember-key');
    await submitForm(page);
    // The files sit in other folders than at build time: the code matches, the metadata cannot.
    expect(await verdictOf(page)).toBe('Verified');
    await page.goto(`${baseUrl}/address/${multiAddress}`);
    expect(await page.locator('dl.facts').textContent()).toContain('Partial match');
    // The key comes back on the next visit, from this browser only.
    await page.goto(`${baseUrl}/verify`);
    expect(await page.inputValue('#apikey')).toBe(apiKey);
    await context.close();
  });

  it('a Hardhat build-info file: its input and compiler are taken from it, and the result is a full match', async () => {
    const buildInfo = {
      id: 'form-build-info',
      _format: 'hh-sol-build-info-1',
      solcVersion: token.compilerVersion.slice(1).split('+')[0],
      solcLongVersion: token.compilerVersion.slice(1),
      input: token.input,
      output: token.output,
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${tokenAddress}`);
    await page.check('input[name=format][value=json]');
    await page.setInputFiles('#jsonfile', { name: 'build-info.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(buildInfo)) });
    await page.waitForFunction(() => (document.querySelector('#compiler') as HTMLInputElement).value !== '');
    expect(await page.inputValue('#compiler')).toBe(token.compilerVersion);
    expect(await page.inputValue('#contractname')).toBe('contracts/FormToken.sol:FormToken');
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    await page.goto(`${baseUrl}/address/${tokenAddress}`);
    expect(await page.locator('dl.facts').textContent()).toContain('Full match');
    await context.close();
  });

  it('refusals appear next to their field, the values kept; a corrected standard JSON input then passes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify`);
    await page.fill('#address', '0x1234');
    await submitForm(page);
    expect(await page.locator('#address-error').textContent()).toContain('Not an address');
    expect(await page.locator('#apiKey-error').textContent()).toContain('API key');
    expect(await page.getAttribute('#address', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#address')).toBe('0x1234');

    // A wrong commit is refused by the API at submission: the text lands next to the compiler.
    const wrongCommit = pasted.compilerVersion.replace(/commit\.[0-9a-f]{8}/, 'commit.deadbeef');
    await page.fill('#address', pastedAddress);
    await page.check('input[name=format][value=json]');
    await page.fill('#standardjson', JSON.stringify(pasted.input));
    await page.fill('#compiler', wrongCommit);
    await page.fill('#contractname', 'Pasted');
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await page.locator('#compiler-error').textContent()).toContain(`did you mean ${pasted.compilerVersion}`);
    expect(page.url()).toBe(`${baseUrl}/verify`);
    // An invalid key: named next to the key field.
    await page.fill('#compiler', pasted.compilerVersion);
    await page.fill('#apikey', 'NOTAKEY');
    await submitForm(page);
    expect((await page.locator('#apiKey-error').textContent())?.toLowerCase()).toContain('api key');
    // Corrected: the pasted input (kept by the page) verifies.
    expect(await page.inputValue('#standardjson')).toBe(JSON.stringify(pasted.input));
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    await context.close();
  });

  it('typed constructor values: the types are read from the source, the values encoded with them', async () => {
    const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract TypedArgs {
    uint256 public supply;
    string public label;
    address public holder;

    constructor(uint256 supply_, string memory label_, address holder_) {
        supply = supply_ + 20313;
        label = label_;
        holder = holder_;
    }
}
`;
    const typed = await build('0.8.28', standardInput({ 'TypedArgs.sol': source }), 'TypedArgs.sol', 'TypedArgs');
    const holder = '0x00000000000000000000000000000000000000aa';
    const { address } = await deployContract(typed.abi, typed.bytecode, [1000n, 'hello, world', holder], ACCOUNT);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/verify?address=${address}`);
    await page.fill('#source', source);
    await page.locator('#source').blur();
    await page.waitForFunction(() => (document.querySelector('#constructortypes') as HTMLInputElement).value !== '');
    expect(await page.inputValue('#constructortypes')).toBe('uint256 supply_, string memory label_, address holder_');
    await page.fill('#constructorvalues', `[1000, "hello, world", "${holder}"]`);
    await page.fill('#compiler', typed.compilerVersion);
    await page.fill('#apikey', apiKey);
    await submitForm(page);
    expect(await verdictOf(page)).toBe('Verified');
    await page.goto(`${baseUrl}/address/${address}`);
    expect(await page.locator('#code').textContent()).toMatch(/label_ \(string\): hello, world/);
    await context.close();
  });

  it('sources and names carrying markup are shown back as text; nothing in them runs', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${baseUrl}/verify?address=${xssAddress}`);
    const source = `${single(2)}// ${XSS}\n`;
    await page.fill('#contractname', `"><script>window.__xss = 3</script>`);
    await page.fill('#source', source);
    await page.fill('#apikey', apiKey);
    // The page fills in the compiler the deployed code names: cleared, so the form refuses it.
    await page.fill('#compiler', '');
    await submitForm(page); // no compiler: refused, everything shown back
    expect(await page.locator('#compiler-error').count()).toBe(1);
    expect(await page.inputValue('#source')).toBe(source);
    expect(await page.inputValue('#contractname')).toBe(`"><script>window.__xss = 3</script>`);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
