/**
 * One answer at every door. Each scenario runs through Etherscan's `/api`, Sourcify's API
 * (`/sourcify`) and the explorer's Verify & Publish form, against one running service on the
 * suite's anvil, and every door must give the same outcome: what is proven, what may replace
 * what, what is final, what is listed, who may hold an address back, and what is published.
 */
import { getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Address } from '../../src/core/types.js';
import { findApiKey } from '../../src/store/apiKeys.js';
import { openStore, type Store } from '../../src/store/openStore.js';
import { insertJob } from '../../src/store/verificationJobs.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost } from '../helpers/api.js';
import { deployContract, devnetClients, freshAddress, placeCode } from '../helpers/chain.js';
import { type Built, build, standardInput } from '../helpers/contracts.js';
import { sourceJob } from '../helpers/jobs.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('doors/oneAnswer');
const RUN = `${Date.now()}-${process.pid}`;
const DOORS = ['api', 'sourcify', 'form'] as const;
type Door = (typeof DOORS)[number];

let service: RunningService;
let store: Store;
let apiKey: string;
let keyId: string;
const CHAIN_ID = 31337;

beforeAll(async () => {
  // A service of its own: its store is read and written beside it (jobs planted by other submitters).
  service = await startService({
    rpcUrl: inject('rpcUrl'),
    // Trusting the loopback proxy lets each CSV read come from a client of its own (one export per client every 10 s).
    args: ['--keyless-interval-ms', '0', '--rate-free', '10000', '--sourcify-rate', '1000', '--web-rate', '1000', '--trusted-proxies', '127.0.0.1'],
  });
  apiKey = await createKey(service.dataDir, ['--owner', 'doors']);
  store = await openStore({ dataDir: service.dataDir });
  keyId = (await findApiKey(store.db, apiKey))!.id;
});

afterAll(async () => {
  await store?.close();
  await service?.stop();
});

// ---------------------------------------------------------------- contracts

const FILE = 'Doors.sol';

/** A contract whose immutable the constructor writes (the creation code proves its value). */
const keeper = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Keeper {
    string public constant TAG = "${tag}";
    address public immutable keeper;

    constructor(address k) {
        keeper = k;
    }
}
`;

/** A contract with no immutable: its runtime code alone proves everything. */
const plain = (tag: string, comment = '') => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
${comment}
contract Plain {
    string public constant TAG = "${tag}";

    function seven() external pure returns (uint256) {
        return 7;
    }
}
`;

async function built(source: string, name: string): Promise<Built> {
  return build('0.8.28', standardInput({ [FILE]: source }, { optimizer: true }), FILE, name);
}

const { publicClient } = devnetClients(ACCOUNT);

async function runtimeOf(address: Address): Promise<Hex> {
  return (await publicClient.getCode({ address })) as Hex;
}

// ---------------------------------------------------------------- the doors

type Submitted = { receipt: string } | { refused: string };

/** Submits a standard JSON input through a door, as its clients do. */
async function submit(door: Door, address: Address, input: object, compilerVersion: string, contract: string): Promise<Submitted> {
  const inputText = JSON.stringify(input);
  if (door === 'api') {
    const answer = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      contractaddress: address,
      codeformat: 'solidity-standard-json-input',
      sourceCode: inputText,
      contractname: contract,
      compilerversion: compilerVersion,
    });
    return answer.status === '1' ? { receipt: answer.result as string } : { refused: answer.result as string };
  }
  if (door === 'sourcify') {
    const res = await fetch(`${service.baseUrl}/sourcify/v2/verify/${CHAIN_ID}/${address}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stdJsonInput: input, compilerVersion: compilerVersion.replace(/^v/, ''), contractIdentifier: contract }),
    });
    const body = (await res.json()) as { verificationId?: string; customCode?: string; message?: string };
    return res.status === 202 && body.verificationId ? { receipt: body.verificationId } : { refused: `${res.status} ${body.customCode}: ${body.message}` };
  }
  // The form, sent as the browser sends it without scripts: multipart, the key first.
  const form = new FormData();
  form.set('apikey', apiKey);
  form.set('address', address);
  form.set('format', 'json');
  form.set('compiler', compilerVersion);
  form.set('contractname', contract);
  form.set('standardjson', inputText);
  // The form takes at most 2 posts a second from one client.
  await new Promise((r) => setTimeout(r, 600));
  const res = await fetch(`${service.baseUrl}/verify`, { method: 'POST', body: form, redirect: 'manual' });
  const location = res.headers.get('location') ?? '';
  const receipt = /^\/receipt\/([0-9a-z]{50})$/.exec(location)?.[1];
  if (res.status === 303 && receipt) return { receipt };
  const page = await res.text();
  const errors = [...page.matchAll(/<p class="field-error"[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]!);
  return { refused: `${res.status} ${errors.join(' | ')}` };
}

type Verdict = 'pass' | 'fail' | 'already_verified';

/** The verdict of a receipt, read the way the door's clients read it. */
async function verdict(door: Door, receipt: string): Promise<Verdict> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (door === 'api') {
      const status = await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: receipt, apikey: apiKey });
      if (status.result === 'Pass - Verified') return 'pass';
      if (status.result === 'Already Verified') return 'already_verified';
      if (status.result !== 'Pending in queue') return 'fail';
    } else if (door === 'sourcify') {
      const job = (await (await fetch(`${service.baseUrl}/sourcify/v2/verify/${receipt}`)).json()) as {
        isJobCompleted: boolean;
        error?: { customCode: string };
      };
      if (job.isJobCompleted) return !job.error ? 'pass' : job.error.customCode === 'already_verified' ? 'already_verified' : 'fail';
    } else {
      const doc = (await (await fetch(`${service.baseUrl}/receipt/${receipt}.json`)).json()) as { state: string };
      if (doc.state !== 'pending') return doc.state as Verdict;
    }
    if (Date.now() > deadline) throw new Error(`receipt ${receipt} still pending`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function verifyThrough(door: Door, address: Address, b: Built, contract: string, input: object = b.input): Promise<Verdict> {
  const sent = await submit(door, address, input, b.compilerVersion, contract);
  if (!('receipt' in sent)) throw new Error(`${door} refused ${address}: ${sent.refused}`);
  return verdict(door, sent.receipt);
}

/** How much is proven of `address`, as every reading door tells it, in the service's words (full, partial, none). */
async function provenEverywhere(address: Address): Promise<Record<string, string>> {
  const words = (sourcify: string | null | undefined) => (sourcify === 'exact_match' ? 'full' : sourcify === 'match' ? 'partial' : 'none');
  const record = (
    (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result as Record<string, string>[]
  )[0]!;
  const contract = (await (await fetch(`${service.baseUrl}/sourcify/v2/contract/${CHAIN_ID}/${address}`)).json()) as Record<string, string | null>;
  const v1 = (await (await fetch(`${service.baseUrl}/sourcify/check-all-by-addresses?addresses=${address}&chainIds=${CHAIN_ID}`)).json()) as {
    chainIds?: { status: string }[];
  }[];
  const page = await (await fetch(`${service.baseUrl}/address/${address}`)).text();
  const pageKind = /<span class="badge (?:ok|warn)">(full|partial) match<\/span>/.exec(page)?.[1] ?? 'none';
  const pageRuntime = /runtime code: ([a-z ]+)\)/.exec(page)?.[1] ?? 'none';
  return {
    'getsourcecode MatchKind': record.MatchKind || 'none',
    'getsourcecode RuntimeMatch': record.RuntimeMatch || 'none',
    'sourcify match': words(contract.match),
    'sourcify runtimeMatch': words(contract.runtimeMatch),
    'sourcify v1': v1[0]?.chainIds?.[0]?.status === 'perfect' ? 'full' : v1[0]?.chainIds ? 'partial' : 'none',
    'page match': pageKind,
    'page runtime code': pageRuntime,
  };
}

const everywhere = (kind: string) => ({
  'getsourcecode MatchKind': kind,
  'getsourcecode RuntimeMatch': kind,
  'sourcify match': kind,
  'sourcify runtimeMatch': kind,
  'sourcify v1': kind,
  'page match': kind,
  'page runtime code': kind,
});

/** Which lists still show `address`: the explorer's list, the CSV and Sourcify's list. */
let csvReads = 0;

async function listedIn(address: Address, options: { csv?: boolean } = {}): Promise<string[]> {
  const lists: string[] = [];
  if ((await (await fetch(`${service.baseUrl}/contracts`)).text()).includes(address)) lists.push('/contracts');
  for (; options.csv !== false; ) {
    csvReads++;
    const csv = await fetch(`${service.baseUrl}/verified-contracts.csv`, { headers: { 'x-forwarded-for': `10.77.${csvReads >> 8}.${csvReads & 255}` } });
    // One export per client every few seconds: wait as the answer says.
    if (csv.status === 429) {
      await new Promise((r) => setTimeout(r, Number(csv.headers.get('retry-after') ?? '1') * 1000));
      continue;
    }
    if ((await csv.text()).includes(address)) lists.push('csv');
    break;
  }
  const sourcify = (await (await fetch(`${service.baseUrl}/sourcify/v2/contracts/${CHAIN_ID}`)).json()) as { results: { address: string }[] };
  if (sourcify.results.some((r) => r.address === getAddress(address))) lists.push('/sourcify/v2/contracts');
  return lists;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not so after ${ms} ms: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// ---------------------------------------------------------------- scenarios

describe('one answer at every door', () => {
  it.each(DOORS)('an immutable no creation code proves: verified through %s, partial (`match`) at every door', async (door) => {
    const tag = `forged ${door} ${RUN}`;
    const b = await built(keeper(tag), 'Keeper');
    const honest = (await deployContract(b.abi, b.bytecode, ['0x1111111111111111111111111111111111111111'], ACCOUNT)).address;
    // The same runtime with another keeper, placed where no constructor ever ran.
    const runtime = await runtimeOf(honest);
    const forged = freshAddress(`${RUN} forged ${door}`);
    await placeCode(forged, runtime.replace('1111111111111111111111111111111111111111', 'a77ac4e5a77ac4e5a77ac4e5a77ac4e5a77ac4e5') as Hex);

    expect(await verifyThrough(door, forged, b, `${FILE}:Keeper`)).toBe('pass');
    expect(await provenEverywhere(forged)).toEqual(everywhere('partial'));
  });

  it.each(DOORS)('a similar full match is replaced by the compilation it came from, through %s', async (door) => {
    const tag = `similar ${door} ${RUN}`;
    const b = await built(plain(tag), 'Plain');
    const original = (await deployContract(b.abi, b.bytecode, [], ACCOUNT)).address;
    expect(await verifyThrough('api', original, b, `${FILE}:Plain`)).toBe('pass');
    const copy = (await deployContract(b.abi, b.bytecode, [], ACCOUNT)).address;
    const similar = await eventually(
      async () =>
        ((await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: copy, apikey: apiKey })).result as Record<string, string>[])[0]!,
      (r) => r.SimilarMatch === original,
      'the copy is verified as a similar match',
    );
    expect(similar.MatchKind).toBe('full');

    expect(await verifyThrough(door, copy, b, `${FILE}:Plain`)).toBe('pass');
    const record = (
      (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: copy, apikey: apiKey })).result as Record<string, string>[]
    )[0]!;
    expect(record).toMatchObject({ MatchKind: 'full', SimilarMatch: '' });
  });

  it.each(DOORS)('a full match of the runtime code alone, verified through %s, is final at every door', async (door) => {
    const tag = `final ${door} ${RUN}`;
    const b = await built(plain(tag), 'Plain');
    const scratch = (await deployContract(b.abi, b.bytecode, [], ACCOUNT)).address;
    const placed = freshAddress(`${RUN} final ${door}`);
    await placeCode(placed, await runtimeOf(scratch));
    expect(await verifyThrough(door, placed, b, `${FILE}:Plain`)).toBe('pass');
    expect(await provenEverywhere(placed)).toEqual(everywhere('full'));

    const again = Object.fromEntries(
      await Promise.all(DOORS.map(async (d) => [d, await submit(d, placed, b.input, b.compilerVersion, `${FILE}:Plain`)] as const)),
    );
    expect(again).toEqual({
      api: { refused: 'Contract source code already verified' },
      sourcify: { refused: expect.stringMatching(/^409 already_verified: /) },
      form: { refused: expect.stringContaining('Contract source code already verified') },
    });
  });

  it.each(DOORS)('code replaced at an address verified through %s is unlisted everywhere', async (door) => {
    const tag = `replaced ${door} ${RUN}`;
    const b = await built(plain(tag), 'Plain');
    const address = (await deployContract(b.abi, b.bytecode, [], ACCOUNT)).address;
    expect(await verifyThrough(door, address, b, `${FILE}:Plain`)).toBe('pass');
    expect(await listedIn(address)).toEqual(['/contracts', 'csv', '/sourcify/v2/contracts']);

    await placeCode(address, '0x6001600055');
    // The pages first (they wait for their rows' checks), then every list once: the CSV is one export per client every 10 s.
    await eventually(
      () => listedIn(address, { csv: false }),
      (lists) => lists.length === 0,
      'the replaced code is unlisted from the pages',
    );
    expect(await listedIn(address)).toEqual([]);
  });

  it.each(DOORS)("another submitter's unfinished job does not hold back a submission through %s; the submitter's own does", async (door) => {
    const tag = `held ${door} ${RUN}`;
    const b = await built(plain(tag), 'Plain');
    const address = (await deployContract(b.abi, b.bytecode, [], ACCOUNT)).address;
    // A keyless client's job for the address, waiting in the queue for the next hour (behind its other jobs, say).
    const theirs = await insertJob(store.db, { request: sourceJob(address), apiKeyId: 'sourcify:10.9.8.7', notBefore: Date.now() + 3_600_000 });
    expect(await verifyThrough(door, address, b, `${FILE}:Plain`)).toBe('pass');
    expect((await store.db.selectFrom('verificationJobs').select('state').where('receipt', '=', theirs.receipt).executeTakeFirst())?.state).toBe('queued');

    // The same submitter's own unfinished job for another address refuses its duplicate.
    const other = (await deployContract(b.abi, b.bytecode, [], ACCOUNT)).address;
    const own = door === 'sourcify' ? 'sourcify:127.0.0.1' : keyId;
    const mine = await insertJob(store.db, { request: sourceJob(other), apiKeyId: own, notBefore: Date.now() + 3_600_000 });
    const duplicate = await submit(door, other, b.input, b.compilerVersion, `${FILE}:Plain`);
    expect(duplicate).toEqual({
      refused: {
        api: expect.stringContaining(`still waiting or running (receipt ${mine.receipt})`),
        sourcify: expect.stringMatching(/^429 duplicate_verification_request: /),
        form: expect.stringContaining(`still waiting or running (receipt ${mine.receipt})`),
      }[door],
    });
    await store.db.deleteFrom('verificationJobs').where('receipt', 'in', [theirs.receipt, mine.receipt]).execute();
  });

  it.each(DOORS)('planted outputSelection keys and unknown fields sent through %s are never published, and change nothing', async (door) => {
    const tag = `planted ${door} ${RUN}`;
    const deployed = await built(plain(tag), 'Plain');
    const address = (await deployContract(deployed.abi, deployed.bytecode, [], ACCOUNT)).address;
    // A comment changed: a partial match, open to a better submission.
    const edited = await built(plain(tag, '// edited'), 'Plain');
    const planted = (notice: string) => ({
      ...edited.input,
      NOTICE: notice,
      settings: { ...edited.input.settings, outputSelection: { [notice]: { '*': ['abi'] }, '*': { '*': ['abi'] } } },
    });
    expect(await verifyThrough(door, address, edited, `${FILE}:Plain`, planted('NOTICE: the owner moved to 0x1111, send funds there'))).toBe('pass');
    const published = await everythingPublished(address);
    expect(published).not.toContain('NOTICE');
    expect(published).toContain('// edited');
    expect(await (await fetch(`${service.baseUrl}/address/${address}`)).text()).not.toContain('NOTICE');

    // The same compilation with other planted text: nothing better is proven, and nothing published changes.
    expect(await verifyThrough(door, address, edited, `${FILE}:Plain`, planted('NOTICE: send funds to 0x2222'))).toBe('already_verified');
    expect(await everythingPublished(address)).toBe(published);
  });
});

/** What the doors publish of a verified contract: getsourcecode's record, Sourcify's whole contract and the downloads. */
async function everythingPublished(address: Address): Promise<string> {
  const record = (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result;
  const {
    verifiedAt: _v,
    matchId: _m,
    ...contract
  } = (await (await fetch(`${service.baseUrl}/sourcify/v2/contract/${CHAIN_ID}/${address}?fields=all`)).json()) as Record<string, unknown>;
  const input = await (await fetch(`${service.baseUrl}/address/${address}/standard-input.json`)).text();
  const file = await (await fetch(`${service.baseUrl}/address/${address}/source/1`)).text();
  return JSON.stringify({ record, contract, input, file });
}
