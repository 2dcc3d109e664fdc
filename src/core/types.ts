import type { SolcInput } from './solcInput.js';

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

/** What every verification request says besides its sources. */
interface SubmissionFields {
  address: Address;
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
  /** Etherscan licence code 1..14; 0 when none was given. */
  licenseType: number;
  libraries: LibraryLink[];
  viaIR: boolean;
}

/** A single Solidity file (Etherscan's `solidity-single-file`). */
export interface SingleFileSubmission extends SubmissionFields {
  codeFormat: 'solidity-single-file';
  /** The Solidity text. */
  sourceCode: string;
}

/** A standard JSON input (`solidity-standard-json-input`), parsed once when it was submitted. */
export interface StandardJsonSubmission extends SubmissionFields {
  codeFormat: 'solidity-standard-json-input';
  /** The input as submitted (its settings untouched), validated: Solidity, inline sources. */
  standardJson: SolcInput;
}

/** A verification request, in the service's own words (parsed from the API fields). */
export type SourceSubmission = SingleFileSubmission | StandardJsonSubmission;

/** What verifyproxycontract asks. */
export interface ProxyRequest {
  address: Address;
  expectedImplementation?: Address;
}

export type MatchKind = 'full' | 'partial';

/** How a contract was verified: its own sources submitted, a copy of a verified contract, or a whole build submitted. */
export type VerificationMethod = 'submitted' | 'similar' | 'build';
