import type { AbiParameter } from 'viem';
import type { MatchKind } from '../core/types.js';
import { type AuxdataPosition, hasContentHash, tailAuxdata } from './auxdata.js';
import type { ImmutableReferences, LinkReferences } from './solcTypes.js';
import {
  applyCallProtection,
  applyImmutables,
  applyLibraries,
  constructorArgumentsAreCanonical,
  type Fixup,
  replaceAuxdata,
  type Transformation,
  type TransformationValues,
} from './transformations.js';

/** What the matcher needs to know about the compiled auxdata of one code. */
export interface AuxdataSource {
  /** True when the code carries auxdata and every one has a content hash (so an identical code is a full match). */
  proveMetadata: boolean;
  /** Positions of the auxdata in the compiled code; may cost a second compile, so asked only when needed. */
  positions(): Promise<AuxdataPosition[]>;
}

export interface CodeMatch {
  kind: MatchKind;
  transformations: Transformation[];
  values: TransformationValues;
}

export interface CreationCodeMatch extends CodeMatch {
  /** Hex without 0x: the rest of the on-chain creation code after the compiled one. */
  constructorArguments: string;
}

function combine(...fixups: Fixup[]): { transformations: Transformation[]; values: TransformationValues } {
  const transformations: Transformation[] = [];
  const values: TransformationValues = {};
  for (const f of fixups) {
    transformations.push(...f.transformations);
    for (const [key, value] of Object.entries(f.values) as [keyof TransformationValues, unknown][]) {
      if (typeof value === 'string') (values as Record<string, unknown>)[key] = value;
      else (values as Record<string, unknown>)[key] = { ...((values[key] as object | undefined) ?? {}), ...(value as object) };
    }
  }
  return { transformations, values };
}

/**
 * Matches compiled runtime code against the code at the address (both hex without 0x,
 * on-chain lower case): call protection, immutables, libraries, then equality (full when
 * the auxdata proves the metadata), else auxdata replaced by the on-chain bytes (partial).
 * Null when the codes differ in anything else.
 */
export async function matchRuntimeCode(args: {
  compiled: string;
  onchain: string;
  immutableReferences: ImmutableReferences | undefined;
  linkReferences: LinkReferences | undefined;
  auxdata: AuxdataSource;
}): Promise<CodeMatch | null> {
  const { onchain } = args;
  const protection = applyCallProtection(args.compiled, onchain);
  const immutables = applyImmutables(protection.code, onchain, args.immutableReferences);
  if (!immutables) return null;
  const libraries = applyLibraries(immutables.code, onchain, args.linkReferences);
  if (!libraries) return null;
  if (libraries.code === onchain) {
    return { kind: args.auxdata.proveMetadata ? 'full' : 'partial', ...combine(protection, immutables, libraries) };
  }
  if (libraries.code.length !== onchain.length && hasContentHash(tailAuxdata(onchain)?.decoded ?? null)) {
    // Different lengths are only explainable by an on-chain tail without a metadata hash.
    return null;
  }
  const positions = await args.auxdata.positions();
  if (positions.length === 0) return null;
  const auxdata = replaceAuxdata(libraries.code, onchain, positions, { tailMayDiffer: true });
  if (!auxdata || auxdata.code !== onchain) return null;
  return { kind: 'partial', ...combine(protection, immutables, libraries, auxdata) };
}

/**
 * Matches compiled creation code against the init code that ran: libraries applied, the
 * on-chain code must start with the compiled one (after auxdata replacement for a partial
 * match), and the rest must be one canonical ABI encoding of the constructor inputs.
 * Null otherwise.
 */
export async function matchCreationCode(args: {
  compiled: string;
  onchain: string;
  linkReferences: LinkReferences | undefined;
  auxdata: AuxdataSource;
  constructorInputs: readonly AbiParameter[];
}): Promise<CreationCodeMatch | null> {
  const { onchain } = args;
  if (args.compiled.length === 0 || onchain.length < args.compiled.length) return null;
  const libraries = applyLibraries(args.compiled, onchain, args.linkReferences);
  if (!libraries) return null;
  let kind: MatchKind;
  let fixups: Fixup[];
  let code: string;
  if (onchain.startsWith(libraries.code)) {
    kind = args.auxdata.proveMetadata ? 'full' : 'partial';
    fixups = [libraries];
    code = libraries.code;
  } else {
    const positions = await args.auxdata.positions();
    if (positions.length === 0) return null;
    const auxdata = replaceAuxdata(libraries.code, onchain, positions, { tailMayDiffer: false });
    if (!auxdata || !onchain.startsWith(auxdata.code)) return null;
    kind = 'partial';
    fixups = [libraries, auxdata];
    code = auxdata.code;
  }
  const constructorArguments = onchain.slice(code.length);
  if (!constructorArgumentsAreCanonical(constructorArguments, args.constructorInputs)) return null;
  const { transformations, values } = combine(...fixups);
  if (constructorArguments !== '') {
    transformations.push({ type: 'insert', reason: 'constructorArguments', offset: code.length / 2 });
    values.constructorArguments = `0x${constructorArguments}`;
  }
  return { kind, transformations, values, constructorArguments };
}
