import type { VersionWithV } from './compilerVersion.js';
import type { SolcInput } from './solcInput.js';

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;
/** A 0x-prefixed 20-byte address, lower case inside the service. */
export type Address = `0x${string}`;

/** How a submission's source is shaped (Etherscan's `codeformat`). */
export type CodeFormat = 'solidity-single-file' | 'solidity-standard-json-input';

/** How a Vyper submission's source is shaped: Etherscan's `vyper-json`, or one `.vy` file. */
export type VyperCodeFormat = 'vyper-json' | 'vyper-single-file';

/** The code format a verified contract is kept with: a Solidity or a Vyper one. */
export type StoredCodeFormat = CodeFormat | VyperCodeFormat;

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
  compilerVersion: VersionWithV;
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

/** Vyper's standard JSON input (`vyper-json`), as the service reads and writes it. */
export interface VyperInput {
  language: 'Vyper';
  /** Modules (`.vy`) and, from 0.4, interface files (`.vyi`), each with its inline text. */
  sources: Record<string, { content: string; keccak256?: string }>;
  /** Before 0.4: interface files, as text (`.vy`, `.vyi`), an ABI (`.json`: `{abi}` or a bare list) or an EthPM manifest (`{contractTypes}`). */
  interfaces?: Record<string, { content: string } | { abi: unknown[] } | { contractTypes: Record<string, unknown> } | unknown[]>;
  settings: VyperSettings;
  /** Storage slots chosen by hand, by source path (0.3.10 on); the integrity hash covers them. */
  storage_layout_overrides?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface VyperSettings {
  evmVersion?: string;
  /** `gas` (the default), `codesize` or `none` from 0.3.10; a boolean before. */
  optimize?: boolean | 'gas' | 'codesize' | 'none';
  experimentalCodegen?: boolean;
  venom?: boolean;
  /** False: no auxdata at all (`--no-bytecode-metadata`). */
  bytecodeMetadata?: boolean;
  outputSelection?: Record<string, string[] | Record<string, string[]>>;
  [key: string]: unknown;
}

/** What every Vyper verification request says besides its sources. */
interface VyperSubmissionFields {
  address: Address;
  /** `path:Name` or `Name` (a Vyper contract is named after its file). */
  contractName: string;
  /** As the client sent it: `vyper:0.4.1`, `v0.4.1+commit.8a93dd27`, `0.4.1b1+commit.039d3692`... */
  compilerVersion: string;
  /** Hex without 0x; '' when none were given. */
  constructorArguments: string;
  /** Etherscan licence code 1..14; 0 when none was given. */
  licenseType: number;
}

/** Vyper's standard JSON input (Etherscan's `vyper-json`), parsed once when it was submitted. */
export interface VyperJsonSubmission extends VyperSubmissionFields {
  codeFormat: Extract<VyperCodeFormat, 'vyper-json'>;
  /** The input as submitted (its settings untouched), validated: Vyper, inline sources. */
  vyperJson: VyperInput;
}

/** A single `.vy` file, compiled with the settings of the form. */
export interface VyperSingleFileSubmission extends VyperSubmissionFields {
  codeFormat: 'vyper-single-file';
  sourceCode: string;
  /** The file's path in the compile (`Token.vy` when not given): its stem is the contract's name. */
  fileName?: string;
  /** Etherscan's yes/no: the default mode (gas) or none. */
  optimizationUsed: boolean;
  /** '' for the compiler default. */
  evmVersion: string;
}

/** A Vyper verification request, in the service's own words. */
export type VyperSubmission = VyperJsonSubmission | VyperSingleFileSubmission;

/** A source verification of either language: its code format tells which. */
export type AnySourceSubmission = SourceSubmission | VyperSubmission;

/** True for a Vyper submission (`vyper-json` or a `.vy` file). */
export function isVyperSubmission(submission: AnySourceSubmission): submission is VyperSubmission {
  return submission.codeFormat === 'vyper-json' || submission.codeFormat === 'vyper-single-file';
}
