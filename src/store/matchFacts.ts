/**
 * What a verified record keeps of its match, as JSON text: the fix-ups applied to each part of
 * the compiled code with the values the chain put in, and the libraries the code links. One
 * type each, as verifications write them, and one decoder each that also reads the older forms
 * a store may hold.
 */

import { parseAddress, parseHex } from '../core/hex.js';
import { isRecord } from '../core/json.js';
import type { Hex, LibraryLink } from '../core/types.js';
import type { Transformation, TransformationValues } from '../verify/index.js';

/** The transformations of a record: `applied` to the runtime and creation code, and the on-chain `values` of each part. */
export interface StoredTransformations {
  applied: { runtime: Transformation[]; creation: Transformation[] };
  values: { runtime: TransformationValues; creation: TransformationValues };
}

/** A record whose compiled code is the code on chain: nothing filled in. */
export function noTransformations(): StoredTransformations {
  return { applied: { runtime: [], creation: [] }, values: { runtime: {}, creation: {} } };
}

/** What a match applied, as a record keeps it. */
export function storedTransformations(match: {
  transformations: { runtime: Transformation[]; creation: Transformation[] };
  transformationValues: { runtime: TransformationValues; creation: TransformationValues };
}): StoredTransformations {
  return { applied: match.transformations, values: match.transformationValues };
}

const TYPES: ReadonlySet<string> = new Set<Transformation['type']>(['insert', 'replace', 'delete']);
const REASONS: ReadonlySet<string> = new Set<Transformation['reason']>(['constructorArguments', 'library', 'immutable', 'cborAuxdata', 'callProtection']);

/**
 * Reads a record's stored transformations. Besides the form above it reads the older ones:
 * values kept as one set for both parts, and the applied lists alone (`{runtime, creation}`,
 * no values); anything else reads as none. Entries that are not transformations are left out.
 */
export function decodeTransformations(text: string): StoredTransformations {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return noTransformations();
  }
  if (!isRecord(stored)) return noTransformations();
  const applied = isRecord(stored['applied']) ? stored['applied'] : stored;
  const values = isRecord(stored['values']) ? stored['values'] : {};
  const perPart = 'runtime' in values || 'creation' in values;
  return {
    applied: { runtime: transformationList(applied['runtime']), creation: transformationList(applied['creation']) },
    values: {
      runtime: transformationValues(perPart ? values['runtime'] : values),
      creation: transformationValues(perPart ? values['creation'] : values),
    },
  };
}

function transformationList(value: unknown): Transformation[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (t): t is Transformation =>
      isRecord(t) &&
      typeof t['offset'] === 'number' &&
      TYPES.has(String(t['type'])) &&
      REASONS.has(String(t['reason'])) &&
      (t['id'] === undefined || typeof t['id'] === 'string') &&
      (t['length'] === undefined || typeof t['length'] === 'number'),
  );
}

function transformationValues(value: unknown): TransformationValues {
  if (!isRecord(value)) return {};
  const out: TransformationValues = {};
  for (const key of ['constructorArguments', 'callProtection'] as const) {
    const hex = typeof value[key] === 'string' ? parseHex(value[key]) : null;
    if (hex !== null) out[key] = hex;
  }
  for (const key of ['libraries', 'immutables', 'cborAuxdata'] as const) {
    const group = value[key];
    if (isRecord(group)) out[key] = Object.fromEntries(Object.entries(group).filter((e): e is [string, Hex] => typeof e[1] === 'string'));
  }
  return out;
}

/** Reads a record's stored libraries: `{name, address}` each; entries that are not are left out. */
export function decodeLibraries(text: string): LibraryLink[] {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((l) =>
    isRecord(l) && typeof l['name'] === 'string' && typeof l['address'] === 'string' && parseAddress(l['address'])
      ? [{ name: l['name'], address: parseAddress(l['address'])! }]
      : [],
  );
}
