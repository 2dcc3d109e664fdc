/**
 * Multipart bodies built to make parsing them costly: a quarter of a million one-byte fields
 * (14 MB with a one-letter boundary, within the 16 MB body limit), sent without a key. The service reads multipart
 * bodies part by part and stops at the first part past its limits (limits/multipartBody), where
 * it buffered the whole body and parsed all of it on the main thread first (ten such posts
 * stalled other requests 6-11 s each, RSS ~500 MB). The Verify & Publish form sends the API key
 * first, and sources past a form's first MB are read only once the key is known to be valid.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Envelope } from '../helpers/api.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';

const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const MB = 1024 * 1024;
const field = (name: string, value: string, boundary = BOUNDARY): string =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const END = `--${BOUNDARY}--\r\n`;
/** 270,000 one-byte fields: 14 MB with a one-letter boundary. */
const TINY_BOUNDARY = 'x';
const TINY_CONTENT_TYPE = `multipart/form-data; boundary=${TINY_BOUNDARY}`;
const TINY_FIELDS = `${field('f', '1', TINY_BOUNDARY).repeat(270_000)}--${TINY_BOUNDARY}--\r\n`;

let service: RunningService;
let key: string;

beforeAll(async () => {
  service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--rate-free', '1000', '--keyless-interval-ms', '0'] });
  key = await createKey(service.dataDir);
}, 120_000);
afterAll(async () => service?.stop());

/** The service's resident memory, in bytes. */
function serviceRss(): number {
  const status = readFileSync(`/proc/${service.process.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

interface PieceAnswer {
  status: number;
  body: string;
  /** The answer came while the rest of the body was still unsent. */
  beforeRest: boolean;
}

/**
 * POSTs a body of `first` and `rest`, sending `first` only and then waiting for the answer; the
 * rest is sent only if no answer has come within `patienceMs` (a service that must read it all
 * before answering). The connection is closed once the answer is read.
 */
function postInPieces(path: string, contentType: string, first: string, rest: string, patienceMs = 30_000): Promise<PieceAnswer> {
  const head = Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(first) + Buffer.byteLength(rest)}\r\n\r\n`,
  );
  return new Promise((resolve, reject) => {
    const socket = connect(service.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let restSent = false;
    const patience = setTimeout(() => {
      restSent = true;
      socket.write(rest);
    }, patienceMs);
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${path}`));
    }, patienceMs * 4);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? NaN);
      const body = received.subarray(headEnd + 4);
      if (!(body.length >= length)) return;
      clearTimeout(patience);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: body.toString('utf8'), beforeRest: !restSent });
    });
    socket.on('error', (error) => {
      clearTimeout(patience);
      clearTimeout(deadline);
      reject(error);
    });
    socket.write(Buffer.concat([head, Buffer.from(first)]));
  });
}

/** The first MB of the 270,000 fields (whole parts), and the rest. */
const firstMb = (body: string): [string, string] => {
  const cut = body.lastIndexOf(`--${TINY_BOUNDARY}\r\n`, MB);
  return [body.slice(0, cut), body.slice(cut)];
};

describe('a quarter of a million one-byte fields, without a key', () => {
  it('Verify & Publish: ten posts are each refused with the form page before their body is sent, others are served, memory stays bounded', async () => {
    const before = serviceRss();
    let peak = before;
    const [first, rest] = firstMb(TINY_FIELDS);
    for (let i = 0; i < 10; i++) {
      // No faster than the form rate (2 a second per client).
      await new Promise((resolve) => setTimeout(resolve, 600));
      const answer = await postInPieces('/verify', TINY_CONTENT_TYPE, first, rest);
      expect(answer.beforeRest).toBe(true);
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('The form has too many fields or files (at most 400); it was not read past them');
      // Another client is answered between two of them.
      expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
      peak = Math.max(peak, serviceRss());
    }
    expect(peak - before).toBeLessThan(150 * MB);
  });

  it('the API: refused with an envelope naming the field limit before the body is sent', async () => {
    const [first, rest] = firstMb(TINY_FIELDS);
    const answer = await postInPieces('/api?module=contract&action=verifysourcecode', TINY_CONTENT_TYPE, first, rest);
    expect(answer.beforeRest).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({ status: '0', message: 'NOTOK', result: 'The request body has more than 220 fields' });
  });
});

describe('large multipart bodies are read past their first MB only for a valid key', () => {
  const source = `contract Big {}\n//${'x'.repeat(2 * MB)}\n// the end of Big\n`;

  it('the API: a key among the first parts lets the rest be read; without one the body is refused at its first MB', async () => {
    const keyed = field('apikey', key) + field('contractaddress', '0x12') + field('sourceCode', source) + END;
    const [first, rest] = [keyed.slice(0, MB / 2), keyed.slice(MB / 2)];
    const read = await postInPieces('/api?module=contract&action=verifysourcecode', CONTENT_TYPE, first, rest, 2000);
    expect(JSON.parse(read.body)).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Invalid address format' });
    const keyless = field('contractaddress', '0x12') + field('sourceCode', source) + END;
    const refused = await postInPieces('/api?module=contract&action=verifysourcecode', CONTENT_TYPE, keyless.slice(0, MB + 1000), keyless.slice(MB + 1000));
    expect(refused.beforeRest).toBe(true);
    expect(JSON.parse(refused.body) as Envelope).toMatchObject({
      status: '0',
      result: expect.stringContaining('read only for submissions with a valid API key'),
    });
  });

  it('Verify & Publish: a valid key first lets the sources be read; a wrong key, or one sent after them, stops the reading at the first MB', async () => {
    const form = (apiKey: string | null, keyLast = false) => {
      const keyField = apiKey === null ? '' : field('apikey', apiKey);
      const rest = field('address', '0x00000000000000000000000000000000000000aa') + field('format', 'single') + field('source', source);
      return (keyLast ? rest + keyField : keyField + rest) + END;
    };
    await new Promise((resolve) => setTimeout(resolve, 600));
    const good = form(key);
    const read = await postInPieces('/verify', CONTENT_TYPE, good.slice(0, MB / 2), good.slice(MB / 2), 2000);
    // Read to the end: the page names what is still missing (the compiler) and offers the contract.
    expect(read.status).toBe(400);
    expect(read.body).toContain('id="compiler-error"');
    expect(read.body).toContain('<option value="Big">');
    expect(read.body).not.toContain('id="apiKey-error"');

    for (const [body, error] of [
      [
        form('NOTAKEY'),
        'Invalid API Key: the sources of a form over 1 MB are read only for a valid API key, sent before them (the page sends it first); they were not read',
      ],
      [form(key, true), 'Enter your API key: the sources of a form over 1 MB are read only for a valid API key'],
      [form(null), 'Enter your API key: the sources of a form over 1 MB are read only for a valid API key'],
    ] as const) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      const refused = await postInPieces('/verify', CONTENT_TYPE, body.slice(0, MB + 1000), body.slice(MB + 1000));
      expect(refused.beforeRest).toBe(true);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatch(new RegExp(`id="apiKey-error"[^>]*>${error.replace(/[()]/g, '\\$&')}`));
      // What came before the stop is shown again.
      expect(refused.body).toContain('value="0x00000000000000000000000000000000000000aa"');
    }
  });
});
