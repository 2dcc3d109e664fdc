/** The subset of solc's standard JSON input and output the service reads and writes. */

import type { StorageLayout } from '../core/storageLayout.js';

export type { SolcInput, SolcSettings, SolcSource } from '../core/solcInput.js';

export interface LinkReferences {
  [file: string]: { [library: string]: { start: number; length: number }[] };
}

export interface ImmutableReferences {
  [astId: string]: { start: number; length: number }[];
}

export interface SolcContractOutput {
  abi?: unknown[];
  metadata?: string;
  evm?: {
    bytecode?: { object: string; linkReferences?: LinkReferences; sourceMap?: string };
    deployedBytecode?: {
      object: string;
      linkReferences?: LinkReferences;
      immutableReferences?: ImmutableReferences;
      sourceMap?: string;
    };
    legacyAssembly?: unknown;
  };
  /** From solc 0.5.13. */
  storageLayout?: StorageLayout;
  /** From solc 0.8.27. */
  transientStorageLayout?: StorageLayout;
}

export interface SolcError {
  severity: 'error' | 'warning' | 'info';
  type?: string;
  message: string;
  formattedMessage?: string;
  /** solc's numeric error code as text (0.6.8 on), e.g. "3716". */
  errorCode?: string;
  sourceLocation?: { file: string; start: number; end: number };
}

export interface SolcOutput {
  errors?: SolcError[];
  sources?: Record<string, { id: number; ast?: unknown }>;
  contracts?: Record<string, Record<string, SolcContractOutput>>;
}
