/**
 * Vyper through the Verify & Publish form, sent as a browser without scripts sends it (a plain
 * multipart POST): a .vy file uploaded with a Vyper compiler chosen, and Vyper's standard JSON
 * input pasted. Each contract is compiled by the real Vyper compiler, deployed on anvil, and
 * verified through the form; the receipt's verdict and the published record are read back, and
 * the contract page shows the source highlighted as Vyper and reads the contract from its ABI.
 */
import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompilerListing } from '../../src/core/compilerListing.js';
import type { Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, waitForVerdict } from '../helpers/api.js';
import { deployForVerify } from '../helpers/chain.js';
import { compileVyperForTest, vyperAvailable, vyperInput } from '../helpers/vyper.js';

const ACCOUNT = deployerAccount('web/vyperForm');
const { baseUrl, apiUrl, apiKey } = sharedService();
const RUN = `${Date.now()}-${process.pid}`;

const store = (tag: string) => `# pragma version ~=0.4.0
# SPDX-License-Identifier: MIT
# Form edition ${tag}.
OWNER: public(immutable(address))
stored: public(uint256)

@deploy
def __init__(start: uint256):
    OWNER = msg.sender
    self.stored = start

@external
def put(v: uint256):
    self.stored = v
`;
const ARGS = encodeAbiParameters([{ name: 'start', type: 'uint256' }], [5n]).slice(2);

/** Sends the form as a browser does; the receipt from the redirect, or the page shown again. */
async function sendForm(
  fields: Record<string, string>,
  file?: { field: string; name: string; text: string },
): Promise<{ receipt: string } | { page: string; status: number }> {
  const form = new FormData();
  form.append('apikey', apiKey);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field, new Blob([file.text], { type: 'text/plain' }), file.name);
  const res = await fetch(`${baseUrl}/verify`, { method: 'POST', body: form, redirect: 'manual' });
  if (res.status === 303) return { receipt: (res.headers.get('location') ?? '').replace('/receipt/', '') };
  return { page: await res.text(), status: res.status };
}

describe.skipIf(!vyperAvailable())('Vyper through the Verify & Publish form', () => {
  let vyperChoices: string[];
  beforeAll(async () => {
    const listing = (await (await fetch(`${baseUrl}/compilers.json`)).json()) as CompilerListing;
    vyperChoices = (listing.vyper?.builds ?? []).filter((b) => b.sources.length > 0 && !b.prerelease).map((b) => b.compilerVersion);
  });

  it('offers the Vyper compilers the service can use in the compiler list', async () => {
    const page = await (await fetch(`${baseUrl}/verify`)).text();
    expect(vyperChoices).toContain('vyper:0.4.3');
    for (const choice of vyperChoices) expect(page).toContain(`<option value="${choice}">`);
  });

  it('a .vy file uploaded with vyper:0.4.3: verified, named after the file, with its constructor arguments', async () => {
    const source = store(`single ${RUN}`);
    const { bytecode } = await compileVyperForTest('0.4.3', vyperInput({ 'Store.vy': source }, 'Store.vy', { optimize: 'gas' }), 'Store.vy');
    const { address } = await deployForVerify(`${bytecode}${ARGS}` as Hex, ACCOUNT);
    const sent = await sendForm(
      { address, format: 'single', compiler: 'vyper:0.4.3', optimization: '1', constructorarguments: ARGS },
      { field: 'sourcefile', name: 'Store.vy', text: source },
    );
    expect(sent).toHaveProperty('receipt');
    if (!('receipt' in sent)) return;
    expect((await waitForVerdict(apiUrl, sent.receipt, apiKey)).result).toBe('Pass - Verified');
    const record = (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result[0] as Record<string, string>;
    expect(record).toMatchObject({ SourceCode: source, ContractName: 'Store', ConstructorArguments: ARGS, LicenseType: 'MIT' });
    expect(record.CompilerVersion).toMatch(/^vyper:0\.4\.3\+commit\.[0-9a-f]+$/);

    // The contract page highlights it as Vyper, and Read Contract calls it from its ABI.
    const page = await (await fetch(`${baseUrl}/address/${address}`)).text();
    expect(page).toContain('class="language-vyper"');
    expect(page).toContain('<span class="token decorator function">@deploy</span>');
    expect(page).toContain('data-signature="stored()"');
    const read = await fetch(`${baseUrl}/address/${address}/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function: 'stored' }),
    });
    expect(await read.json()).toEqual({ function: 'stored()', outputs: [{ name: '', type: 'uint256', value: '5' }] });
  });

  it("Vyper's standard JSON input pasted: its one .vy file is taken as the contract, a full match", async () => {
    const input = vyperInput({ 'src/Store.vy': store(`json ${RUN}`) }, 'src/Store.vy');
    const { bytecode } = await compileVyperForTest('0.4.3', input, 'src/Store.vy');
    const { address } = await deployForVerify(`${bytecode}${ARGS}` as Hex, ACCOUNT);
    const sent = await sendForm({ address, format: 'json', compiler: 'vyper:0.4.3', standardjson: JSON.stringify(input), constructorarguments: ARGS });
    expect(sent).toHaveProperty('receipt');
    if (!('receipt' in sent)) return;
    expect((await waitForVerdict(apiUrl, sent.receipt, apiKey)).result).toBe('Pass - Verified');
    const record = (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result[0] as Record<string, string>;
    expect(record).toMatchObject({ ContractName: 'Store', ContractFileName: 'src/Store.vy', MatchKind: 'full' });
  });

  it('a Vyper source with a solc compiler chosen is sent back with the compiler field marked', async () => {
    const sent = await sendForm({
      address: '0x00000000000000000000000000000000000000aa',
      format: 'single',
      compiler: 'v0.8.28+commit.7893614a',
      source: store(`refused ${RUN}`),
      contractname: 'Store',
    });
    expect(sent).toMatchObject({ status: 400 });
    if (!('page' in sent)) return;
    expect(sent.page).toContain('This is a Vyper source: choose a Vyper compiler (vyper:0.4.3)');
  });
});
