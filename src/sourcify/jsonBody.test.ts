import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidJson, JsonShape, MAX_DEPTH, MAX_JSON_VALUES, PARSE_INLINE_BYTES, readJsonBody } from './jsonBody.js';

/** The shape of `text` fed in pieces of `size` bytes. */
function shapeOf(text: string, size: number): JsonShape {
  const bytes = Buffer.from(text, 'utf8');
  const shape = new JsonShape();
  for (let at = 0; at < bytes.length; at += size) shape.feed(bytes.subarray(at, at + size));
  return shape;
}

describe('JsonShape: the structure of JSON read in pieces', () => {
  it('counts values and depth outside strings, whatever the pieces, escapes and UTF-8 split across them', () => {
    const text = JSON.stringify({ a: [1, 2, { b: 'x"y\\\\' }], 'c,{[:': 'é€😀"}]', d: { e: { f: [] } } });
    const whole = shapeOf(text, text.length * 4);
    for (const size of [1, 2, 3, 7]) {
      const pieces = shapeOf(text, size);
      expect([pieces.values, pieces.deepest], `pieces of ${size}`).toEqual([whole.values, whole.deepest]);
    }
    // { a: [ 1, 2, { b: ] , c: , d: { e: { f: [
    expect(whole.deepest).toBe(4);
    expect(whole.values).toBe(16);
    expect(whole.refusal()).toBeNull();
  });

  it('refuses nesting past MAX_DEPTH and more than MAX_JSON_VALUES values, before any parse', () => {
    expect(shapeOf(`${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`, 100).refusal()).toBeNull();
    expect(shapeOf(`${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`, 100).refusal()?.reason).toBe('too deep');
    expect(shapeOf(`[${'0,'.repeat(MAX_JSON_VALUES - 2)}0]`, 4096).refusal()).toBeNull();
    expect(shapeOf(`[${'0,'.repeat(MAX_JSON_VALUES)}0]`, 4096).refusal()?.reason).toBe('too many values');
    // Long strings hold no values, however many brackets they spell.
    expect(shapeOf(JSON.stringify({ content: '{[,:'.repeat(1_000_000) }), 65536).refusal()).toBeNull();
  });
});

describe('readJsonBody over HTTP', () => {
  let server: Server;
  let port: number;
  const LIMIT = 1024 * 1024;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      readJsonBody(req, LIMIT).then(
        (value) => res.end(JSON.stringify({ ok: value === undefined ? 'empty' : value })),
        (error: Error & { code?: string }) => res.end(JSON.stringify({ error: error instanceof InvalidJson ? error.reason : error.code })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Posts `body` in pieces (chunked, no length declared) and reads the answer. */
  const post = (body: string, pieceSize = 65536): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      });
      req.on('error', reject);
      const bytes = Buffer.from(body, 'utf8');
      for (let at = 0; at < bytes.length; at += pieceSize) req.write(bytes.subarray(at, at + pieceSize));
      req.end();
    });

  it('parses JSON of any encoding split, and an empty body is nothing', async () => {
    const value = { stdJsonInput: { sources: { 'a.sol': { content: `contract A {} // é€😀 ${'x'.repeat(200_000)}` } } } };
    expect(await post(JSON.stringify(value), 3)).toEqual({ ok: value });
    expect(await post('  \n ')).toEqual({ ok: 'empty' });
    expect(await post('{"a":')).toEqual({ error: 'not JSON' });
    // Past PARSE_INLINE_BYTES a body is parsed by the worker thread: the same answers.
    const large = { sources: { 'a.sol': { content: 'é'.repeat(PARSE_INLINE_BYTES) } }, n: [1, 2.5, null, true] };
    expect(await post(JSON.stringify(large), 1000)).toEqual({ ok: large });
    expect(await post(`${JSON.stringify(large).slice(0, -1)},`)).toEqual({ error: 'not JSON' });
    expect(await post(' '.repeat(PARSE_INLINE_BYTES * 2))).toEqual({ ok: 'empty' });
  });

  it('refuses a body over the limit, too deep or of too many values without parsing it, and the connection answers', async () => {
    expect(await post(JSON.stringify({ comment: 'x'.repeat(LIMIT) }))).toEqual({ error: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(await post(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`)).toEqual({ error: 'too deep' });
    const many = `{"sources":[${'{},'.repeat(MAX_JSON_VALUES / 2)}{}]}`;
    expect(many.length).toBeLessThan(LIMIT);
    expect(await post(many)).toEqual({ error: 'too many values' });
  });
});
