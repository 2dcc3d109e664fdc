/**
 * What a verified contract's SourceCode is made from, stored once however many contracts
 * (copies, re-verifications) share it. Source contents live in `sources` by hash; the
 * document keeps references, and reading it back gives the text byte for byte.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isRecord } from '../core/json.js';
import { saveSources, sourceContents, sourceHash } from './compilations.js';
import type { Database, InputDocumentKind } from './database.js';

/** A submitted input: one Solidity file, a standard JSON input (parsed), or a text kept as it was. */
export type InputDocument =
  | { kind: 'single-file'; content: string }
  | { kind: 'standard-json'; input: Record<string, unknown> }
  | { kind: 'raw'; text: string };

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** How a source's content is referred to inside a stored standard JSON document. */
const SOURCE_REF = '$source';

/** The stored form of a document and the contents it refers to. */
function storedForm(doc: InputDocument): { kind: InputDocumentKind; document: string; contents: string[] } {
  if (doc.kind === 'raw') return { kind: 'raw', document: doc.text, contents: [] };
  if (doc.kind === 'single-file') return { kind: 'single-file', document: sourceHash(doc.content), contents: [doc.content] };
  const contents: string[] = [];
  const sources = isRecord(doc.input['sources']) ? doc.input['sources'] : {};
  const referenced: Record<string, unknown> = {};
  for (const [path, source] of Object.entries(sources)) {
    if (isRecord(source) && typeof source['content'] === 'string') {
      contents.push(source['content']);
      referenced[path] = { ...source, content: { [SOURCE_REF]: sourceHash(source['content']) } };
    } else {
      referenced[path] = source;
    }
  }
  // Key order is kept: the served text is JSON.stringify of the input as it was parsed.
  const document = JSON.stringify({ ...doc.input, ...(isRecord(doc.input['sources']) ? { sources: referenced } : {}) });
  return { kind: 'standard-json', document, contents };
}

/** Stores a document (and its sources) once; returns its id. */
export async function saveInputDocument(db: Kysely<Database>, doc: InputDocument): Promise<string> {
  const { kind, document, contents } = storedForm(doc);
  const id = sha256Hex(`${kind}\n${document}`);
  await saveSources(db, contents);
  await db
    .insertInto('inputDocuments')
    .values({ id, kind, document })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return id;
}

/**
 * The text a document stands for: the Solidity file, the standard JSON input as
 * JSON.stringify wrote it when submitted, or the kept text. With `onlySources`, a standard JSON
 * input keeps only those of its sources (the files a contract's metadata proves). Null when
 * there is no such document.
 */
export async function readInputDocument(db: Kysely<Database>, id: string, onlySources?: ReadonlySet<string> | null): Promise<string | null> {
  const row = await db.selectFrom('inputDocuments').select(['kind', 'document']).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  if (row.kind === 'raw') return row.document;
  if (row.kind === 'single-file') return (await sourceContents(db, [row.document])).get(row.document) ?? '';
  const doc = JSON.parse(row.document) as Record<string, unknown>;
  const sources = isRecord(doc['sources']) ? doc['sources'] : {};
  if (onlySources) {
    for (const path of Object.keys(sources)) if (!onlySources.has(path)) delete sources[path];
  }
  const hashes: string[] = [];
  for (const source of Object.values(sources)) {
    const ref = isRecord(source) && isRecord(source['content']) ? source['content'][SOURCE_REF] : undefined;
    if (typeof ref === 'string') hashes.push(ref);
  }
  const contents = await sourceContents(db, hashes);
  for (const source of Object.values(sources)) {
    if (!isRecord(source) || !isRecord(source['content'])) continue;
    const ref = source['content'][SOURCE_REF];
    if (typeof ref === 'string') source['content'] = contents.get(ref) ?? '';
  }
  return JSON.stringify(doc);
}
