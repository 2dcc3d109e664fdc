import type { StorageLayout } from '../core/storageLayout.js';
import type { AuxdataPosition } from './auxdata.js';
import { auxdataValuesFromLegacyAssembly } from './auxdataPositions.js';
import type { ImmutableReferences, LinkReferences, SolcContractOutput } from './solcTypes.js';

/** What solc reported of one code's auxdata, and where they sit once that is known. */
export interface CompiledAuxdata {
  /** The `.auxdata` values of the legacy assembly, in order; null when solc reported none (no legacy assembly). */
  values: string[] | null;
  /** Their positions in the code, once located (a second compile may have been needed). */
  positions?: AuxdataPosition[];
}

/** One code of a compiled contract, as matching reads it. */
export interface CompiledCode {
  /** Hex without 0x: link placeholders and zeroed immutables in place. */
  code: string;
  linkReferences: LinkReferences;
  auxdata: CompiledAuxdata;
}

/**
 * A contract as the compiler produced it: everything matching needs, from a fresh compile
 * or from the bytecode database (no compile).
 */
export interface CompiledContract {
  abi: unknown[];
  metadata: string;
  creation: CompiledCode;
  runtime: CompiledCode & { immutableReferences: ImmutableReferences };
  /**
   * solc's storage layouts, kept with the compilation (never matched): null when the compiler
   * gave none; absent when not read (a compiled contract from the bytecode database).
   */
  storageLayout?: StorageLayout | null;
  transientStorageLayout?: StorageLayout | null;
}

/** The compiled contract of solc's output for one contract. */
export function compiledContractOf(output: SolcContractOutput): CompiledContract {
  const values = auxdataValuesFromLegacyAssembly(output.evm?.legacyAssembly);
  return {
    abi: output.abi ?? [],
    metadata: output.metadata ?? '',
    creation: { code: output.evm?.bytecode?.object ?? '', linkReferences: output.evm?.bytecode?.linkReferences ?? {}, auxdata: { values } },
    runtime: {
      code: output.evm?.deployedBytecode?.object ?? '',
      linkReferences: output.evm?.deployedBytecode?.linkReferences ?? {},
      immutableReferences: output.evm?.deployedBytecode?.immutableReferences ?? {},
      auxdata: { values },
    },
    storageLayout: output.storageLayout ?? null,
    transientStorageLayout: output.transientStorageLayout ?? null,
  };
}
