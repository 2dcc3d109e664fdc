import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type MultipartOptions, type MultipartPart, readMultipart } from './multipartBody.js';

const BOUNDARY = '----form7MA4YWxkTrZu0gW';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const MB = 1024 * 1024;

const field = (name: string, value: string): string => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, filename: string, text: string): string =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n`;
const END = `--${BOUNDARY}--\r\n`;

const options = (more: Partial<MultipartOptions> = {}): MultipartOptions => ({
  contentType: CONTENT_TYPE,
  maxBytes: 16 * MB,
  maxParts: 400,
  drainBytes: 64 * MB,
  ...more,
});

/** A body that arrives in the given pieces, the next only when asked for (so what is read is seen). */
function bodyOf(pieces: string[]): { stream: PassThrough; sent: () => number } {
  const stream = new PassThrough();
  let sent = 0;
  for (const piece of pieces) {
    stream.write(piece);
    sent += Buffer.byteLength(piece);
  }
  stream.end();
  return { stream, sent: () => sent };
}

describe('readMultipart', () => {
  it('reads fields and files in the body order, keeping file paths and UTF-8', async () => {
    const { stream } = bodyOf([
      field('apikey', 'KEY'),
      file('sourcefiles', 'contracts/lib/Math.sol', 'library Math {}'),
      field('note', 'Grüße, 世界'),
      file('sourcefiles', 'Ünïcode.sol', 'contract U {}'),
      file('empty', '', ''),
      END,
    ]);
    const result = await readMultipart(stream, options());
    expect(result).toEqual({
      ok: true,
      parts: [
        { name: 'apikey', value: 'KEY' },
        { name: 'sourcefiles', file: { filename: 'contracts/lib/Math.sol', text: 'library Math {}' } },
        { name: 'note', value: 'Grüße, 世界' },
        { name: 'sourcefiles', file: { filename: 'Ünïcode.sol', text: 'contract U {}' } },
        { name: 'empty', file: { filename: '', text: '' } },
      ],
    } satisfies { ok: true; parts: MultipartPart[] });
  });

  it('stops at the first part past the limit, before the body has been sent, and reads the rest only to drop it', async () => {
    const stream = new PassThrough();
    // 270,000 one-byte fields, of which the first MB is sent: the answer comes before the rest is.
    const one = field('f', '1');
    const perMb = Math.floor(MB / one.length);
    stream.write(one.repeat(perMb));
    const result = await readMultipart(stream, options());
    expect(result).toMatchObject({ ok: false, problem: 'too_many_parts', draining: true });
    // The last part read is complete only once the next begins, and that one is past the limit.
    expect(result.parts.length).toBeGreaterThanOrEqual(399);
    expect(result.parts.length).toBeLessThanOrEqual(400);
    // The rest is read and dropped (the client can read its answer), then the stream ends.
    stream.end(one.repeat(270_000 - perMb));
    await new Promise((resolve) => stream.once('end', resolve));
  });

  it('a body past the byte limit is too large once it has ended; one past the drain limit is cut off', async () => {
    const big = bodyOf([field('source', 'x'.repeat(2 * MB)), END]);
    expect(await readMultipart(big.stream, options({ maxBytes: MB }))).toMatchObject({ ok: false, problem: 'too_large', draining: false });
    const huge = bodyOf([field('source', 'x'.repeat(3 * MB)), END]);
    expect(await readMultipart(huge.stream, options({ maxBytes: MB, drainBytes: 2 * MB }))).toMatchObject({ ok: false, problem: 'too_large' });
    expect(huge.stream.destroyed).toBe(true);
  });

  it('a body with no boundary, cut short, or ending inside a file is malformed, never a crash', async () => {
    expect(await readMultipart(bodyOf(['address=0x12']).stream, options({ contentType: 'multipart/form-data' }))).toMatchObject({
      ok: false,
      problem: 'malformed',
    });
    expect(await readMultipart(bodyOf([`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nunfinished`]).stream, options())).toMatchObject({
      ok: false,
      problem: 'malformed',
    });
    const cut = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="A.sol"\r\n\r\ncontract A {`;
    expect(await readMultipart(bodyOf([field('a', '1'), cut]).stream, options())).toMatchObject({
      ok: false,
      problem: 'malformed',
      parts: [{ name: 'a', value: '1' }],
    });
    expect(await readMultipart(bodyOf(['garbage'.repeat(1000)]).stream, options())).toMatchObject({ ok: false, problem: 'malformed' });
  });

  it('past the open bytes, reading waits for admit, which sees the parts so far and may refuse', async () => {
    const pieces = [field('apikey', 'KEY'), field('source', 'x'.repeat(2 * MB)), END];
    const seen: string[][] = [];
    const admit = async (parts: readonly MultipartPart[]) => {
      seen.push(parts.map((p) => p.name));
      return parts.some((p) => 'value' in p && p.name === 'apikey' && p.value === 'KEY') ? null : 'Send your API key first';
    };
    const passed = await readMultipart(bodyOf(pieces).stream, options({ openBytes: MB, admit }));
    expect(passed.ok && passed.parts.map((p) => p.name)).toEqual(['apikey', 'source']);
    expect(seen).toEqual([['apikey']]);
    const refused = await readMultipart(bodyOf([field('source', 'x'.repeat(2 * MB)), field('apikey', 'KEY'), END]).stream, options({ openBytes: MB, admit }));
    expect(refused).toMatchObject({ ok: false, problem: 'refused', refusal: 'Send your API key first', parts: [] });
    // A small body is read for anyone.
    expect((await readMultipart(bodyOf([field('source', 'x'), END]).stream, options({ openBytes: MB, admit }))).ok).toBe(true);
  });

  it('reading waits while onPart is busy with a part', async () => {
    const stream = new PassThrough();
    let release!: () => void;
    const handed: string[] = [];
    const reading = readMultipart(stream, {
      ...options(),
      onPart: (part) => {
        handed.push(part.name);
        return part.name === 'apikey' ? new Promise<void>((resolve) => (release = resolve)) : undefined;
      },
    });
    // The key's part ends where the next boundary begins.
    stream.write(`${field('apikey', 'KEY')}--${BOUNDARY}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.write(`\r\nContent-Disposition: form-data; name="source"\r\n\r\ncontract A {}\r\n${END}`);
    stream.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handed).toEqual(['apikey']);
    release();
    expect(await reading).toEqual({
      ok: true,
      parts: [
        { name: 'apikey', value: 'KEY' },
        { name: 'source', value: 'contract A {}' },
      ],
    });
    expect(handed).toEqual(['apikey', 'source']);
  });
});
