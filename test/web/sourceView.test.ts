/**
 * The contract page people read, in Chromium: highlighted sources with a file tree, numbered
 * lines that can be linked, copy and download buttons, the standard JSON input to download,
 * the creator and creation transaction, and the compiled code with what the chain fills in
 * marked. A 300-file contract stays one small page (one file at a time). The verified list is
 * searched by name and filtered by compiler, licence and match kind.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { chromiumAvailable, launchChromium } from './fixtures.js';

const ACCOUNT = deployerAccount('web/sourceView');
const { apiUrl, baseUrl, apiKey } = sharedService();

const VAULT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import {Fees} from "./lib/Fees.sol";

/// @notice Keeps a number. </span><script>window.__xss = 1</script>
contract ShelfVault {
    uint256 public immutable createdWith;
    address public immutable owner;
    string public label = "a <b>bold</b> label";

    constructor(uint256 start) {
        createdWith = start;
        owner = msg.sender;
    }

    function quote(uint256 amount) external pure returns (uint256) {
        return Fees.charge(amount);
    }
}
`;
const FEES = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

library Fees {
    /* 3% fee,
       rounded down */
    function charge(uint256 amount) internal pure returns (uint256) {
        return amount - (amount * 3) / 100;
    }
}
`;

/** A contract importing 299 small libraries: 300 files. */
function manyFiles(): Record<string, string> {
  const sources: Record<string, string> = {};
  const imports: string[] = [];
  let body = '';
  for (let i = 0; i < 299; i++) {
    sources[`src/parts/p${Math.floor(i / 30)}/Part${i}.sol`] = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// Part ${i} of the shelf.
library Part${i} {
    function value() internal pure returns (uint256) {
        return ${i + 1000};
    }
}
`;
    imports.push(`import {Part${i}} from "./parts/p${Math.floor(i / 30)}/Part${i}.sol";`);
    if (i % 50 === 0) body += `        total += Part${i}.value();\n`;
  }
  sources['src/Shelf300.sol'] = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.0;

${imports.join('\n')}

contract Shelf300 {
    function sum() external pure returns (uint256 total) {
${body}    }
}
`;
  return sources;
}

describe.skipIf(!chromiumAvailable)('the contract page and the verified list in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let vault: Built;
  let vaultAddress: Address;
  let vaultTx: Hex;
  let shelf: Built;
  let shelfAddress: Address;

  beforeAll(async () => {
    vault = await build(
      '0.8.28',
      standardInput({ 'contracts/ShelfVault.sol': VAULT, 'contracts/lib/Fees.sol': FEES }, { optimizer: true, runs: 200 }),
      'contracts/ShelfVault.sol',
      'ShelfVault',
    );
    const deployed = await deployContract(vault.abi, vault.bytecode, [77n], ACCOUNT);
    vaultAddress = deployed.address;
    vaultTx = deployed.transactionHash;
    const shelfSources = manyFiles();
    shelf = await build('0.8.28', standardInput(shelfSources), 'src/Shelf300.sol', 'Shelf300');
    shelfAddress = (await deployContract(shelf.abi, shelf.bytecode, [], ACCOUNT)).address;
    const [a, b] = await Promise.all([
      verifyAndWait(apiUrl, apiKey, standardJsonFields(vaultAddress, vault, 'contracts/ShelfVault.sol:ShelfVault', { licenseType: '3' })),
      verifyAndWait(apiUrl, apiKey, standardJsonFields(shelfAddress, shelf, 'src/Shelf300.sol:Shelf300', { licenseType: '12' })),
    ]);
    expect(a.status?.result).toBe('Pass - Verified');
    expect(b.status?.result).toBe('Pass - Verified');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('sources are highlighted on the server, in a file tree, with numbered lines that can be linked', async () => {
    // Highlighted in the HTML itself, not by a script.
    const raw = await (await fetch(`${baseUrl}/address/${vaultAddress}`)).text();
    expect(raw).toContain('<span class="token keyword">contract</span>');
    expect(raw).not.toContain('<script>window.__xss');

    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${vaultAddress}#f1-L12`);
    expect(await page.locator('#code').isVisible()).toBe(true);
    expect(await page.locator('nav.file-tree a').allTextContents()).toEqual(['Fees.sol', 'ShelfVault.sol']);
    // The contract's own file first; its text is the source exactly, the numbers are not part of it.
    expect(await page.locator('#f1-code').textContent()).toBe(VAULT);
    expect(await page.locator('#f2-code').textContent()).toBe(FEES);
    expect(await page.locator('#f1 .file-head').textContent()).toContain('contracts/ShelfVault.sol');
    // Line 13 is the target: highlighted by the stylesheet and scrolled into view.
    expect(await page.locator('#f1-L12').textContent()).toBe('    constructor(uint256 start) {\n');
    expect(await page.locator('#f1-L12').evaluate((el) => el.matches(':target'))).toBe(true);
    expect(await page.locator('#f1-L12').isVisible()).toBe(true);
    await page.click('#f2-L5 a.ln');
    expect(page.url()).toMatch(/#f2-L5$/);
    expect(await page.locator('#f2-L5 .token.comment').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.close();
  });

  it('copy buttons copy the address, a file and the ABI; a file and the standard JSON input download', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${vaultAddress}`);
    await page.click('button[data-copy="#contract-address"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(vaultAddress);
    await page.click('button[data-copy="#f2-code"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FEES);
    await page.click('button[data-copy="#abi-json"]');
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(vault.abi);

    const [file] = await Promise.all([page.waitForEvent('download'), page.click('#f2 a[download]')]);
    expect(file.suggestedFilename()).toBe('Fees.sol');
    const fileRes = await fetch(`${baseUrl}/address/${vaultAddress}/source/2`);
    expect(fileRes.headers.get('content-disposition')).toBe('attachment; filename="Fees.sol"');
    expect(await fileRes.text()).toBe(FEES);

    const [json] = await Promise.all([page.waitForEvent('download'), page.click('a[href$="/standard-input.json"]')]);
    expect(json.suggestedFilename()).toBe(`ShelfVault-${vaultAddress}.standard-input.json`);
    const input = (await (await fetch(`${baseUrl}/address/${vaultAddress}/standard-input.json`)).json()) as {
      language: string;
      sources: Record<string, { content: string }>;
      settings: { optimizer: unknown };
    };
    expect(input.language).toBe('Solidity');
    expect(input.sources).toEqual(vault.input.sources);
    expect(input.settings.optimizer).toEqual({ enabled: true, runs: 200 });
    expect((await fetch(`${baseUrl}/address/${vaultAddress}/source/9`)).status).toBe(404);
    await page.close();
  });

  it('the creator, the creation transaction, and the code with immutables and arguments marked', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${vaultAddress}`);
    const facts = (await page.locator('dl.facts').textContent()) ?? '';
    expect(facts).toContain(devnetClients(ACCOUNT).account);
    expect(facts).toContain(vaultTx);
    await page.click('summary:has-text("Runtime code")');
    const immutables = await page.locator('pre.bytecode mark.t-immutable').all();
    expect(immutables.length).toBeGreaterThanOrEqual(2);
    const titles = await Promise.all(immutables.map((m) => m.getAttribute('title')));
    // createdWith = 77 and owner = the deployer, as the chain holds them.
    expect(titles.some((t) => t?.endsWith(`0x${(77).toString(16).padStart(64, '0')}`))).toBe(true);
    expect(titles.some((t) => t?.includes(devnetClients(ACCOUNT).account.slice(2)))).toBe(true);
    // A full match: the metadata hash on chain is the compiled one, so nothing is marked there.
    expect(await page.locator('pre.bytecode mark.t-cborAuxdata').count()).toBe(0);
    await page.click('summary:has-text("Creation code")');
    expect(await page.locator('pre.bytecode mark.t-constructorArguments').first().textContent()).toBe((77).toString(16).padStart(64, '0'));
    await page.close();
  });

  it('a 300-file contract is one small page: the tree lists every file, one file is shown at a time', async () => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/address/${shelfAddress}`);
    const body = await res.text();
    const ms = performance.now() - t0;
    console.log(`300-file contract page: ${(body.length / 1024).toFixed(0)} KiB in ${ms.toFixed(0)} ms`);
    expect(res.status).toBe(200);
    expect(body.length).toBeLessThan(400 * 1024);

    const page = await context.newPage();
    await page.goto(`${baseUrl}/address/${shelfAddress}`);
    expect(await page.locator('nav.file-tree a').count()).toBe(300);
    expect(await page.locator('.files .file').count()).toBe(1);
    expect(await page.locator('.files .file .file-head').textContent()).toContain('src/Shelf300.sol');
    await page.click('nav.file-tree a:text-is("Part150.sol")');
    await page.waitForURL(/\?file=\d+#f\d+$/);
    expect(await page.locator('.files .file .file-head').textContent()).toContain('src/parts/p5/Part150.sol');
    expect(await page.locator('.files .file code').textContent()).toContain('return 1150;');
    await page.close();
  });

  it('the list is searched by name (any case, from the header too) and filtered by compiler, licence and match', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.fill('header input[name=q]', 'shelfvault');
    await page.press('header input[name=q]', 'Enter');
    await page.waitForURL(/\/contracts\?q=shelfvault$/);
    const names = await page.locator('table.contracts tbody tr td:nth-child(2)').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(1);
    expect(new Set(names)).toEqual(new Set(['ShelfVault']));
    expect(await page.locator('table.contracts').textContent()).toContain(vaultAddress);

    // Licence Apache-2.0 (12): the 300-file contract is there, the MIT vault is not.
    await page.goto(`${baseUrl}/contracts?license=12`);
    const apache = (await page.locator('table.contracts').textContent()) ?? '';
    expect(apache).toContain(shelfAddress);
    expect(apache).not.toContain(vaultAddress);
    expect(new Set(await page.locator('table.contracts tbody tr td:nth-child(4)').allTextContents())).toEqual(new Set(['Apache-2.0']));
    // Compiler and match kind, with the form.
    await page.goto(`${baseUrl}/contracts`);
    await page.fill('form.list-filter input[name=compiler]', vault.compilerVersion);
    await page.selectOption('form.list-filter select[name=match]', 'full');
    await page.fill('form.list-filter input[name=q]', 'Shelf300');
    await page.click('form.list-filter button[type=submit]');
    await page.waitForURL(/match=full/);
    expect(await page.locator('table.contracts tbody tr').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('table.contracts').textContent()).toContain(shelfAddress);
    // Nothing matches a partial Shelf300; a bad filter is a clear 400.
    await page.goto(`${baseUrl}/contracts?q=Shelf300&match=partial`);
    expect(await page.locator('main').textContent()).toContain('No verified contract matches.');
    const bad = await fetch(`${baseUrl}/contracts?q=${encodeURIComponent('<img src=x>')}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain('<img src=x>');
    await page.close();
  });
});
