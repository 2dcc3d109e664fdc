/**
 * anvil's state file (`--state`) keeps every block anvil holds, keyed by hash, and anvil makes a
 * fresh genesis block at every start (its timestamp is the start time, so its hash is new)
 * before it loads the file. The fresh genesis is written back with the loaded blocks, so the
 * file gains one block 0 per start, and on the next load whichever block 0 the file lists last
 * becomes block 0: the chain's genesis hash, its identity, changes at random although no block
 * changed. Before each start, the file keeps only the chain's own genesis: the earliest block 0,
 * made at the chain's first start (every later one was made at a later start).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';

/** Where a JSON value starts and ends (`end` exclusive) in a text. */
interface Span {
  start: number;
  end: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** The end (exclusive) of the JSON value starting at `i`. Strings and nesting only: the text is anvil's, already valid JSON. */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first !== '{' && first !== '[') {
    let j = i;
    while (j < text.length && !',]}'.includes(text[j]!) && !WHITESPACE.has(text[j]!)) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') j = stringEnd(text, j) - 1;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  throw new Error('unterminated JSON value');
}

function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new Error('unterminated JSON string');
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  return i;
}

/** The span of the value of `key` in the top-level object of `text`, or null. */
function memberSpan(text: string, key: string): Span | null {
  let i = skipWhitespace(text, 0);
  if (text[i] !== '{') return null;
  i = skipWhitespace(text, i + 1);
  while (i < text.length && text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    if (text[i] !== ':') return null;
    i = skipWhitespace(text, i + 1);
    const end = valueEnd(text, i);
    if (name === key) return { start: i, end };
    i = skipWhitespace(text, end);
    if (text[i] !== ',') return null;
    i = skipWhitespace(text, i + 1);
  }
  return null;
}

/** The spans of the elements of the array spanning `array`. */
function elementSpans(text: string, array: Span): Span[] {
  const spans: Span[] = [];
  let i = skipWhitespace(text, array.start + 1);
  while (i < array.end - 1) {
    const end = valueEnd(text, i);
    spans.push({ start: i, end });
    i = skipWhitespace(text, end);
    if (text[i] === ',') i = skipWhitespace(text, i + 1);
  }
  return spans;
}

/**
 * The state file's text with every block 0 but the chain's own (the earliest) left out, and how
 * many were left out. Only the blocks list changes; every other byte stays as anvil wrote it
 * (its numbers may not fit a JavaScript number).
 */
export function withOwnGenesisOnly(text: string): { text: string; dropped: number } {
  const blocks = memberSpan(text, 'blocks');
  if (!blocks || text[blocks.start] !== '[') return { text, dropped: 0 };
  const elements = elementSpans(text, blocks).map((span) => {
    const header = (JSON.parse(text.slice(span.start, span.end)) as { header?: { number?: string; timestamp?: string } }).header;
    return { span, number: header?.number, timestamp: header?.timestamp };
  });
  const genesisBlocks = elements.filter((e) => e.number !== undefined && BigInt(e.number) === 0n);
  if (genesisBlocks.length < 2) return { text, dropped: 0 };
  const own = genesisBlocks.reduce((earliest, e) => (BigInt(e.timestamp ?? 0) < BigInt(earliest.timestamp ?? 0) ? e : earliest));
  const kept = elements.filter((e) => !genesisBlocks.includes(e) || e === own);
  const list = `[${kept.map((e) => text.slice(e.span.start, e.span.end)).join(',')}]`;
  return { text: text.slice(0, blocks.start) + list + text.slice(blocks.end), dropped: elements.length - kept.length };
}

/**
 * Leaves the chain's own genesis the only block 0 of the state file at `path` (see above),
 * replacing the file at once (a crash leaves the old one or the new one). Returns how many
 * block 0 entries it dropped; 0 when the file does not exist or needed nothing.
 */
export async function keepOwnGenesis(path: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let repaired: ReturnType<typeof withOwnGenesisOnly>;
  try {
    repaired = withOwnGenesisOnly(text);
  } catch {
    // Not a state file this reads (anvil says what is wrong with it when it loads it).
    return 0;
  }
  if (repaired.dropped === 0) return 0;
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, repaired.text);
  await rename(temporary, path);
  return repaired.dropped;
}
