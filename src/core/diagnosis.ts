/**
 * The diagnosis of a failed verification, as a job stores it and every reader reads it: verify/
 * writes it, the job keeps it in its result, texts/ and the pages word it. A Solidity diagnosis
 * (the documents of every release) or a Vyper one, tagged `language: 'Vyper'`.
 */
import type { VyperAuxdataEra } from './vyperVersion.js';

/** One instruction: its byte offset and text (`PUSH2 0x0100`). */
export interface Instruction {
  offset: number;
  text: string;
}

/** Where a compiled code and the deployed code differ, for a reader. */
export interface CodeComparison {
  deployedLength: number;
  compiledLength: number;
  /** Byte offset of the first difference; null when the codes are equal. */
  firstDifference: number | null;
  /** A few instructions around the first difference, on each side. */
  deployedAround: Instruction[];
  compiledAround: Instruction[];
  /** The codes differ only inside their CBOR auxdata (the metadata hash). */
  onlyMetadata: boolean;
  /** Bytes that differ, in all. */
  differingBytes: number;
}

/** The metadata hash kind the deployed auxdata carries; `none` when it has auxdata without a hash, `absent` without auxdata. */
export type DeployedHashKind = 'ipfs' | 'bzzr0' | 'bzzr1' | 'none' | 'absent';

/** What the deployed code says about how it was built, before anything is compiled. */
export interface DeployedFacts {
  /** `0.8.24` from the auxdata's `solc` key, or null when it has none (before 0.5.9, or no auxdata). */
  compilerRelease: string | null;
  hashKind: DeployedHashKind;
  /** Bytes of deployed runtime code. */
  runtimeLength: number;
}

/** A setting a diagnosis may change, in the words a user sets it with. */
export type DiagnosisSetting =
  | 'compilerVersion'
  | 'optimizer'
  | 'runs'
  | 'evmVersion'
  | 'viaIR'
  | 'bytecodeHash'
  | 'appendCBOR'
  | 'contractName'
  | 'constructorArguments'
  | 'library';

/** One change to a submission: the setting, what was sent and what is tried instead. */
export interface SettingChange {
  setting: DiagnosisSetting;
  /** The library's name, for a `library` change. */
  name?: string;
  /** As sent ('' for the compiler default). */
  from: string;
  to: string;
}

/** The settings of a submission as the compiler gets them, in the diagnosis's words. */
export interface SubmittedSettings {
  compilerVersion: string;
  optimizer: boolean;
  runs: number;
  /** '' for the compiler default. */
  evmVersion: string;
  viaIR: boolean;
  /** 'ipfs' (solc's default), 'bzzr1', 'none'. */
  bytecodeHash: string;
  /** False when the input asks for code without CBOR metadata. */
  appendCBOR: boolean;
  contractName: string;
}

/** What a diagnosis found. Every `fix` was verified: the submission with it applied passed. */
export interface Diagnosis {
  /** The failure family: the error code. */
  code: string;
  facts: DeployedFacts & {
    /** The settings as sent. */
    sent: SubmittedSettings;
    /** Contracts of the submission whose code has the deployed code's shape (same fingerprint). */
    sameShape: string[];
    /** Hex without 0x, for a constructor-arguments failure. */
    onchainConstructorArguments?: string;
    /** For a library failure. */
    library?: { name: string; onchain: string; submitted: string };
  };
  /** The changes that make the submission pass (checked by verifying with them), or null. */
  fix: { changes: SettingChange[]; matchKind: string } | null;
  /** Where the codes differ, when no fix was found (the submission's code against the deployed code). */
  comparison: CodeComparison | null;
  /** Candidate settings verified, and compiles they cost. */
  tried: number;
  compiles: number;
  ms: number;
  /** True when the budget ran out before every candidate was tried. */
  budgetSpent: boolean;
  /**
   * Which limit ended the search early: its compiles or its time; null when it was not ended
   * early. Absent from diagnoses stored before the time limit stopped compiles in flight.
   */
  limitReached?: 'compiles' | 'time' | null | undefined;
  /** Compiles stopped unfinished at the time limit (they are among `compiles`); absent as limitReached is. */
  compilesStopped?: number | undefined;
  /** No contract of the submission has its functions in the deployed code: another contract is there, nothing was searched. */
  unrelated?: boolean | undefined;
}

/** A setting a Vyper diagnosis may change. */
export type VyperDiagnosisSetting = 'compilerVersion' | 'optimize' | 'evmVersion' | 'contractName';

export interface VyperSettingChange {
  setting: VyperDiagnosisSetting;
  /** As sent ('' for the compiler default). */
  from: string;
  to: string;
}

/** The settings of a Vyper submission in the diagnosis's words. */
export interface VyperSubmittedSettings {
  compilerVersion: string;
  /** `gas`, `codesize`, `none`, or `true`/`false` for a release before 0.3.10; '' for the default. */
  optimize: string;
  evmVersion: string;
  contractName: string;
}

/** What the deployed code says of its compiler. */
export interface VyperDeployedFacts {
  /** The version its auxdata names (`0.4.1`: a prerelease names its release's); null when it has none. */
  version: string | null;
  era: VyperAuxdataEra | null;
  /** From 0.4.1: the integrity hash of the deployed sources. */
  integrity: string | null;
}

/** What a diagnosis of a Vyper submission found: tagged with its language (a Solidity diagnosis has none). */
export interface VyperDiagnosis {
  language: 'Vyper';
  code: string;
  facts: VyperDeployedFacts & { sent: VyperSubmittedSettings; sameShape: string[] };
  /** The changes that make the submission pass (checked by verifying with them), or null. */
  fix: { changes: VyperSettingChange[]; matchKind: string } | null;
  tried: number;
  compiles: number;
  ms: number;
  budgetSpent: boolean;
  limitReached: 'compiles' | 'time' | null;
}

/** A stored diagnosis: Solidity's (untagged) or Vyper's. */
export type StoredDiagnosis = Diagnosis | VyperDiagnosis;

export function isVyperDiagnosis(d: StoredDiagnosis): d is VyperDiagnosis {
  return (d as { language?: unknown }).language === 'Vyper';
}
