/**
 * Storage layouts, as solc reports them (`storageLayout`, from 0.5.13; `transientStorageLayout`,
 * from 0.8.27): where each state variable lives, kept with a verified compilation and served
 * as solc gave it. When a record has none, why not is decided here, from its compiler.
 */
import { parseVersionNumbers, versionAtLeast } from './compilerVersion.js';

/** One state variable: its slot (a decimal string), its byte offset in the slot, its type's key in `types`. */
export interface StorageLayoutEntry {
  astId: number;
  contract: string;
  label: string;
  offset: number;
  slot: string;
  type: string;
}

/** A type of the layout: `inplace`, `mapping`, `dynamic_array` or `bytes`, and what it is made of. */
export interface StorageLayoutType {
  encoding: string;
  label: string;
  numberOfBytes: string;
  base?: string;
  key?: string;
  value?: string;
  members?: StorageLayoutEntry[];
}

/** solc's layout of one contract: `types` is null when the contract has no state variable of that kind. */
export interface StorageLayout {
  storage: StorageLayoutEntry[];
  types: Record<string, StorageLayoutType> | null;
}

/** The two layouts solc gives, each null when there is none. */
export interface StorageLayouts {
  storageLayout: StorageLayout | null;
  transientStorageLayout: StorageLayout | null;
}

/** The first solc that reports each layout in its standard JSON output. */
export const LAYOUT_SINCE = { storageLayout: '0.5.13', transientStorageLayout: '0.8.27' } as const;

export type LayoutKind = keyof typeof LAYOUT_SINCE;

/**
 * Why a record has no layout of a kind: its compiler gives none (Vyper, Yul, solc before the
 * first release that reports it), or it was verified before the service kept layouts (its
 * compilation is reused, never compiled again, so it keeps none).
 */
export type MissingLayout = { reason: 'vyper' } | { reason: 'not_solidity' } | { reason: 'compiler_too_old'; since: string } | { reason: 'not_kept' };

/**
 * Why a record of `language` compiled by `compilerVersion` (any form: `v0.8.26+commit...`,
 * `vyper:0.4.1`) has no layout of `kind`.
 */
export function missingLayout(kind: LayoutKind, language: string, compilerVersion: string): MissingLayout {
  if (language === 'Vyper' || compilerVersion.startsWith('vyper:')) return { reason: 'vyper' };
  if (language !== 'Solidity') return { reason: 'not_solidity' };
  const since = LAYOUT_SINCE[kind];
  const numbers = parseVersionNumbers(compilerVersion);
  if (numbers && !versionAtLeast(numbers, since)) return { reason: 'compiler_too_old', since };
  return { reason: 'not_kept' };
}

/** A layout read from its stored JSON text; null for none or for a text that is not one. */
export function parseStorageLayout(text: string | null | undefined): StorageLayout | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && Array.isArray((value as StorageLayout).storage)) return value as StorageLayout;
  } catch {
    // A text that is not JSON is no layout.
  }
  return null;
}
