/**
 * Generated requests against a running service: every action, GET/POST and other methods,
 * every body encoding and a share of raw HTTP nobody should send. Deterministic for a seed
 * (SOLPROOF_FUZZ_SEED), bounded in count (SOLPROOF_FUZZ_REQUESTS, default 10,000) and sent
 * only to 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { type Envelope, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { httpRequest, rawRequest } from '../limits/rawHttp.js';

const REQUESTS = Number(process.env.SOLPROOF_FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.SOLPROOF_FUZZ_SEED ?? 20261122);
const CONCURRENCY = 16;
const ACCOUNT = deployerAccount('fuzz/apiFuzz');
const BODY_LIMIT = 16 * 1024 * 1024;

/** The address the before/after reads come from (the service believes X-Forwarded-For from 127.0.0.1). */
const CHECKER = { 'x-forwarded-for': '192.0.2.200' };

async function apiGet(apiUrl: string, params: Record<string, string>, headers: Record<string, string>): Promise<Envelope> {
  const res = await fetch(`${apiUrl}?${new URLSearchParams(params)}`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}

/** mulberry32: small, fast, and the same sequence for the same seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface World {
  port: number;
  apiUrl: string;
  keys: { free: string; pro: string };
  verified: string[];
  unverified: string[];
  receipts: string[];
  compilerVersion: string;
}

interface Generated {
  /** What was sent, short enough to print. */
  label: string;
  kind: 'fetch' | 'raw';
  url?: string;
  init?: RequestInit;
  raw?: Buffer;
}

const ACTIONS = ['getabi', 'getsourcecode', 'verifysourcecode', 'checkverifystatus', 'verifyproxycontract', 'checkproxyverification'];

function generator(world: World, random: () => number) {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => random() < p;
  const hex = (bytes: number) => Array.from({ length: bytes * 2 }, () => '0123456789abcdef'[int(16)]).join('');
  const alnum = (n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789') => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  const recase = (s: string) => (chance(0.8) ? s : Array.from(s, (c) => (chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join(''));

  const oddValues = [
    '',
    ' ',
    '0',
    '1',
    '-1',
    'true',
    'null',
    'NaN',
    '1e309',
    '[]',
    '{}',
    '\u0000',
    '%00',
    '%',
    '%%',
    '%E0%A4%A',
    '\ud800',
    '\u202e',
    '💥',
    "' OR 1=1 --",
    '"; drop table api_keys; --',
    '../../etc/passwd',
    'file:///etc/passwd',
    'http://169.254.169.254/',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    '\r\n\r\n',
    '\t',
    '0x',
    `0X${hex(20)}`,
    ' '.repeat(1000),
  ];
  const longValue = () => pick(['a', '0', 'é', '\u0000', '{', '[']).repeat(pick([1_000, 10_000, 100_000]));

  const address = (): string => {
    const r = random();
    if (r < 0.2) return pick(world.verified);
    if (r < 0.35) return pick(world.unverified);
    if (r < 0.5) return `0x${hex(20)}`;
    if (r < 0.55) return '0x0000000000000000000000000000000000000000';
    if (r < 0.6) return `0x${hex(20).toUpperCase()}`;
    if (r < 0.7) return `0x${hex(int(40))}`;
    if (r < 0.75) return hex(20);
    if (r < 0.8) return longValue();
    return pick(oddValues);
  };
  const guid = (): string => {
    const r = random();
    if (r < 0.25) return pick(world.receipts);
    if (r < 0.5) return alnum(50);
    if (r < 0.6) return alnum(50).toUpperCase();
    if (r < 0.7) return alnum(pick([49, 51, 0, 1, 200]));
    if (r < 0.75) return longValue();
    return pick(oddValues);
  };
  const compilerVersion = (): string =>
    pick([
      world.compilerVersion,
      world.compilerVersion,
      'v0.8.26+commit.8a97fa7a',
      'v0.4.11+commit.68ef5810',
      'v0.8.20+commit.a1b79de6',
      '0.8.28',
      'latest',
      'v0.8.28+commit.00000000',
      'v99.99.999+commit.deadbeef',
      'v0.8.28-nightly.2024.1.1+commit.7893614a',
      ...oddValues,
    ]);
  const source = (): string => {
    const r = random();
    if (r < 0.2) return 'pragma solidity ^0.8.0; contract A { uint public x; }';
    if (r < 0.3) return 'pragma solidity ^0.8.0; contract A { this is not solidity }';
    if (r < 0.45) return JSON.stringify({ language: 'Solidity', sources: { 'a.sol': { content: 'contract A {}' } } });
    if (r < 0.5) return JSON.stringify({ language: 'Solidity', sources: { 'a.sol': { urls: ['/etc/passwd', 'http://127.0.0.1:1/'] } } });
    if (r < 0.55) return JSON.stringify({ language: pick(['Solidity', 'Yul', 'Vyper', 42]), sources: pick([{}, [], null, 'x', { 'a.sol': 'x' }]) });
    if (r < 0.6) return `{${JSON.stringify({ language: 'Solidity', sources: { 'a.sol': { content: 'contract A {}' } } })}}`;
    if (r < 0.65) return `{"language":"Solidity","sources":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`;
    if (r < 0.68) return 'contract A {}\n'.repeat(pick([1_000, 50_000]));
    if (r < 0.75) return longValue();
    return pick(oddValues);
  };

  /** A parameter's value: usually of the right shape, often not. */
  const valueFor = (name: string): unknown => {
    if (chance(0.1)) return pick(oddValues);
    switch (name) {
      case 'address':
      case 'contractaddress':
      case 'expectedimplementation':
        return address();
      case 'guid':
        return guid();
      case 'sourceCode':
        return source();
      case 'compilerversion':
        return compilerVersion();
      case 'codeformat':
        return pick(['solidity-single-file', 'solidity-standard-json-input', 'SOLIDITY-SINGLE-FILE', 'vyper', '']);
      case 'contractname':
        return pick(['A', 'a.sol:A', '/a.sol:A', 'b.sol:A', 'A B', 'a.sol:', ':A', 'A'.repeat(2000), '0A']);
      case 'optimizationUsed':
      case 'viaIR':
        return pick(['0', '1', 'true', 'false', 'yes', '2', '']);
      case 'runs':
        return pick(['200', '0', '4294967295', '4294967296', '-1', '1e3', '99999999999999999999', '']);
      case 'constructorArguements':
      case 'constructorArguments':
        return pick(['', '0x', hex(32), `0x${hex(64)}`, '0x123', 'zz', hex(int(5000))]);
      case 'evmversion':
        return pick(['', 'default', 'london', 'paris', 'cancun', 'prague', 'osaka', 'mars', 'CANCUN']);
      case 'licenseType':
        return pick(['', '0', '1', '3', '12', '14', '15', 'MIT', '3.0', '-3']);
      case 'chainid':
        return pick(['31337', '31337', '1', '0', '-1', 'x', '31337 ', '9'.repeat(100)]);
      default:
        return pick(oddValues);
    }
  };

  const actionParams: Record<string, string[]> = {
    getabi: ['address'],
    getsourcecode: ['address'],
    verifysourcecode: [
      'contractaddress',
      'sourceCode',
      'codeformat',
      'contractname',
      'compilerversion',
      'optimizationUsed',
      'runs',
      'constructorArguements',
      'constructorArguments',
      'evmversion',
      'licenseType',
      'viaIR',
    ],
    checkverifystatus: ['guid'],
    verifyproxycontract: ['address', 'expectedimplementation'],
    checkproxyverification: ['guid'],
  };

  function params(): { fields: Record<string, unknown>; action: string } {
    const fields: Record<string, unknown> = {};
    const r = random();
    if (r < 0.9) fields[recase('module')] = recase('contract');
    else if (r < 0.95) fields.module = pick(['logs', 'account', 'proxy', '', longValue()]);
    const action = chance(0.9) ? pick(ACTIONS) : pick(['', 'getAbi2', 'verify', 'getlogs', longValue(), ...oddValues]);
    if (!chance(0.03)) fields[recase('action')] = recase(action);
    for (const name of (Object.hasOwn(actionParams, action.toLowerCase()) ? actionParams[action.toLowerCase()] : undefined) ?? ['address', 'guid']) {
      if (chance(0.85)) fields[recase(name)] = valueFor(name);
    }
    if (action === 'verifysourcecode' && chance(0.4)) {
      for (let i = 1, n = pick([1, 2, 10, 11, 25]); i <= n; i++) {
        if (chance(0.9)) fields[`libraryname${i}`] = pick(['L', `L${i}`, 'a.sol:L', 'c.sol:L', '', 'L L', longValue()]);
        if (chance(0.9)) fields[`libraryaddress${i}`] = address();
      }
    }
    const k = random();
    const keyName = pick(['apikey', 'apiKey', 'APIKEY', 'ApiKey']);
    if (k < 0.55) fields[keyName] = world.keys.free;
    else if (k < 0.65) fields[keyName] = world.keys.pro;
    else if (k < 0.75) fields[keyName] = alnum(34, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    else if (k < 0.8) fields[keyName] = chance(0.5) ? longValue() : ` ${world.keys.free.toLowerCase()} `;
    if (chance(0.2)) fields.chainid = valueFor('chainid');
    for (let i = 0, extra = int(3); i < extra; i++) fields[pick(['__proto__', 'constructor', 'x', 'toString', alnum(8)])] = pick(oddValues);
    return { fields, action };
  }

  const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  const toQuery = (fields: Record<string, unknown>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, asText(v)])).toString();

  function fetchRequest(): Generated {
    const { fields, action } = params();
    // Submissions are mostly POSTed, as clients do, so that their fields get looked at.
    const submission = action === 'verifysourcecode' || action === 'verifyproxycontract';
    const method = chance(0.12) ? pick(['PUT', 'PATCH', 'DELETE']) : chance(submission ? 0.85 : 0.5) ? 'POST' : 'GET';
    const path = pick(['/api', '/api/']);
    // A header value cannot carry control characters: those values are left to the body.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this filters out
    const headerSafe = (v: string) => !/[\r\n\u0000-\u001f\u007f-\uffff]/.test(v);
    const headers: Record<string, string> = { 'x-forwarded-for': chance(0.97) ? `10.${int(4)}.${int(256)}.${int(256)}` : pick(oddValues.filter(headerSafe)) };
    // Long values go in the body: a request line over 16 KB is a transport refusal, covered by raw requests.
    const inQuery: Record<string, unknown> = {};
    const inBody: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      const long = asText(v).length > 2000;
      if (method === 'GET' || method === 'DELETE' ? !long : !long && chance(0.3)) inQuery[k] = v;
      else inBody[k] = v;
    }
    const query = toQuery(inQuery);
    const url = `http://127.0.0.1:${world.port}${path}${query ? `?${query}` : ''}`;
    let body: BodyInit | undefined;
    let encoding = 'query';
    if (method !== 'GET' && (Object.keys(inBody).length > 0 || chance(0.3))) {
      encoding = chance(0.01) ? 'huge' : pick(['form', 'form', 'multipart', 'json', 'json', 'text', 'none', 'garbage', 'latin1', 'utf16', 'wrongtype']);
      switch (encoding) {
        case 'form':
          headers['content-type'] = pick(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8']);
          body = toQuery(inBody);
          break;
        case 'multipart': {
          const form = new FormData();
          for (const [k, v] of Object.entries(inBody)) {
            if (chance(0.2)) form.append(k, new Blob([asText(v)]), `${alnum(5)}.sol`);
            else form.append(k, asText(v));
          }
          body = form;
          break;
        }
        case 'json': {
          headers['content-type'] = 'application/json';
          const json: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(inBody)) json[k] = chance(0.1) ? pick([42, true, null, [v], { v }, 1e308]) : v;
          body = chance(0.05) ? `${JSON.stringify(json).slice(0, -1)},` : JSON.stringify(json);
          break;
        }
        case 'text':
          headers['content-type'] = pick(['text/plain', 'text/html', 'application/xml']);
          body = toQuery(inBody);
          break;
        case 'none':
          body = new Blob([toQuery(inBody)]);
          break;
        case 'garbage': {
          headers['content-type'] = pick([
            'application/octet-stream',
            'application/json',
            'multipart/form-data; boundary=zz',
            'a/b/c',
            ';;;',
            'application/x-www-form-urlencoded',
          ]);
          body = new Uint8Array(int(65_536)).map(() => int(256));
          break;
        }
        case 'latin1':
          headers['content-type'] = 'application/x-www-form-urlencoded; charset=latin1';
          body = new Uint8Array(
            Buffer.from(
              Object.entries(inBody)
                .map(([k, v]) => `${k}=${asText(v)}`)
                .join('&'),
              'latin1',
            ),
          );
          break;
        case 'utf16':
          headers['content-type'] = 'application/json; charset=utf-16';
          body = new Uint8Array(Buffer.from(JSON.stringify(inBody), 'utf16le'));
          break;
        case 'wrongtype':
          headers['content-type'] = 'application/json';
          body = toQuery(inBody);
          break;
        case 'huge': {
          // Mostly under the limit (megabytes of source), now and then just over it.
          const size = chance(0.2) ? BODY_LIMIT + int(1024 * 1024) : int(4 * 1024 * 1024);
          headers['content-type'] = 'application/x-www-form-urlencoded';
          body = `${toQuery(inBody)}&sourceCode=${'x'.repeat(size)}`;
          break;
        }
      }
    }
    return {
      kind: 'fetch',
      label: `${method} ${path} ${action} ${encoding}`,
      url,
      init: { method, headers, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit,
    };
  }

  function rawRequestBytes(): Generated {
    const q = toQuery(params().fields);
    const variant = pick(['longline', 'longheader', 'garbage', 'badchunk', 'badurl', 'http10', 'badheader', 'pipelined', 'partial']);
    let raw: Buffer;
    switch (variant) {
      case 'longline':
        raw = httpRequest('GET', `/api?${q}&pad=${'p'.repeat(17_000 + int(50_000))}`);
        break;
      case 'longheader':
        raw = httpRequest('POST', `/api?${q}`, { 'x-pad': 'p'.repeat(17_000 + int(10_000)) }, 'a=b');
        break;
      case 'garbage':
        raw = Buffer.from(new Uint8Array(1 + int(2048)).map(() => int(256)));
        break;
      case 'badchunk':
        raw = httpRequest('POST', `/api?${q}`, { 'transfer-encoding': 'chunked' }, `${pick(['zz', '-1', 'fffffffffffffffff', '5'])}\r\nabc\r\n0\r\n\r\n`);
        break;
      // Malformed encodings of the API's own path (other paths are not the API's to answer).
      case 'badurl':
        raw = httpRequest('GET', pick([`/api%?${q}`, `/api%E0%A4%A?${q}`, `/api?${q}%`, `/api?%${q}`]));
        break;
      case 'http10':
        raw = Buffer.from(`GET /api?${q} HTTP/1.0\r\n\r\n`, 'latin1');
        break;
      case 'badheader':
        raw = httpRequest('POST', `/api?${q}`, { 'content-type': '\u0001\u0002', 'content-length': pick(['abc', '-5', '99999999999999999999']) }, 'x');
        break;
      case 'pipelined':
        raw = Buffer.concat([httpRequest('GET', `/api?${q}`), httpRequest('GET', `/api?${q}`)]);
        break;
      default:
        raw = httpRequest('POST', `/api?${q}`, { 'content-length': '1000' }, 'module=contract&action=ge');
        break;
    }
    return { kind: 'raw', label: `raw ${variant}`, raw };
  }

  return (): Generated => (chance(0.06) ? rawRequestBytes() : fetchRequest());
}

function checkEnvelope(status: number | null, text: string): string | null {
  if (status !== 200) return `HTTP ${status}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 120)}`;
  }
  const env = body as Partial<Envelope> | null;
  if (!env || typeof env !== 'object') return 'not an object';
  if (env.status !== '0' && env.status !== '1') return `status ${JSON.stringify(env.status)}`;
  if (typeof env.message !== 'string') return 'message is not a string';
  if (!('result' in env) || env.result === undefined) return 'no result';
  // Clients count any status "1" as success: nothing else may carry it.
  if (env.status === '1' && env.message !== 'OK' && !env.message.startsWith('OK-')) return `status 1 with message ${env.message}`;
  return null;
}

describe('fuzzing the API', () => {
  let service: RunningService;
  const world = {} as World;
  const before = new Map<string, string>();

  beforeAll(async () => {
    service = await startService({
      rpcUrl: inject('rpcUrl'),
      args: [
        // High limits, so that answers are about the requests rather than the rate limiter; clients
        // are spread over forwarded addresses so no invalid-key cool-down covers the whole run.
        '--keyless-interval-ms',
        '0',
        '--rate-free',
        '1000000',
        '--rate-pro',
        '1000000',
        '--trusted-proxies',
        '127.0.0.1',
        // Bounded background work: a few accepted jobs per key, compiled one at a time, no downloads.
        '--daily-verify-quota',
        '20',
        '--daily-proxy-quota',
        '20',
        '--code-wait-ms',
        '0',
        '--job-concurrency',
        '1',
        '--npm-registry',
        '',
        // The verified set is compared before and after: no follower verifying other files' copies meanwhile.
        '--follow-chain',
        'false',
      ],
    });
    const [free, pro] = await Promise.all([createKey(service.dataDir), createKey(service.dataDir, ['--tier', 'pro'])]);
    Object.assign(world, { port: service.port, apiUrl: service.apiUrl, keys: { free, pro }, verified: [], unverified: [], receipts: [] });

    const sources = [0, 1, 2].map(
      (i) =>
        `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Fuzz${i} { uint256 public value = ${i}; event Set(uint256 v); function set(uint256 v) external { value = v; emit Set(v); } }\n`,
    );
    for (const [i, source] of sources.entries()) {
      const built = await build('0.8.28', standardInput({ [`Fuzz${i}.sol`]: source }), `Fuzz${i}.sol`, `Fuzz${i}`);
      world.compilerVersion = built.compilerVersion;
      const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
      if (i === 2) {
        world.unverified.push(address);
        continue;
      }
      const fields: Record<string, string> =
        i === 0
          ? { contractaddress: address, sourceCode: source, contractname: `Fuzz${i}`, compilerversion: built.compilerVersion, optimizationUsed: '0' }
          : {
              contractaddress: address,
              sourceCode: JSON.stringify(built.input),
              codeformat: 'solidity-standard-json-input',
              contractname: `Fuzz${i}.sol:Fuzz${i}`,
              compilerversion: built.compilerVersion,
            };
      const { submit, status } = await verifyAndWait(service.apiUrl, pro, fields);
      expect(status?.result, JSON.stringify(submit)).toBe('Pass - Verified');
      world.verified.push(address);
      world.receipts.push(submit.result as string);
    }
    for (const address of world.verified) {
      for (const action of ['getsourcecode', 'getabi']) {
        before.set(`${action} ${address}`, JSON.stringify(await apiGet(service.apiUrl, { module: 'contract', action, address, apikey: pro }, CHECKER)));
      }
    }
  });
  afterAll(async () => service?.stop());

  it(`${REQUESTS} generated requests: every answer HTTP 200 with a well-formed envelope, the service alive, verified contracts unchanged`, async () => {
    // Generated as sent (bodies of megabytes are not kept around); the i-th request is the same for a seed.
    const next = generator(world, prng(SEED));
    const failures: string[] = [];
    const byStatus = new Map<string, number>();
    const byText = new Map<string, number>();
    const byKind = new Map<string, number>();
    let slowest = 0;
    let index = 0;
    const started = Date.now();

    const tally = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    const record = (g: Generated, status: number | null, text: string, ms: number) => {
      slowest = Math.max(slowest, ms);
      tally(
        byKind,
        g.label
          .split(' ')
          .slice(0, g.kind === 'raw' ? 2 : 1)
          .join(' ') + (g.kind === 'fetch' ? ` ${g.label.split(' ').pop()}` : ''),
      );
      const problem = checkEnvelope(status, text);
      if (problem) {
        failures.push(`${g.label}: ${problem}`);
        tally(byStatus, `failure`);
        return;
      }
      const env = JSON.parse(text) as Envelope;
      tally(byStatus, `status ${env.status}`);
      const result = typeof env.result === 'string' ? env.result : Array.isArray(env.result) ? '(record)' : '(value)';
      tally(
        byText,
        env.status === '1'
          ? `OK ${result.length === 50 && /^[a-z0-9]+$/.test(result) ? '(receipt)' : result.startsWith('[') ? '(abi)' : result.slice(0, 40)}`
          : result.replace(/"[^"]*"|0x[0-9a-fA-F]+|\d+/g, '…').slice(0, 90),
      );
    };

    const worker = async () => {
      for (;;) {
        if (index >= REQUESTS) return;
        index++;
        const g = next();
        const t = Date.now();
        if (g.kind === 'raw') {
          const answer = await rawRequest(world.port, g.raw!, 30_000);
          record(g, answer.status, answer.error ? `(${answer.error}) ${answer.body}` : answer.body, Date.now() - t);
          continue;
        }
        try {
          const res = await fetch(g.url!, { ...g.init, signal: AbortSignal.timeout(30_000) });
          record(g, res.status, await res.text(), Date.now() - t);
        } catch (e) {
          const err = e as Error & { cause?: { code?: string } };
          record(g, null, `${err.name}: ${err.cause?.code ?? err.message}`, Date.now() - t);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsed = Date.now() - started;

    const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
    console.log(
      [
        `fuzz: ${REQUESTS} requests (seed ${SEED}, ${CONCURRENCY} at a time) in ${(elapsed / 1000).toFixed(1)} s, ${Math.round(REQUESTS / (elapsed / 1000))} req/s, slowest ${slowest} ms`,
        `answers: ${sorted(byStatus)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}`,
        `by method/encoding: ${sorted(byKind)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
        'most frequent texts:',
        ...sorted(byText)
          .slice(0, 40)
          .map(([k, v]) => `  ${String(v).padStart(5)}  ${k}`),
      ].join('\n'),
    );
    if (failures.length) console.log(`failures (${failures.length}):\n${failures.slice(0, 30).join('\n')}`);

    expect(failures).toEqual([]);
    expect(service.process.exitCode).toBeNull();
    expect(service.process.signalCode).toBeNull();
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
    // Asked from an address of its own: invalid keys sent by the run may have started a cool-down for others.
    for (const [probe, text] of before) {
      const [action, address] = probe.split(' ') as [string, string];
      expect(JSON.stringify(await apiGet(service.apiUrl, { module: 'contract', action, address, apikey: world.keys.pro }, CHECKER)), probe).toBe(text);
    }
    expect(service.output()).not.toMatch(/"level":(50|60)/);
  });
});
