/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;
/** A 0x-prefixed 20-byte address, lower case inside the service. */
export type Address = `0x${string}`;

/** How a submission's source is shaped (Etherscan's `codeformat`). */
export type CodeFormat = 'solidity-single-file' | 'solidity-standard-json-input';

/** A library placement: the name as the user gave it and its on-chain address. */
export interface LibraryLink {
  name: string;
  address: Address;
}

/** A verification request, in the service's own words (parsed from the API fields). */
export interface SourceSubmission {
  address: Address;
  codeFormat: CodeFormat;
  /** Single file: the Solidity text. Standard JSON: the JSON input text. */
  sourceCode: string;
  /** `Name` for a single file, `path:Name` for standard JSON. */
  contractName: string;
  /** Long form, `v0.8.26+commit.8a97fa7a`. */
  compilerVersion: string;
  optimizationUsed: boolean;
  runs: number;
  /** Hex without 0x; '' when none were given. */
  constructorArguments: string;
  /** '' for the compiler default. */
  evmVersion: string;
  /** Etherscan licence code 1..14. */
  licenseType: number;
  libraries: LibraryLink[];
  viaIR: boolean;
}

export type MatchKind = 'full' | 'partial';
