/**
 * What one keyless client may make the service do, end to end on a service of its own: deploy
 * with a devnet key, verify through the keyless Sourcify API, read the contract's page. A page
 * shows a bounded part of a source however many lines it has; a Sourcify body larger than what
 * clients send, or made of more values than a submission holds, is refused before it is parsed
 * and queues nothing, while a body of what clients really send (all of OpenZeppelin in one
 * input) is read. How long the event loop waits meanwhile is printed by `npm run bench:stalls`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { deployContract } from '../helpers/chain.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { type RunningService, startService } from '../helpers/service.js';
import { sourcifyErrorWith } from '../sourcify/helpers.js';

const ACCOUNT = deployerAccount('attacks/keylessStalls');
const CHAIN_ID = 31337;
const BLANK_LINES = 255_000;

/** A keyless client at `address` (the service believes X-Forwarded-For from 127.0.0.1). */
const from = (address: string) => ({ 'x-forwarded-for': address });

async function sourcify(service: RunningService, path: string, body: string, client: string) {
  const res = await fetch(`${service.baseUrl}/sourcify/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...from(client) }, body });
  return { status: res.status, body: (await res.json()) as { verificationId?: string; customCode?: string; message?: string } };
}

async function waitForJob(service: RunningService, id: string): Promise<{ isJobCompleted: boolean; contract: { match: string | null } }> {
  for (;;) {
    const job = (await (await fetch(`${service.baseUrl}/sourcify/v2/verify/${id}`)).json()) as { isJobCompleted: boolean; contract: { match: string | null } };
    if (job.isJobCompleted) return job;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every .sol file under `dir`, by its import path under `prefix`. */
function solidityFiles(dir: string, prefix: string): Record<string, { content: string }> {
  const found: Record<string, { content: string }> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.sol')) found[`${prefix}${path.slice(dir.length)}`] = { content: readFileSync(path, 'utf8') };
    }
  };
  walk(dir);
  return found;
}

describe('one keyless client against everyone else', () => {
  let service: RunningService;
  let blank: Built;
  let blankAddress: string;
  const blankSource = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Blank { uint256 public n = 1; }\n${'\n'.repeat(BLANK_LINES)}`;

  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--trusted-proxies', '127.0.0.1', '--code-wait-ms', '0'] });
    blank = await build('0.8.28', standardInput({ 'Blank.sol': blankSource }), 'Blank.sol', 'Blank');
    blankAddress = (await deployContract(blank.abi, blank.bytecode, [], ACCOUNT)).address;
  });
  afterAll(async () => service?.stop());

  it(`a source of ${BLANK_LINES.toLocaleString('en')} blank lines, verified without a key, has a page of its first 8,000 lines and links to the rest`, async () => {
    const body = JSON.stringify({ stdJsonInput: blank.input, compilerVersion: blank.compilerVersion.slice(1), contractIdentifier: 'Blank.sol:Blank' });
    const submit = await sourcify(service, `v2/verify/${CHAIN_ID}/${blankAddress}`, body, '198.51.100.10');
    expect(submit.status, JSON.stringify(submit.body)).toBe(202);
    expect((await waitForJob(service, submit.body.verificationId!)).contract.match).toBe('exact_match');

    const total = BLANK_LINES + 3;
    const page = await (await fetch(`${service.baseUrl}/address/${blankAddress}`, { headers: from('198.51.100.11') })).text();
    const lines = [...page.matchAll(/<span class="line" id="f1-L(\d+)">/g)].map((m) => Number(m[1]));
    expect(lines).toEqual(Array.from({ length: 8000 }, (_, i) => i + 1));
    expect(page).toContain(`File 1 of 1 · ${total} lines (1–8000 shown)`);
    expect(page).toContain('<a href="?file=1&amp;from=8001#f1-L8001">lines 8001–16000 ›</a>');
    // Bounded: under 1 MB where every line on one page made 30 MB.
    expect(page.length).toBeLessThan(1_000_000);

    const last = await (await fetch(`${service.baseUrl}/address/${blankAddress}?file=1&from=250001`, { headers: from('198.51.100.11') })).text();
    const lastLines = [...last.matchAll(/<span class="line" id="f1-L(\d+)">/g)].map((m) => Number(m[1]));
    expect([lastLines[0], lastLines.at(-1), lastLines.length]).toEqual([250_001, total, total - 250_000]);
    expect(last).toContain(`lines 250001–${total} of ${total}`);
    expect(last).toContain('<a href="?file=1&amp;from=242001#f1-L242001">‹ lines 242001–250000</a>');
    // The download is the whole file.
    expect(await (await fetch(`${service.baseUrl}/address/${blankAddress}/source/1`, { headers: from('198.51.100.12') })).text()).toBe(blankSource);
  });

  it('a 15 MB comment, and 130,000 source entries within the size limit, are refused before they are parsed, and queue nothing', async () => {
    const source = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Commented { uint256 public n = 3; }\n`;
    const built = await build('0.8.28', standardInput({ 'Commented.sol': source }), 'Commented.sol', 'Commented');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const submission = (content: string) =>
      JSON.stringify({
        stdJsonInput: { ...built.input, sources: { 'Commented.sol': { content } } },
        compilerVersion: built.compilerVersion.slice(1),
        contractIdentifier: 'Commented.sol:Commented',
      });

    const comment = await sourcify(service, `v2/verify/${CHAIN_ID}/${address}`, submission(`${source}//${'x'.repeat(15_000_000)}\n`), '198.51.100.20');
    expect(comment).toEqual({ status: 400, body: sourcifyErrorWith('invalid_parameter', 'too large: the limit is 4194304 bytes') });
    const entries = `{"stdJsonInput":{"language":"Solidity","sources":{${Array.from({ length: 130_000 }, (_, i) => `"s${i}.sol":{"content":""}`).join(',')}}}}`;
    expect(entries.length).toBeLessThan(4 * 1024 * 1024);
    const many = await sourcify(service, `v2/verify/${CHAIN_ID}/${address}`, entries, '198.51.100.21');
    expect(many).toEqual({ status: 400, body: sourcifyErrorWith('invalid_json', 'more than 100000 JSON values') });
    const deep = await sourcify(service, `v2/verify/${CHAIN_ID}/${address}`, `${'['.repeat(10_000)}${']'.repeat(10_000)}`, '198.51.100.22');
    expect(deep).toEqual({ status: 400, body: sourcifyErrorWith('invalid_json', 'not a JSON object') });

    // Nothing was queued for the address: the real submission is taken, not refused as a duplicate.
    const real = await sourcify(service, `v2/verify/${CHAIN_ID}/${address}`, submission(source), '198.51.100.20');
    expect(real.status, JSON.stringify(real.body)).toBe(202);
    expect((await waitForJob(service, real.body.verificationId!)).contract.match).toBe('exact_match');
  });

  it('what clients really send is read: a standard JSON input holding all of OpenZeppelin (2.2 MB, 349 files)', async () => {
    const modules = join(import.meta.dirname, '..', '..', 'node_modules', '@openzeppelin');
    const sources = {
      ...solidityFiles(join(modules, 'contracts'), '@openzeppelin/contracts'),
      ...solidityFiles(join(modules, 'contracts-upgradeable'), '@openzeppelin/contracts-upgradeable'),
      'Blank.sol': { content: blankSource },
    };
    const body = JSON.stringify({
      stdJsonInput: { ...blank.input, sources },
      compilerVersion: blank.compilerVersion.slice(1),
      contractIdentifier: 'Blank.sol:Blank',
    });
    expect(body.length).toBeGreaterThan(2_000_000);
    // Read, parsed and checked as a submission: the address is verified already (by the first test).
    const answer = await sourcify(service, `v2/verify/${CHAIN_ID}/${blankAddress}`, body, '198.51.100.30');
    expect(answer).toEqual({ status: 409, body: sourcifyErrorWith('already_verified') });
  });
});
