/**
 * The stall bench's probe, run in a child process of its own (`fork`) so that the bench's own
 * work (building and sending bodies of megabytes) never delays it. For each `ProbeRequest` it
 * measures, for `durationMs`:
 * - the latency of an unrelated cheap request, sent back to back on one kept-alive connection;
 * - what becomes of `idleClients` kept-alive clients that each send a request, then wait 2.5 to
 *   4.5 s (near the end of the reuse a 5 s Keep-Alive hint allows) before the next: how many
 *   failed with a connection error.
 */
import { Agent, request } from 'node:http';

export interface ProbeRequest {
  /** `http://host:port/path?query` of the cheap request. */
  url: string;
  durationMs: number;
  idleClients: number;
}

export interface ProbeResult {
  answers: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** Answers other than HTTP 200. */
  notOk: number;
  /** Requests of the idle clients, and those that failed with a connection error (by code). */
  idleRequests: number;
  connectionErrors: Record<string, number>;
}

function get(url: URL, agent: Agent | false): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const r = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    r.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    r.end();
  });
}

export async function runProbe(req: ProbeRequest): Promise<ProbeResult> {
  const url = new URL(req.url);
  const end = Date.now() + req.durationMs;
  const latencies: number[] = [];
  let notOk = 0;
  let idleRequests = 0;
  const connectionErrors: Record<string, number> = {};

  const probe = async (): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (Date.now() < end) {
      const started = performance.now();
      const answer = await get(url, agent);
      latencies.push(performance.now() - started);
      if ('error' in answer || answer.status !== 200) notOk++;
    }
    agent.destroy();
  };
  const idle = async (i: number): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Spread over the first gap, so that the clients are not in step.
    await new Promise((r) => setTimeout(r, (i * 4500) / Math.max(1, req.idleClients)));
    while (Date.now() < end) {
      idleRequests++;
      const answer = await get(url, agent);
      if ('error' in answer) connectionErrors[answer.error] = (connectionErrors[answer.error] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, 2500 + Math.random() * 2000));
    }
    agent.destroy();
  };
  await Promise.all([probe(), ...Array.from({ length: req.idleClients }, (_, i) => idle(i))]);

  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : null);
  return { answers: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? null, notOk, idleRequests, connectionErrors };
}

// Run as a forked child: one probe per message, answered on the same channel.
if (process.send) {
  process.on('message', (message: ProbeRequest) => {
    runProbe(message).then(
      (result) => process.send!({ result }),
      (error: unknown) => process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
