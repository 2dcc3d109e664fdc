import { createHash } from 'node:crypto';

/** solc puts a metadata text of up to this many bytes into one IPFS block; a longer one is a tree of blocks. */
const IPFS_CHUNK_BYTES = 256 * 1024;

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/**
 * The IPFS hash solc puts in the auxdata for a metadata text: the sha2-256 multihash (hex,
 * `1220...`, 34 bytes) of the one-block UnixFS file holding the text, as solc's `ipfsHash`
 * writes it (a protobuf `Data { Type: File, Data: text, filesize }` inside a `PBNode { Data }`).
 * Null for a text longer than one block (256 KiB), which solc splits into a tree: the caller
 * then proves the auxdata another way.
 */
export function ipfsHashOfMetadata(metadata: string): string | null {
  const text = Buffer.from(metadata, 'utf8');
  if (text.length > IPFS_CHUNK_BYTES) return null;
  const size = varint(text.length);
  const unixfs = Buffer.concat([
    Buffer.from([0x08, 0x02]),
    text.length > 0 ? Buffer.concat([Buffer.from([0x12, ...size]), text]) : Buffer.alloc(0),
    Buffer.from([0x18, ...size]),
  ]);
  const node = Buffer.concat([Buffer.from([0x0a, ...varint(unixfs.length)]), unixfs]);
  return `1220${createHash('sha256').update(node).digest('hex')}`;
}
