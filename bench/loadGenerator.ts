/**
 * The read bench's load generator, run in a child process of its own (`fork`) so that the
 * bench's own work never competes with it: for each `LoadRequest` message it keeps
 * `connections` keep-alive connections busy (one request at a time on each), first for a
 * warm-up, then for the measured window, and answers with a `LoadResult`.
 */
import { Agent, request } from 'node:http';

export interface LoadRequest {
  /** `http://host:port/path?query` every request goes to; `&apikey=` is added per connection when `keys` is given. */
  url: string;
  connections: number;
  /** One key per connection (`keys[i % keys.length]`). */
  keys?: string[];
  /** Each request comes from the next address of a pool (X-Forwarded-For), starting at `start`. */
  forwardedFor?: { start: number; size: number };
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  /** Answers that arrived inside the measured window (whenever they were asked for). */
  answers: number;
  perSecond: number;
  /** Latencies of those answers; null when there were none. */
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** Answers in the window whose envelope was not status "1" (HTTP errors included). */
  notOk: number;
  /** The texts of those answers, counted (at most a few kinds). */
  notOkTexts: Record<string, number>;
  /** Addresses of the pool used (warm-up included). */
  addressesUsed: number;
  /** The measured window, in process.hrtime nanoseconds (CLOCK_MONOTONIC, shared by every process). */
  windowNs: [string, string];
}

const OK_PREFIX = Buffer.from('{"status":"1"');

/** 10.x.y.z for index i of a pool of at most 2^24 addresses. */
export const poolAddress = (i: number): string => `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;

function quantile(sorted: Float64Array, q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function notOkText(status: number, body: Buffer): string {
  if (status !== 200) return `HTTP ${status}`;
  try {
    const envelope = JSON.parse(body.toString('utf8')) as { status?: unknown; result?: unknown };
    if (envelope.status === '1') return '';
    return `status ${String(envelope.status)}: ${String(envelope.result).slice(0, 120)}`;
  } catch {
    return `not JSON: ${body.toString('utf8', 0, 80)}`;
  }
}

export async function runLoad(req: LoadRequest): Promise<LoadResult> {
  const target = new URL(req.url);
  const basePath = `${target.pathname}${target.search}`;
  const pool = req.forwardedFor;
  let poolNext = 0;
  const latencies: number[] = [];
  let notOk = 0;
  const notOkTexts: Record<string, number> = {};
  const noteNotOk = (text: string): void => {
    notOk++;
    if (text in notOkTexts || Object.keys(notOkTexts).length < 5) notOkTexts[text] = (notOkTexts[text] ?? 0) + 1;
  };

  const t0 = process.hrtime.bigint();
  const measureFrom = t0 + BigInt(req.warmupMs) * 1_000_000n;
  const measureTo = measureFrom + BigInt(req.durationMs) * 1_000_000n;

  const connection = async (c: number): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const key = req.keys?.length ? req.keys[c % req.keys.length] : undefined;
    const path = key ? `${basePath}&apikey=${encodeURIComponent(key)}` : basePath;
    try {
      while (process.hrtime.bigint() < measureTo) {
        const headers: Record<string, string> = {};
        if (pool) headers['x-forwarded-for'] = poolAddress((pool.start + poolNext++) % pool.size);
        const started = process.hrtime.bigint();
        const answer = await new Promise<{ status: number; body: Buffer } | { error: Error }>((resolve) => {
          const r = request({ host: target.hostname, port: target.port, path, agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
            res.on('error', (error) => resolve({ error }));
          });
          r.on('error', (error) => resolve({ error }));
          r.end();
        });
        const ended = process.hrtime.bigint();
        const counted = ended >= measureFrom && ended <= measureTo;
        if ('error' in answer) {
          if (counted) noteNotOk(`error: ${answer.error.message}`);
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        if (!counted) continue;
        latencies.push(Number(ended - started) / 1e6);
        const ok = answer.status === 200 && answer.body.subarray(0, OK_PREFIX.length).equals(OK_PREFIX);
        if (!ok) {
          const text = notOkText(answer.status, answer.body);
          if (text) noteNotOk(text);
        }
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: req.connections }, (_, c) => connection(c)));

  const sorted = Float64Array.from(latencies).sort();
  const seconds = req.durationMs / 1000;
  return {
    answers: sorted.length,
    perSecond: sorted.length / seconds,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : null,
    notOk,
    notOkTexts,
    addressesUsed: poolNext,
    windowNs: [measureFrom.toString(), measureTo.toString()],
  };
}

// Run as a forked child: one load per message, answered on the same channel.
if (process.send) {
  process.on('message', (message: LoadRequest) => {
    runLoad(message).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
