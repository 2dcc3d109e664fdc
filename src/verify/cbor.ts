/**
 * A deliberately small CBOR decoder: definite-length items only, which is all solc writes
 * into the auxdata. Anything else (indefinite lengths, floats, tags) is rejected, so a
 * decode that succeeds means "this really is a solc-style CBOR map".
 */

export type CborValue = number | bigint | string | boolean | null | undefined | Uint8Array | CborValue[] | CborMap;
export interface CborMap {
  [key: string]: CborValue;
}

const MAX_DEPTH = 8;

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.pos >= this.bytes.length) throw new Error('CBOR: unexpected end');
    return this.bytes[this.pos++]!;
  }

  take(n: number): Uint8Array {
    if (n > this.bytes.length - this.pos) throw new Error('CBOR: length beyond input');
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  argument(info: number): number | bigint {
    if (info < 24) return info;
    if (info === 24) return this.byte();
    if (info === 25) return (this.byte() << 8) | this.byte();
    if (info === 26) return ((this.byte() << 24) >>> 0) + (this.byte() << 16) + (this.byte() << 8) + this.byte();
    if (info === 27) {
      let v = 0n;
      for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(this.byte());
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    throw new Error('CBOR: indefinite or reserved length');
  }

  length(info: number): number {
    const n = this.argument(info);
    if (typeof n === 'bigint') throw new Error('CBOR: length too large');
    return n;
  }
}

function readItem(r: Reader, depth: number): CborValue {
  if (depth > MAX_DEPTH) throw new Error('CBOR: nesting too deep');
  const initial = r.byte();
  const major = initial >> 5;
  const info = initial & 0x1f;
  switch (major) {
    case 0:
      return r.argument(info);
    case 1: {
      const n = r.argument(info);
      return typeof n === 'bigint' ? -1n - n : -1 - n;
    }
    case 2:
      return r.take(r.length(info)).slice();
    case 3:
      return new TextDecoder('utf-8', { fatal: true }).decode(r.take(r.length(info)));
    case 4: {
      const n = r.length(info);
      const items: CborValue[] = [];
      for (let i = 0; i < n; i++) items.push(readItem(r, depth + 1));
      return items;
    }
    case 5: {
      const n = r.length(info);
      const map: CborMap = Object.create(null) as CborMap;
      for (let i = 0; i < n; i++) {
        const key = readItem(r, depth + 1);
        if (typeof key !== 'string') throw new Error('CBOR: map key is not a text string');
        if (Object.hasOwn(map, key)) throw new Error('CBOR: duplicate map key');
        map[key] = readItem(r, depth + 1);
      }
      return map;
    }
    case 7:
      if (info === 20) return false;
      if (info === 21) return true;
      if (info === 22) return null;
      if (info === 23) return undefined;
      throw new Error('CBOR: unsupported simple value');
    default:
      throw new Error('CBOR: tags are not supported');
  }
}

/**
 * Decodes exactly one CBOR item that must span all of `bytes` (trailing bytes are an error:
 * the auxdata length prefix says where the map ends).
 */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const r = new Reader(bytes);
  const value = readItem(r, 0);
  if (r.pos !== bytes.length) throw new Error('CBOR: trailing bytes');
  return value;
}
