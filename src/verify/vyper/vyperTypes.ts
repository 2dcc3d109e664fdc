/** The parts of Vyper's standard JSON output the service reads (every release from 0.2.5 writes them alike). */

export type { VyperInput, VyperSettings } from '../../core/types.js';

export interface VyperContractOutput {
  abi?: unknown[];
  evm?: {
    /** The init code, 0x-prefixed (older releases) or not. */
    bytecode?: { object?: string };
    deployedBytecode?: { object?: string };
  };
}

export interface VyperError {
  type?: string;
  component?: string;
  severity: string;
  message: string;
  formattedMessage?: string;
  sourceLocation?: { file?: string; lineno?: number; col_offset?: number | null };
}

export interface VyperOutput {
  /** `vyper-0.4.1` */
  compiler?: string;
  contracts?: Record<string, Record<string, VyperContractOutput>>;
  sources?: Record<string, { id?: number }>;
  errors?: VyperError[];
}
