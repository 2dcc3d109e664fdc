/** Solc's standard JSON input, as the service reads and writes it. */

export interface SolcSource {
  content?: string;
  urls?: string[];
  keccak256?: string;
}

export interface SolcSettings {
  optimizer?: { enabled?: boolean; runs?: number; details?: unknown };
  evmVersion?: string;
  viaIR?: boolean;
  libraries?: Record<string, Record<string, string>>;
  metadata?: { bytecodeHash?: 'ipfs' | 'bzzr1' | 'none'; appendCBOR?: boolean; useLiteralContent?: boolean };
  outputSelection?: Record<string, Record<string, string[]>>;
  remappings?: string[];
  [key: string]: unknown;
}

export interface SolcInput {
  language: string;
  sources: Record<string, SolcSource>;
  settings: SolcSettings;
}
