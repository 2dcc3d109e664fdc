import type { AuxdataPosition } from './auxdata.js';
import type { SolcInput } from './solcTypes.js';

/**
 * The auxdata values solc reports in `evm.legacyAssembly`: one `.auxdata` per assembly
 * that got one, found recursively through `.data` (a factory's runtime embeds its child's
 * creation code, which embeds the child's runtime). Hex without 0x, with the length suffix.
 * Null when there is no legacy assembly to read.
 */
export function auxdataValuesFromLegacyAssembly(legacyAssembly: unknown): string[] | null {
  if (typeof legacyAssembly !== 'object' || legacyAssembly === null) return null;
  const values: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 64) return;
    const record = node as Record<string, unknown>;
    const aux = record['.auxdata'];
    if (typeof aux === 'string' && /^[0-9a-fA-F]+$/.test(aux)) values.push(aux.toLowerCase());
    const data = record['.data'];
    if (typeof data === 'object' && data !== null) {
      for (const child of Object.values(data as Record<string, unknown>)) walk(child, depth + 1);
    }
  };
  walk(legacyAssembly, 0);
  return values;
}

/** The same input with a space appended to every source: same code, different metadata hashes. */
export function editedSolcInput(input: SolcInput): SolcInput {
  const sources = Object.fromEntries(
    Object.entries(input.sources).map(([path, source]) => {
      const { keccak256: _dropped, ...rest } = source;
      return [path, { ...rest, content: `${source.content ?? ''} ` }];
    }),
  );
  return { ...input, sources };
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * Locates each auxdata in a compiled code by comparing it with the code compiled from the
 * edited sources: a range is an auxdata only if the original code holds the original value
 * there AND the edited code holds the edited value at the same place. Searching for the
 * value alone would let a contract plant a fake auxdata in its own code.
 * Values whose hash does not change (no content hash) cannot be located and are skipped.
 */
export function findAuxdataPositions(original: string, edited: string, values: string[], editedValues: string[]): AuxdataPosition[] {
  if (original.length !== edited.length || values.length !== editedValues.length) return [];
  const diffStarts = values.map((v, i) => (v.length === editedValues[i]!.length ? firstDifference(v, editedValues[i]!) : -1));
  const found = new Map<number, AuxdataPosition>();
  let i = 0;
  while (i < original.length) {
    if (original[i] === edited[i]) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < original.length && original[i] !== edited[i]) i++;
    for (let k = 0; k < values.length; k++) {
      const diffStart = diffStarts[k]!;
      if (found.has(k) || diffStart < 0) continue;
      const start = runStart - diffStart;
      const value = values[k]!;
      if (start < 0 || start % 2 !== 0) continue;
      if (original.slice(start, start + value.length) !== value) continue;
      if (edited.slice(start, start + value.length) !== editedValues[k]) continue;
      found.set(k, { id: String(k + 1), offset: start / 2, length: value.length / 2, value });
      // One run is one auxdata; identical values elsewhere are taken by later runs.
      break;
    }
  }
  return [...found.values()].sort((a, b) => a.offset - b.offset);
}
