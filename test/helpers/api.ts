import { expect, inject } from 'vitest';

export interface Envelope {
  status: string;
  message: string;
  result: any;
}

/** The suite's shared service (started in globalSetup) and its API key. */
export function sharedService(): { apiUrl: string; baseUrl: string; apiKey: string; dataDir: string } {
  return { apiUrl: inject('apiUrl'), baseUrl: inject('baseUrl'), apiKey: inject('apiKey'), dataDir: inject('serviceDataDir') };
}

/** GET {apiUrl}?params */
export async function apiGet(apiUrl: string, params: Record<string, string>): Promise<Envelope> {
  const url = new URL(apiUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${url}`);
  return (await res.json()) as Envelope;
}

/** POST a form body to {apiUrl}. */
export async function apiPost(apiUrl: string, params: Record<string, string>, query: Record<string, string> = {}): Promise<Envelope> {
  const url = new URL(apiUrl);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${url}`);
  return (await res.json()) as Envelope;
}

/** Polls checkverifystatus until the answer is final; returns the final envelope. */
export async function waitForVerdict(apiUrl: string, guid: string, apiKey: string, extra: Record<string, string> = {}, timeoutMs = 180_000): Promise<Envelope> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const env = await apiGet(apiUrl, { module: 'contract', action: 'checkverifystatus', guid, apikey: apiKey, ...extra });
    if (env.result !== 'Pending in queue') return env;
    if (Date.now() > deadline) throw new Error(`receipt ${guid} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Submits a verification and waits for its final status. */
export async function verifyAndWait(
  apiUrl: string,
  apiKey: string,
  fields: Record<string, string>,
  statusExtra: Record<string, string> = { chainid: '31337' },
): Promise<{ submit: Envelope; status?: Envelope }> {
  const submit = await apiPost(apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...fields });
  if (submit.status !== '1') return { submit };
  return { submit, status: await waitForVerdict(apiUrl, submit.result, apiKey, statusExtra) };
}

/**
 * A failure's text as a client that reads reasons gets it: the reason (ended by a full stop), then the way to the
 * receipt's page (`Diagnosis: <base>/receipt/<guid>`), for clients that show only this text.
 */
export function failureWithReceipt(text: string): unknown {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return expect.stringMatching(new RegExp(`^${escaped}\\.? Diagnosis: http://127\\.0\\.0\\.1:\\d+/receipt/[0-9a-z]{50}$`));
}
