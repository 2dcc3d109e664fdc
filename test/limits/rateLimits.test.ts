import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Envelope } from '../helpers/api.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { timed, tooClose } from '../helpers/timedAnswers.js';

const ZERO = '0x0000000000000000000000000000000000000000';
const KEYLESS_NOTE = 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied';
const MAX_RATE_KEYLESS = 'Max rate limit reached, please use API Key for higher rate limit';
const MAX_RATE_KEYED = 'Max rate limit reached';
const TOO_MANY_INVALID = 'Too many invalid api key attempts, please try again later';

async function read(service: RunningService, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Envelope> {
  const url = new URL(service.apiUrl);
  for (const [k, v] of Object.entries({ module: 'contract', action: 'getsourcecode', address: ZERO, ...params })) url.searchParams.set(k, v);
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What a token bucket of `rate` (full at the start) can grant during a burst lasting `ms`. */
const refillBound = (rate: number, ms: number) => rate + Math.ceil((rate * ms) / 1000) + 1;
const count = (envs: Envelope[], pred: (e: Envelope) => boolean) => envs.filter(pred).length;

describe('rate limits with the default settings (free 5/s, pro 30/s, keyless 1 per 5 s)', () => {
  let service: RunningService;
  let free: string;
  let pro: string;
  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl') });
    [free, pro] = await Promise.all([createKey(service.dataDir, ['--tier', 'free']), createKey(service.dataDir, ['--tier', 'pro'])]);
  });
  afterAll(async () => service?.stop());

  it('a keyless burst: the first read gets the keyless note, the rest within 5 s the rate-limit text, then reads go through again', async () => {
    const first = await timed(() => read(service, {}));
    const rest = await Promise.all(Array.from({ length: 6 }, () => timed(() => read(service, {}))));
    const later = [];
    for (let i = 0; i < 3; i++) {
      await sleep(1000);
      later.push(await timed(() => read(service, {})));
    }
    expect(first.answer).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    // Every other read is refused with the rate-limit text, unless 5 s had passed since the last one let through.
    const reads = [first, ...rest, ...later];
    const letThrough = reads.filter((r) => r.answer.status === '1');
    for (const r of letThrough) expect(r.answer).toMatchObject({ message: KEYLESS_NOTE });
    for (const r of reads.filter((r) => r.answer.status !== '1')) expect(r.answer).toEqual({ status: '0', message: 'NOTOK', result: MAX_RATE_KEYLESS });
    expect(tooClose(letThrough, 5000)).toEqual([]);

    await sleep(Math.max(0, Math.max(...letThrough.map((r) => r.answeredAt)) + 5100 - Date.now()));
    expect(await read(service, {})).toMatchObject({ status: '1', message: KEYLESS_NOTE });
  });

  it('a free key: a burst over 5 requests is limited, a steady 4 per second is never refused', async () => {
    const t0 = Date.now();
    const burst = await Promise.all(Array.from({ length: 20 }, () => read(service, { apikey: free })));
    const accepted = count(burst, (e) => e.status === '1' && e.message === 'OK');
    expect(accepted).toBeGreaterThanOrEqual(5);
    // The bucket holds 5 and refills at 5/s while the burst is in flight.
    expect(accepted).toBeLessThanOrEqual(refillBound(5, Date.now() - t0));
    expect(count(burst, (e) => e.status === '0' && e.result === MAX_RATE_KEYED)).toBe(20 - accepted);

    await sleep(1100); // refill
    const steady: Envelope[] = [];
    for (let i = 0; i < 10; i++) {
      const t = Date.now();
      steady.push(await read(service, { apikey: free }));
      await sleep(Math.max(0, 250 - (Date.now() - t)));
    }
    expect(steady.map((e) => e.message)).toEqual(Array(10).fill('OK'));
  });

  it('a pro key ("API PRO"): 30 per second; a burst of 90 is cut to about 30, a steady 25 per second passes', async () => {
    const t0 = Date.now();
    const burst = await Promise.all(Array.from({ length: 90 }, () => read(service, { apikey: pro })));
    const accepted = count(burst, (e) => e.status === '1');
    expect(accepted).toBeGreaterThanOrEqual(30);
    expect(accepted).toBeLessThanOrEqual(refillBound(30, Date.now() - t0));
    expect(count(burst, (e) => e.result === MAX_RATE_KEYED)).toBe(90 - accepted);

    await sleep(1100);
    const steady: Envelope[] = [];
    for (let i = 0; i < 40; i++) {
      const t = Date.now();
      steady.push(await read(service, { apikey: pro }));
      await sleep(Math.max(0, 40 - (Date.now() - t)));
    }
    expect(count(steady, (e) => e.message === 'OK')).toBe(40);
  });

  it('X-Forwarded-For is not believed from a client that is not a configured proxy', async () => {
    await sleep(5100); // the keyless window of the first test has passed
    expect(await read(service, {}, { 'x-forwarded-for': '198.51.100.1' })).toMatchObject({ message: KEYLESS_NOTE });
    // Another claimed address, same real client: still limited.
    expect(await read(service, {}, { 'x-forwarded-for': '198.51.100.2' })).toMatchObject({ result: MAX_RATE_KEYLESS });
  });
});

describe('behind a trusted reverse proxy', () => {
  let service: RunningService;
  let key: string;
  beforeAll(async () => {
    service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--trusted-proxies', '127.0.0.1'] });
    key = await createKey(service.dataDir);
  });
  afterAll(async () => service?.stop());

  it('keyless limits apply per forwarded client address', async () => {
    const a = await read(service, {}, { 'x-forwarded-for': '192.0.2.10' });
    const b = await read(service, {}, { 'x-forwarded-for': '192.0.2.11' });
    const a2 = await read(service, {}, { 'x-forwarded-for': '192.0.2.10' });
    expect(a).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    expect(b).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    expect(a2).toMatchObject({ status: '0', result: MAX_RATE_KEYLESS });
  });

  it('repeated invalid keys from one address start a cool-down for wrong keys from that address; a valid key still works', async () => {
    const bad = { 'x-forwarded-for': '192.0.2.66' };
    const attempts: Envelope[] = [];
    for (let i = 0; i < 10; i++) attempts.push(await read(service, { apikey: `WRONGKEY${i}` }, bad));
    // Before the cool-down an invalid key reads like no key at all.
    expect(attempts[0]).toMatchObject({ status: '1', message: KEYLESS_NOTE });
    expect(attempts.slice(1, 9).map((e) => e.result)).toEqual(Array(8).fill(MAX_RATE_KEYLESS));
    expect(attempts[9]).toEqual({ status: '0', message: 'NOTOK', result: TOO_MANY_INVALID });
    expect(await read(service, { apikey: 'WRONGAGAIN' }, bad)).toMatchObject({ result: TOO_MANY_INVALID });
    // Only failures count: someone else's wrong keys behind the same address lock nobody out.
    expect(await read(service, { apikey: key }, bad)).toMatchObject({ status: '1', message: 'OK' });
    await new Promise((r) => setTimeout(r, 600));
    expect(await read(service, { apikey: 'WRONGONCEMORE' }, bad)).toMatchObject({ result: TOO_MANY_INVALID });
    // Another address with the valid key is served as usual.
    expect(await read(service, { apikey: key }, { 'x-forwarded-for': '192.0.2.67' })).toMatchObject({ status: '1', message: 'OK' });
  });
});
