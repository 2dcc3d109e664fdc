/**
 * The request's parameters: query string and body merged (body wins), names matched
 * case-insensitively. Values are strings; repeated fields keep the last value.
 */
export class Params {
  private readonly values = new Map<string, string>();

  constructor(...sources: Array<Record<string, unknown> | undefined | null>) {
    for (const source of sources) {
      if (!source || typeof source !== 'object') continue;
      for (const [key, raw] of Object.entries(source)) {
        const value = toText(raw);
        if (value !== undefined) this.values.set(key.toLowerCase(), value);
      }
    }
  }

  /** The value, or undefined when absent. */
  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase());
  }

  /** The trimmed value, '' when absent. */
  text(name: string): string {
    return (this.get(name) ?? '').trim();
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
}

function toText(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) return raw.length ? toText(raw[raw.length - 1]) : undefined;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  // JSON bodies may carry a standard-JSON input as an object: keep it as text.
  if (typeof raw === 'object') return JSON.stringify(raw);
  return undefined;
}
