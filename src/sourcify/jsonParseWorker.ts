/**
 * A worker thread of the Sourcify API's body reader: decodes and parses a large body away from
 * the thread that answers every request (an 8 MB body takes it tens of milliseconds).
 */

export type ParsedBody = { ok: true; value: unknown } | { ok: false };

export default function parse(bytes: Uint8Array): ParsedBody {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!/\S/.test(text)) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
