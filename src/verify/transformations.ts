import { type AbiParameter, decodeAbiParameters, encodeAbiParameters } from 'viem';
import type { Hex } from '../core/types.js';
import { type AuxdataPosition, hasContentHash, tryDecodeAuxdata } from './auxdata.js';
import type { ImmutableReferences, LinkReferences } from './solcTypes.js';

/**
 * One change made to the compiled code to reach the on-chain code, in Sourcify's
 * vocabulary so records are comparable. Offsets are in bytes of the compiled code.
 */
export interface Transformation {
  type: 'insert' | 'replace' | 'delete';
  reason: 'constructorArguments' | 'library' | 'immutable' | 'cborAuxdata' | 'callProtection';
  offset: number;
  id?: string;
  length?: number;
}

/** The on-chain values the transformations put in (all 0x-hex). */
export interface TransformationValues {
  constructorArguments?: Hex;
  callProtection?: Hex;
  /** Fully qualified `path:Name` to address. */
  libraries?: Record<string, Hex>;
  /** AST id (or solc's name for internal immutables) to value. */
  immutables?: Record<string, Hex>;
  /** Auxdata id to the on-chain auxdata that replaced the compiled one. */
  cborAuxdata?: Record<string, Hex>;
}

/** A code (hex without 0x) after a fix-up, with what was changed. */
export interface Fixup {
  code: string;
  transformations: Transformation[];
  values: TransformationValues;
}

const CALL_PROTECTION_PLACEHOLDER = `73${'00'.repeat(20)}`;

/**
 * A library's runtime starts with `PUSH20 <own address>`, compiled as zeros and filled in
 * when the library is deployed: copy the on-chain address.
 */
export function applyCallProtection(code: string, onchain: string): Fixup {
  if (!code.startsWith(CALL_PROTECTION_PLACEHOLDER) || !onchain.startsWith('73') || onchain.length < 42) {
    return { code, transformations: [], values: {} };
  }
  const address = onchain.slice(2, 42);
  return {
    code: `73${address}${code.slice(42)}`,
    transformations: [{ type: 'replace', reason: 'callProtection', offset: 1 }],
    values: { callProtection: `0x${address}` },
  };
}

/**
 * Immutables are zeros in the compiled runtime and written by the constructor: copy the
 * on-chain bytes. Null when a range lies outside the on-chain code or when occurrences of
 * one immutable disagree (one variable cannot hold two values).
 */
export function applyImmutables(code: string, onchain: string, references: ImmutableReferences | undefined): Fixup | null {
  const transformations: Transformation[] = [];
  const immutables: Record<string, Hex> = {};
  let out = code;
  for (const [id, ranges] of Object.entries(references ?? {})) {
    let value: string | null = null;
    for (const { start, length } of ranges) {
      const from = start * 2;
      const to = from + length * 2;
      if (to > onchain.length || to > out.length) return null;
      const found = onchain.slice(from, to);
      if (value !== null && found !== value) return null;
      value = found;
      out = out.slice(0, from) + found + out.slice(to);
      transformations.push({ type: 'replace', reason: 'immutable', offset: start, id });
    }
    if (value !== null) immutables[id] = `0x${value}`;
  }
  return { code: out, transformations, values: transformations.length > 0 ? { immutables } : {} };
}

/** A link range holds `__$<34 hex>$__` (0.5.0+), `__<path:Name padded with _>__` (older) or zeros. */
function isLibraryPlaceholder(text: string): boolean {
  return text.length === 40 && ((text.startsWith('__') && text.endsWith('__')) || /^0{40}$/.test(text));
}

/** The fully qualified name a link reference stands for. */
export function libraryId(file: string, name: string): string {
  return file === '' ? name : `${file}:${name}`;
}

/**
 * Copies the on-chain address into every link reference and records it. Null when a range
 * does not hold a placeholder, lies outside the on-chain code, or one library would have
 * two addresses.
 */
export function applyLibraries(code: string, onchain: string, references: LinkReferences | undefined): Fixup | null {
  const transformations: Transformation[] = [];
  const libraries: Record<string, Hex> = {};
  let out = code;
  for (const [file, byName] of Object.entries(references ?? {})) {
    for (const [name, ranges] of Object.entries(byName)) {
      const id = libraryId(file, name);
      for (const { start, length } of ranges) {
        const from = start * 2;
        const to = from + length * 2;
        if (length !== 20 || to > onchain.length || !isLibraryPlaceholder(out.slice(from, to))) return null;
        const address = onchain.slice(from, to);
        const known = libraries[id];
        if (known !== undefined && known !== `0x${address}`) return null;
        libraries[id] = `0x${address}`;
        out = out.slice(0, from) + address + out.slice(to);
        transformations.push({ type: 'replace', reason: 'library', offset: start, id });
      }
    }
  }
  return { code: out, transformations, values: transformations.length > 0 ? { libraries } : {} };
}

/**
 * Replaces each compiled auxdata with the on-chain bytes at the same place, which must
 * decode as an auxdata of the same length. With `tailMayDiffer` (runtime code only), the
 * last auxdata may also be absent on chain (`appendCBOR: false`, recorded as a deletion of
 * it and the `0xfe` before it) or a different-length auxdata without a content hash
 * (`bytecodeHash: none`): see docs/matching.md, Runtime code.
 */
export function replaceAuxdata(code: string, onchain: string, positions: AuxdataPosition[], options: { tailMayDiffer: boolean }): Fixup | null {
  const transformations: Transformation[] = [];
  const cborAuxdata: Record<string, Hex> = {};
  let out = code;
  // From the end backwards, so a tail whose length changes does not shift the others.
  for (const p of [...positions].sort((a, b) => b.offset - a.offset)) {
    const from = p.offset * 2;
    const to = from + p.length * 2;
    if (options.tailMayDiffer && to === code.length && onchain.length !== code.length) {
      if (onchain.length === from - 2 && code.slice(from - 2, from) === 'fe') {
        out = out.slice(0, from - 2);
        transformations.push({ type: 'delete', reason: 'cborAuxdata', offset: p.offset - 1, length: p.length + 1 });
        continue;
      }
      if (onchain.length === from) {
        out = out.slice(0, from);
        transformations.push({ type: 'delete', reason: 'cborAuxdata', offset: p.offset, length: p.length });
        continue;
      }
      const tail = onchain.slice(from);
      const decoded = tryDecodeAuxdata(tail);
      if (onchain.length < from || !decoded || hasContentHash(decoded)) return null;
      out = out.slice(0, from) + tail;
      cborAuxdata[p.id] = `0x${tail}`;
      transformations.push({ type: 'replace', reason: 'cborAuxdata', offset: p.offset, id: p.id, length: p.length });
      continue;
    }
    if (to > onchain.length) return null;
    const found = onchain.slice(from, to);
    if (!tryDecodeAuxdata(found)) return null;
    out = out.slice(0, from) + found + out.slice(to);
    cborAuxdata[p.id] = `0x${found}`;
    transformations.push({ type: 'replace', reason: 'cborAuxdata', offset: p.offset, id: p.id });
  }
  transformations.sort((a, b) => a.offset - b.offset);
  return { code: out, transformations, values: Object.keys(cborAuxdata).length > 0 ? { cborAuxdata } : {} };
}

/** The constructor's inputs from an ABI (none when there is no constructor entry). */
export function constructorInputs(abi: readonly unknown[]): readonly AbiParameter[] {
  const ctor = abi.find(
    (item): item is { type: 'constructor'; inputs?: AbiParameter[] } =>
      typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'constructor',
  );
  return ctor?.inputs ?? [];
}

/**
 * Checks that `args` (hex without 0x, the rest of the creation code) is exactly one ABI
 * encoding of the constructor inputs: decoding alone accepts trailing garbage, so the
 * decoded values are encoded again and must give the same bytes. Empty args always pass
 * (the deployment succeeded with them).
 */
export function constructorArgumentsAreCanonical(args: string, inputs: readonly AbiParameter[]): boolean {
  if (args === '') return true;
  if (inputs.length === 0 || args.length % 2 !== 0) return false;
  try {
    const decoded = decodeAbiParameters(inputs, `0x${args}`);
    const encoded = encodeAbiParameters(inputs, decoded as readonly unknown[]);
    return encoded.slice(2).toLowerCase() === args.toLowerCase();
  } catch {
    return false;
  }
}
