import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, type Envelope, sharedService } from '../helpers/api.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const { apiUrl, baseUrl, apiKey } = sharedService();
const ZERO = '0x0000000000000000000000000000000000000000';

async function send(url: string, init: RequestInit = {}): Promise<{ status: number; body: Envelope; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Envelope, headers: res.headers };
}

const notVerified = { status: '0', message: 'NOTOK', result: 'Contract source code not verified' };

describe('transport', () => {
  it('answers on /api and /api/, GET and POST', async () => {
    const q = `module=contract&action=getabi&address=${ZERO}&apikey=${apiKey}`;
    for (const path of ['/api', '/api/']) {
      expect((await send(`${baseUrl}${path}?${q}`)).body).toEqual(notVerified);
      expect((await send(`${baseUrl}${path}?${q}`, { method: 'POST' })).body).toEqual(notVerified);
    }
  });

  it('merges query and body, reads forms whatever the content type, multipart and JSON', async () => {
    const form = `action=getabi&address=${ZERO}&apikey=${apiKey}`;
    const cases: RequestInit[] = [
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: form },
      { method: 'POST', body: new Blob([form]) }, // no content type at all
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'getabi', address: ZERO, apikey: apiKey }) },
    ];
    for (const init of cases) {
      const { status, body } = await send(`${apiUrl}?module=contract`, init);
      expect(status).toBe(200);
      expect(body).toEqual(notVerified);
    }
    const multipart = new FormData();
    multipart.set('action', 'getabi');
    multipart.set('address', ZERO);
    multipart.set('apikey', apiKey);
    expect((await send(`${apiUrl}?module=contract`, { method: 'POST', body: multipart })).body).toEqual(notVerified);
  });

  it('matches the apikey parameter in any letter case and the action name too', async () => {
    for (const name of ['apikey', 'apiKey', 'APIKEY']) {
      const env = await apiGet(apiUrl, { module: 'contract', action: 'GetSourceCode', address: ZERO, [name]: apiKey });
      expect(env.status).toBe('1');
      expect(env.message).toBe('OK');
    }
  });

  it('accepts chainid of the served chain and refuses another', async () => {
    const good = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: apiKey, chainid: '31337' });
    expect(good.status).toBe('1');
    const bad = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: apiKey, chainid: '1' });
    expect(bad.status).toBe('0');
    expect(bad.result).toBe('Error! Chain id 1 is not served here; this service serves chain id 31337');
  });

  it('names unknown modules and actions', async () => {
    expect((await apiGet(apiUrl, { module: 'contract', action: 'nope' })).result).toBe('Error! Unknown action "nope" for module contract');
    expect((await apiGet(apiUrl, { module: 'contract' })).result).toBe('Error! Missing action parameter');
    expect((await apiGet(apiUrl, { module: 'account', action: 'balance' })).status).toBe('0');
  });

  it('tells clients to reuse an idle connection for 5 s and keeps it open past that: a request after 6 s idle is answered on it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (path: string) =>
      new Promise<{ status: number; keepAlive: string | undefined; connection: string | undefined }>((resolve, reject) => {
        const r = request(`${baseUrl}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive'] as string | undefined, connection: res.headers.connection }),
          );
        });
        r.on('socket', (socket) => sockets.add(socket));
        r.on('error', reject);
        r.end();
      });
    try {
      for (const path of ['/health', `/api?module=contract&action=getabi&address=${ZERO}&apikey=${apiKey}`, '/contracts', '/sourcify/v2/contracts/31337']) {
        expect(await get(path), path).toEqual({ status: 200, keepAlive: 'timeout=5', connection: 'keep-alive' });
      }
      expect(sockets.size).toBe(1);
      // A client that ignores the hint (or a late one) still finds the connection open a while longer.
      await new Promise((r) => setTimeout(r, 6000));
      expect(await get('/health')).toMatchObject({ status: 200 });
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('opens CORS for GET', async () => {
    const { headers } = await send(`${apiUrl}?module=contract&action=getabi&address=${ZERO}&apikey=${apiKey}`, { headers: { origin: 'https://dapp.example' } });
    expect(headers.get('access-control-allow-origin')).toBe('*');
  });

  it('getabi and getsourcecode: address checks and the unverified record', async () => {
    expect(await apiGet(apiUrl, { module: 'contract', action: 'getabi', address: '0x12', apikey: apiKey })).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Error! Invalid address format',
    });
    const record = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: apiKey });
    expect(record).toEqual({
      status: '1',
      message: 'OK',
      result: [
        {
          SourceCode: '',
          ABI: 'Contract source code not verified',
          ContractName: '',
          CompilerVersion: '',
          OptimizationUsed: '',
          Runs: '',
          ConstructorArguments: '',
          EVMVersion: 'Default',
          Library: '',
          LicenseType: 'Unknown',
          Proxy: '0',
          Implementation: '',
          SwarmSource: '',
        },
      ],
    });
  });
});

describe('verifysourcecode and checkverifystatus: bad input', () => {
  const base = {
    module: 'contract',
    action: 'verifysourcecode',
    contractaddress: '0x000000000000000000000000000000000000dEaD',
    sourceCode: 'contract A {}',
    contractname: 'A',
    compilerversion: 'v0.8.28+commit.7893614a',
  };
  const submit = (fields: Record<string, string>, key: string | null = apiKey) =>
    apiPost(apiUrl, key === null ? { ...base, ...fields } : { ...base, apikey: key, ...fields });

  it('requires POST and a valid key', async () => {
    expect((await apiGet(apiUrl, { ...base, apikey: apiKey })).result).toBe('This action (verifysourcecode) requires a POST request');
    expect(await submit({}, null)).toEqual({ status: '0', message: 'NOTOK', result: 'Invalid API Key' });
    expect(await submit({}, 'NOTAKEY')).toEqual({ status: '0', message: 'NOTOK', result: 'Invalid API Key' });
  });

  it.each([
    [{ contractaddress: '' }, 'Missing or empty parameter: contractaddress'],
    [{ contractaddress: '0xabc' }, 'Error! Invalid address format'],
    [{ sourceCode: '' }, 'Missing or empty parameter: sourceCode'],
    [
      { codeformat: 'vyper' },
      'Invalid parameter codeformat: "vyper" is not one of solidity-single-file, solidity-standard-json-input, vyper-json, vyper-single-file',
    ],
    [{ contractname: '' }, 'Missing or empty parameter: contractname'],
    [
      { codeformat: 'solidity-standard-json-input', sourceCode: '{}', contractname: 'A' },
      'Invalid parameter contractname: for standard JSON input it must be path:Name, e.g. contracts/Token.sol:Token',
    ],
    [
      { codeformat: 'solidity-standard-json-input', sourceCode: 'not json', contractname: 'a.sol:A' },
      'Invalid parameter sourceCode: the standard JSON input is not a JSON object',
    ],
    [
      { compilerversion: 'v0.8.28+commit.7893614b' },
      'Invalid parameter compilerversion: "v0.8.28+commit.7893614b" is not a solc release; did you mean v0.8.28+commit.7893614a?',
    ],
    [
      { compilerversion: 'v0.9.99' },
      'Invalid parameter compilerversion: "v0.9.99" does not name a commit of solc 0.9.99: send its whole long version, with the 8-digit commit (like v0.8.26+commit.8a97fa7a)',
    ],
    [{ compilerversion: 'latest' }, 'Invalid parameter compilerversion: "latest" is not a solc long version like v0.8.26+commit.8a97fa7a'],
    [{ compilerversion: 'v0.4.10+commit.f0d539ae' }, 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
    [{ runs: 'many' }, 'Invalid parameter runs: expected a whole number from 0 to 4294967295'],
    [{ optimizationUsed: 'yes' }, 'Invalid parameter optimizationused: expected 0 or 1'],
    [{ constructorArguements: '0xzz' }, 'Invalid parameter constructorArguements: expected hex bytes'],
    [{ evmversion: 'mars' }, 'Invalid parameter evmversion: unknown EVM version "mars"'],
    [
      { evmversion: 'cancun', compilerversion: 'v0.8.18+commit.87f61d96' },
      'Invalid parameter evmversion: compiler v0.8.18+commit.87f61d96 does not know the EVM version cancun',
    ],
    [{ licenseType: '15' }, 'Invalid parameter licenseType: expected a licence code from 1 to 14'],
    [{ libraryname1: 'L' }, 'Invalid parameter libraryname1: it has no libraryaddress1 to go with it'],
    [{ libraryaddress2: '0x000000000000000000000000000000000000dEaD' }, 'Invalid parameter libraryaddress2: it has no libraryname2 to go with it'],
    [{ libraryname1: 'L', libraryaddress1: '0x1234' }, 'Invalid parameter libraryaddress1: not a 20-byte hex address'],
    [
      { libraryname11: 'L', libraryaddress11: '0x000000000000000000000000000000000000dEaD' },
      'Invalid parameter libraryname11: at most 10 libraries are accepted',
    ],
  ])('%j → %s', async (fields, text) => {
    expect(await submit(fields as Record<string, string>)).toEqual({ status: '0', message: 'NOTOK', result: text });
  });

  it('reads a compiler version whose + arrived as a space (a form-encoding slip) as the same version', async () => {
    expect((await submit({ compilerversion: 'v0.8.28 commit.7893614a' })).result).toMatch(
      /^Unable to locate ContractCode at 0x000000000000000000000000000000000000dead: the node had no code there at block \d+ \(still none after waiting 3 s\)$/,
    );
  });

  it('checkverifystatus: malformed and unknown receipts', async () => {
    expect((await apiGet(apiUrl, { module: 'contract', action: 'checkverifystatus', guid: 'abc' })).result).toBe(
      'Invalid parameter guid: a receipt is 50 lower-case letters and digits',
    );
    expect(await apiGet(apiUrl, { module: 'contract', action: 'checkverifystatus', guid: 'a'.repeat(50) })).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'Unknown UID',
    });
    // Foundry POSTs its status checks.
    expect((await apiPost(apiUrl, { module: 'contract', action: 'checkverifystatus', guid: 'b'.repeat(50) })).result).toBe('Unknown UID');
  });
});

describe('a service with default limits', () => {
  let service: RunningService;
  let key: string;
  beforeAll(async () => {
    service = await startService({ rpcUrl: (await import('vitest')).inject('rpcUrl'), args: ['--body-limit', '4096'] });
    key = await createKey(service.dataDir);
  });
  afterAll(async () => service?.stop());

  it('keyless reads get the keyless note, then the rate limit within 5 s; keyed reads say OK', async () => {
    const first = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO });
    expect(first.status).toBe('1');
    expect(first.message).toBe('OK-Missing/Invalid API Key, rate limit of 1/5sec applied');
    const second = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: 'WRONG' });
    expect(second).toEqual({ status: '0', message: 'NOTOK', result: 'Max rate limit reached, please use API Key for higher rate limit' });
    const keyed = await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address: ZERO, apikey: key });
    expect(keyed.message).toBe('OK');
  });

  it('a body over the limit gets a text, not a dropped connection', async () => {
    const res = await fetch(service.apiUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `module=contract&action=verifysourcecode&apikey=${key}&sourceCode=${'x'.repeat(10_000)}`,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: '0', message: 'NOTOK', result: 'Request body too large: the limit is 4096 bytes' });
  });
});
