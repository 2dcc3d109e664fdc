import { request } from 'node:http';
import { expect } from 'vitest';

/** Talking to the service's Sourcify API (`/sourcify/v2/...`) the way its clients do: JSON in, JSON and a status out. */

export interface Answer {
  status: number;
  body: any;
}

export async function sourcifyGet(base: string, path: string): Promise<Answer> {
  const res = await fetch(`${base}/sourcify/${path}`);
  return { status: res.status, body: await res.json() };
}

/**
 * POSTs a body on a connection of its own: a kept-alive socket the server is closing at that
 * moment would fail the request, and a POST is not retried.
 */
export function sourcifyPost(base: string, path: string, body: unknown, contentType = 'application/json'): Promise<Answer> {
  const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      `${base}/sourcify/${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': contentType, 'content-length': payload.length } },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      },
    );
    // A server that refuses a large body answers before reading it all and closes: the rest of
    // the upload then fails to send (EPIPE, ECONNRESET), which is no error once the answer is in.
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    // Sent in slices, as a client streams an upload, so an early answer is read between them.
    const SLICE = 256 * 1024;
    let at = 0;
    const send = (): void => {
      while (at < payload.length && !answered && !req.destroyed) {
        const slice = payload.subarray(at, at + SLICE);
        at += slice.length;
        if (at >= payload.length) {
          req.end(slice);
          return;
        }
        if (!req.write(slice)) {
          req.once('drain', send);
          return;
        }
      }
      if (at >= payload.length && payload.length === 0) req.end();
    };
    send();
  });
}

/** Polls `GET v2/verify/{id}` until the job is completed; returns the last answer. */
export async function waitForJob(base: string, verificationId: string, timeoutMs = 180_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await sourcifyGet(base, `v2/verify/${verificationId}`);
    if (answer.status !== 200 || answer.body.isJobCompleted) return answer;
    if (Date.now() > deadline) throw new Error(`job ${verificationId} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Submits to `POST v2/verify/{chainId}/{address}` and waits for the job. */
export async function verifyAndWait(base: string, chainId: number, address: string, body: unknown): Promise<{ submit: Answer; job?: Answer }> {
  const submit = await sourcifyPost(base, `v2/verify/${chainId}/${address}`, body);
  if (submit.status !== 202) return { submit };
  return { submit, job: await waitForJob(base, submit.body.verificationId) };
}

/** Sourcify's error object with `customCode` and a message containing `text`. */
export function sourcifyErrorWith(customCode: string, text = '') {
  return {
    customCode,
    message: expect.stringContaining(text),
    errorId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  };
}
