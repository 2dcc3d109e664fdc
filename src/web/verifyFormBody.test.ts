import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_FORM_ENTRIES, OPEN_FORM_BYTES, readVerifyFormBody } from './verifyFormBody.js';

const BOUNDARY = '----WebKitFormBoundaryq4Tz1xL9bW2mN8cA';
const field = (name: string, value: string): string => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const END = `--${BOUNDARY}--\r\n`;
const BIG_SOURCE = `contract Big {}\n//${'x'.repeat(OPEN_FORM_BYTES + 1000)}`;

function post(pieces: string[]): PassThrough {
  const stream = new PassThrough();
  for (const piece of pieces) stream.write(piece);
  stream.end();
  return stream;
}

/** Reads a post with a key check that records what it was asked, in order with the parts read before it. */
async function read(pieces: string[], bodyLimit = 16 * 1024 * 1024) {
  const checked: string[] = [];
  const body = await readVerifyFormBody(post(pieces), {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    bodyLimit,
    checkApiKey: async (key) => {
      checked.push(key);
      return key === 'GOOD' ? null : 'Invalid API Key';
    },
  });
  return { body, checked, names: body.entries.map((e) => e.name) };
}

describe('readVerifyFormBody', () => {
  it('a valid key sent first: the whole form is read, however large', async () => {
    const { body, checked, names } = await read([field('apikey', ' GOOD '), field('address', '0xaa'), field('source', BIG_SOURCE), END]);
    expect(checked).toEqual(['GOOD']);
    expect(body.refusal).toBeNull();
    expect(body.keyRefusal).toBeNull();
    expect(names).toEqual(['apikey', 'address', 'source']);
  });

  it('no key, or a wrong one: a small form is read (the page shows it again), a large one only to its first MB', async () => {
    const small = await read([field('apikey', 'WRONG'), field('source', 'contract A {}'), END]);
    expect(small.body.keyRefusal).toBe('Invalid API Key');
    expect(small.body.refusal).toBeNull();
    expect(small.names).toEqual(['apikey', 'source']);

    const wrong = await read([field('apikey', 'WRONG'), field('address', '0xaa'), field('source', BIG_SOURCE), END]);
    expect(wrong.body.refusal).toEqual({
      field: 'apiKey',
      status: 400,
      message:
        'Invalid API Key: the sources of a form over 1 MB are read only for a valid API key, sent before them (the page sends it first); they were not read',
    });
    expect(wrong.names).toEqual(['apikey', 'address']);

    const none = await read([field('address', '0xaa'), field('source', BIG_SOURCE), END]);
    expect(none.checked).toEqual([]);
    expect(none.body.refusal?.message).toMatch(/^Enter your API key: the sources of a form over 1 MB are read only for a valid API key/);
  });

  it('a key sent after the sources counts within the first MB, and not past it', async () => {
    const small = await read([field('source', 'contract A {}'), field('apikey', 'GOOD'), END]);
    expect(small.body.refusal).toBeNull();
    expect(small.checked).toEqual(['GOOD']);
    const large = await read([field('source', BIG_SOURCE), field('apikey', 'GOOD'), END]);
    expect(large.body.refusal?.field).toBe('apiKey');
    expect(large.checked).toEqual([]);
  });

  it('too many entries, too large, or unreadable: a refusal naming it, with what was read before', async () => {
    const many = await read([field('apikey', 'GOOD'), field('f', '1').repeat(2 * MAX_FORM_ENTRIES), END]);
    expect(many.body.refusal).toEqual({
      field: 'form',
      status: 400,
      message: `The form has too many fields or files (at most ${MAX_FORM_ENTRIES}); it was not read past them`,
    });
    expect(many.names[0]).toBe('apikey');
    const large = await read([field('apikey', 'GOOD'), field('source', 'x'.repeat(3000)), END], 2000);
    expect(large.body.refusal).toEqual({ field: 'form', status: 413, message: 'The form is too large (at most 2000 bytes)' });
    const cut = await read([field('apikey', 'GOOD'), `--${BOUNDARY}\r\nContent-Disposition: form-data; name="source"\r\n\r\ncontract`]);
    expect(cut.body.refusal).toMatchObject({ field: 'form', status: 400, message: expect.stringContaining('could not be read') });
  });
});
