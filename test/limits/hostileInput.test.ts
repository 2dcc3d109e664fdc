import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiGet, apiPost, type Envelope } from '../helpers/api.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { httpRequest, rawRequest } from './rawHttp.js';

const DEAD = '0x000000000000000000000000000000000000dEaD';
const V0828 = 'v0.8.28+commit.7893614a';
const LIMIT = 16 * 1024 * 1024;

let service: RunningService;
let key: string;

beforeAll(async () => {
  // A service of its own: invalid keys sent here must not start a cool-down on the suite's shared one.
  service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--keyless-interval-ms', '0', '--rate-free', '100000', '--code-wait-ms', '200'] });
  key = await createKey(service.dataDir);
});
afterAll(async () => service?.stop());

const fail = (result: string): Envelope => ({ status: '0', message: 'NOTOK', result });

describe('every action names the problem with its parameters', () => {
  const longText = 'a'.repeat(200_000);
  const addressCases: Array<[string, string]> = [
    ['', 'Missing or empty parameter: address'],
    ['0x12', 'Error! Invalid address format'],
    [`0x${'1'.repeat(41)}`, 'Error! Invalid address format'],
    ['1'.repeat(40), 'Error! Invalid address format'],
    [`0x${'g'.repeat(40)}`, 'Error! Invalid address format'],
    [`0x${'1'.repeat(38)}\u00e9`, 'Error! Invalid address format'],
    [longText, 'Error! Invalid address format'],
  ];

  it.each(['getabi', 'getsourcecode'])('%s: missing, malformed and oversized addresses', async (action) => {
    for (const [address, text] of addressCases) {
      // Oversized values go in the body: a request line has its own limit (tested below).
      expect(await apiPost(service.apiUrl, { module: 'contract', action, address, apikey: key }), address.slice(0, 50)).toEqual(fail(text));
    }
    expect(await apiGet(service.apiUrl, { module: 'contract', action, apikey: key })).toEqual(fail('Missing or empty parameter: address'));
  });

  it('checkverifystatus: a GUID that is not 50 lower-case letters and digits', async () => {
    const invalid = 'Invalid parameter guid: a receipt is 50 lower-case letters and digits';
    for (const guid of ['abc', 'A'.repeat(50), 'a'.repeat(49), 'a'.repeat(51), `${'a'.repeat(49)}-`, `${'a'.repeat(49)}\u00e4`, longText]) {
      expect(await apiPost(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid, apikey: key })).toEqual(fail(invalid));
    }
    expect(await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: '', apikey: key })).toEqual(
      fail('Missing or empty parameter: guid'),
    );
    expect(await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: '0'.repeat(50), apikey: key })).toEqual(fail('Unknown UID'));
  });

  it('verifyproxycontract and checkproxyverification: key, POST, address and GUID problems are named', async () => {
    const post = (fields: Record<string, string>) => apiPost(service.apiUrl, { module: 'contract', ...fields });
    expect(await post({ action: 'verifyproxycontract', address: DEAD })).toEqual(fail('Invalid API Key'));
    expect(await apiGet(service.apiUrl, { module: 'contract', action: 'verifyproxycontract', address: DEAD, apikey: key })).toEqual(
      fail('This action (verifyproxycontract) requires a POST request'),
    );
    for (const [fields, pattern] of [
      [{}, /address/],
      [{ address: '0x12' }, /address/i],
      [{ address: longText }, /address/i],
      [{ address: DEAD, expectedimplementation: '0xnothex' }, /expectedimplementation/],
    ] as const) {
      const env = await post({ action: 'verifyproxycontract', apikey: key, ...fields });
      expect(env.status).toBe('0');
      expect(env.result).toMatch(pattern);
    }
    for (const guid of ['', 'abc', 'Z'.repeat(50), longText]) {
      const env = await post({ action: 'checkproxyverification', guid, apikey: key });
      expect(env.status).toBe('0');
      expect(env.result).toMatch(/guid/);
    }
  });

  it('unknown or missing module and action, another chain', async () => {
    expect(await apiGet(service.apiUrl, { action: 'getabi' })).toEqual(fail('Error! Missing module parameter (module=contract)'));
    expect(await apiGet(service.apiUrl, { module: 'contract' })).toEqual(fail('Error! Missing action parameter'));
    expect(await apiGet(service.apiUrl, { module: 'contract', action: 'x'.repeat(10_000) })).toEqual(
      fail(`Error! Unknown action "${'x'.repeat(64)}" for module contract`),
    );
    expect((await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address: DEAD, chainid: '9'.repeat(500) })).result).toBe(
      `Error! Chain id ${'9'.repeat(32)} is not served here; this service serves chain id 31337`,
    );
  });
});

describe('verifysourcecode: hostile fields are refused at submission, naming the field', () => {
  const base = {
    module: 'contract',
    action: 'verifysourcecode',
    contractaddress: DEAD,
    sourceCode: 'contract A {}',
    contractname: 'A',
    compilerversion: V0828,
  };
  const submit = (fields: Record<string, string>) => apiPost(service.apiUrl, { ...base, apikey: key, ...fields });
  const std = (input: unknown, extra: Record<string, string> = {}) => ({
    codeformat: 'solidity-standard-json-input',
    contractname: 'a.sol:A',
    sourceCode: typeof input === 'string' ? input : JSON.stringify(input),
    ...extra,
  });
  const good = { language: 'Solidity', sources: { 'a.sol': { content: 'contract A {}' } } };
  const libs = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        [`libraryname${i + 1}`, `L${i}`],
        [`libraryaddress${i + 1}`, DEAD],
      ]).flat(),
    );

  it.each([
    ['standard JSON that is not JSON', std('{"language": "Solidity", sources: '), 'Invalid parameter sourceCode: the standard JSON input is not a JSON object'],
    ['standard JSON that is an array', std([good]), 'Invalid parameter sourceCode: the standard JSON input is not a JSON object'],
    ['no sources', std({ language: 'Solidity' }), 'Invalid parameter sourceCode: the standard JSON input has no "sources"'],
    ['empty sources', std({ language: 'Solidity', sources: {} }), 'Invalid parameter sourceCode: the standard JSON input has no "sources"'],
    [
      'urls instead of content',
      std({ language: 'Solidity', sources: { 'a.sol': { urls: ['/etc/passwd'] } } }),
      'Invalid parameter sourceCode: source "a.sol" uses "urls"; only inline "content" is accepted',
    ],
    [
      'content that is not text',
      std({ language: 'Solidity', sources: { 'a.sol': { content: 42 } } }),
      'Invalid parameter sourceCode: source "a.sol" has no string "content"',
    ],
    [
      'another language',
      std({ ...good, language: 'Vyper' }),
      'Invalid parameter compilerversion: v0.8.28+commit.7893614a is a solc version, and these are Vyper sources: name a Vyper compiler (vyper:0.4.3, as Etherscan spells it)',
    ],
    [
      'a contract file outside sources',
      std(good, { contractname: '../b.sol:A' }),
      'Invalid parameter contractname: the file "../b.sol" is not among the sources of the standard JSON input',
    ],
    [
      'a library file outside sources',
      std(good, { libraryname1: 'lib/L.sol:L', libraryaddress1: DEAD }),
      'Invalid parameter libraryname1: the file "lib/L.sol" is not among the sources of the standard JSON input',
    ],
    [
      'a library given twice with two addresses',
      { libraryname1: 'L', libraryaddress1: DEAD, libraryname2: 'L', libraryaddress2: `0x${'1'.repeat(40)}` },
      'Invalid submission: Library L is given twice with different addresses',
    ],
    ['more than 10 library pairs', libs(11), 'Invalid parameter libraryname11: at most 10 libraries are accepted'],
    [
      'a library address that is not 20 bytes',
      { libraryname3: 'L', libraryaddress3: `0x${'1'.repeat(42)}` },
      'Invalid parameter libraryaddress3: not a 20-byte hex address',
    ],
    ['an unpaired library name', { libraryname4: 'L' }, 'Invalid parameter libraryname4: it has no libraryaddress4 to go with it'],
    ['licence 0', { licenseType: '0' }, 'Invalid parameter licenseType: expected a licence code from 1 to 14'],
    ['licence 15', { licenseType: '15' }, 'Invalid parameter licenseType: expected a licence code from 1 to 14'],
    ['licence by name', { licenseType: 'MIT' }, 'Invalid parameter licenseType: expected a licence code from 1 to 14'],
    [
      'an unknown code format',
      { codeformat: 'solidity-multi-file' },
      'Invalid parameter codeformat: "solidity-multi-file" is not one of solidity-single-file, solidity-standard-json-input, vyper-json, vyper-single-file',
    ],
    [
      'an EVM version the compiler does not know',
      { evmversion: 'osaka' },
      `Invalid parameter evmversion: compiler ${V0828} does not know the EVM version osaka`,
    ],
    [
      'prague before 0.8.27',
      { evmversion: 'prague', compilerversion: 'v0.8.26+commit.8a97fa7a' },
      'Invalid parameter evmversion: compiler v0.8.26+commit.8a97fa7a does not know the EVM version prague',
    ],
    ['negative runs', { runs: '-1' }, 'Invalid parameter runs: expected a whole number from 0 to 4294967295'],
    ['runs past uint32', { runs: '4294967296' }, 'Invalid parameter runs: expected a whole number from 0 to 4294967295'],
    ['odd-length constructor arguments', { constructorArguments: '0x123' }, 'Invalid parameter constructorArguments: expected hex bytes'],
    ['a contract name with a space', { contractname: 'A B' }, 'Invalid parameter contractname: not a contract name'],
    ['an oversized contract name', { contractname: 'A'.repeat(5000) }, 'Invalid parameter contractname: too long'],
    [
      'a compiler that is not a version',
      { compilerversion: 'latest' },
      'Invalid parameter compilerversion: "latest" is not a solc long version like v0.8.26+commit.8a97fa7a',
    ],
    ['viaIR that is not a flag', { viaIR: 'maybe' }, 'Invalid parameter viair: expected 0 or 1'],
    ['an empty source', { sourceCode: '   ' }, 'Missing or empty parameter: sourceCode'],
  ])('%s', async (_name, fields, text) => {
    expect(await submit(fields as Record<string, string>)).toEqual(fail(text));
  });

  it('what passes these checks goes on to the address check', async () => {
    for (const fields of [
      std(good),
      std(`{${JSON.stringify(good)}}`), // Etherscan's {{...}} wrapping, as getsourcecode returns it
      std(good, { contractname: '/a.sol:A', libraryname1: 'a.sol:L', libraryaddress1: DEAD }),
      { licenseType: '14', evmversion: 'prague', ...libs(10) },
    ]) {
      const answer = await submit(fields);
      expect(answer.status).toBe('0');
      expect(answer.result).toMatch(
        new RegExp(`^Unable to locate ContractCode at ${DEAD.toLowerCase()}: the node had no code there at block \\d+ \\(still none after waiting 0\\.2 s\\)$`),
      );
    }
  });

  it('texts quoting a submitted path stay short', async () => {
    const path = 'p'.repeat(100_000);
    const env = await submit(std({ language: 'Solidity', sources: { [path]: { urls: ['x'] } } }));
    expect(env.status).toBe('0');
    expect(env.result).toMatch(/^Invalid parameter sourceCode: source "p+/);
    expect(env.result.length).toBeLessThan(400);
  });

  it('a key that is far too long is just an invalid key', async () => {
    expect(await apiPost(service.apiUrl, { ...base, apikey: 'K'.repeat(100_000) })).toEqual(fail('Invalid API Key'));
  });
});

describe('bodies and requests that are not what they claim', () => {
  const big = 'x'.repeat(LIMIT + 1024);
  const tooLarge = fail(`Request body too large: the limit is ${LIMIT} bytes`);

  async function post(init: RequestInit, action = 'getabi'): Promise<Envelope> {
    const res = await fetch(`${service.apiUrl}?module=contract&action=${action}&apikey=${key}`, { method: 'POST', ...init });
    expect(res.status).toBe(200);
    return (await res.json()) as Envelope;
  }

  it('a body over the 16 MB default limit gets the limit text in every encoding, and the connection answers', async () => {
    const multipart = new FormData();
    multipart.set('sourceCode', big);
    const file = new FormData();
    file.set('sourceCode', new Blob([big]), 'Big.sol');
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        const piece = new TextEncoder().encode(big.slice(0, 1024 * 1024));
        for (let i = 0; i < 17; i++) c.enqueue(piece);
        c.close();
      },
    });
    for (const init of [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `sourceCode=${big}` },
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sourceCode: big }) },
      { body: multipart },
      { body: file },
      { headers: { 'content-type': 'text/plain' }, body: chunks, duplex: 'half' },
    ] as RequestInit[]) {
      expect(await post(init, 'verifysourcecode')).toEqual(tooLarge);
    }
    // Just under the limit is read, for a submission by a valid key.
    expect(
      await post(
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `contractaddress=0x12&pad=${'x'.repeat(LIMIT - 100)}` },
        'verifysourcecode',
      ),
    ).toEqual(fail('Error! Invalid address format'));
    // A read action is not read past its first MB.
    expect(await post({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `address=0x12&pad=${'x'.repeat(LIMIT - 100)}` })).toEqual(
      fail('Request bodies over 1048576 bytes are accepted only for verifysourcecode, verifyproxycontract and verifybuild'),
    );
  });

  it('malformed bodies: JSON nested too deep, too many fields, multipart without a boundary or cut short', async () => {
    const deep = `{"address":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(await post({ headers: { 'content-type': 'application/json' }, body: deep })).toEqual(
      fail("The request body's JSON is nested more than 64 levels deep"),
    );
    const many = Array.from({ length: 300 }, (_, i) => `f${i}=1`).join('&');
    const manyFields = fail('The request body has more than 220 fields');
    expect(await post({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: many })).toEqual(manyFields);
    expect(await post({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(new URLSearchParams(many))) })).toEqual(
      manyFields,
    );
    const form = new FormData();
    for (let i = 0; i < 300; i++) form.append(`f${i}`, '1');
    expect(await post({ body: form })).toEqual(manyFields);
    const unreadable = fail('The request body could not be read as a form, multipart form or JSON object');
    expect(await post({ headers: { 'content-type': 'multipart/form-data' }, body: 'address=0x12' })).toEqual(unreadable);
    expect(
      await post({
        headers: { 'content-type': 'multipart/form-data; boundary=XX' },
        body: '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\nunfinished',
      }),
    ).toEqual(unreadable);
    // A JSON body that is not an object is read as a form (and so names what is missing).
    expect(await post({ headers: { 'content-type': 'application/json' }, body: '[1,2,3]' })).toEqual(fail('Missing or empty parameter: address'));
    // Binary garbage in any content type.
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const env = await post({ headers: { 'content-type': 'application/octet-stream' }, body: garbage });
    expect(env.status).toBe('0');
  });

  it('requests Node itself refuses, bad URLs and other methods still get an envelope', async () => {
    const port = service.port;
    const envelopeOf = async (bytes: Buffer | string) => {
      const answer = await rawRequest(port, bytes);
      expect(answer.status, JSON.stringify(answer)).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      return JSON.parse(answer.body) as Envelope;
    };
    expect(await envelopeOf(httpRequest('GET', `/api?module=contract&action=getabi&address=${'a'.repeat(20_000)}`))).toEqual(
      fail('Request line and headers too large: the limit is 16384 bytes; send long fields in a POST body'),
    );
    expect(await envelopeOf(httpRequest('GET', '/api', { 'x-padding': 'p'.repeat(20_000) }))).toMatchObject({ status: '0' });
    expect(await envelopeOf(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]))).toEqual(
      fail('The request could not be read as HTTP'),
    );
    expect(await envelopeOf(httpRequest('POST', '/api', { 'transfer-encoding': 'chunked' }, 'zz\r\nabc\r\n0\r\n\r\n'))).toEqual(
      fail('The request could not be read as HTTP'),
    );
    expect(await envelopeOf(httpRequest('GET', '/api%?module=contract&action=getabi'))).toEqual(fail('The request URL could not be decoded'));
    expect(await envelopeOf(httpRequest('GET', `/api?module=contract&action=getabi&address=%E0%A4%A&apikey=${key}`))).toEqual(
      fail('Error! Invalid address format'),
    );
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect(await envelopeOf(httpRequest(method, '/api?module=contract&action=getabi', {}, 'address=0x12'))).toEqual(
        fail(`The ${method} method is not accepted here: send GET or POST`),
      );
    }
    // The service is still there and serving.
    expect((await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address: DEAD, apikey: key })).result).toBe(
      'Contract source code not verified',
    );
  });
});
