import { licenseName } from '../core/licenses.js';
import { TEXT } from '../texts/index.js';
import { type ProxyRecord, publishedSourceCode, publishesInput, type VerifiedContract } from '../useCases/index.js';
import { provenMatch, wrapStandardJson } from '../verify/index.js';

/** One element of getsourcecode's `result`: Etherscan's PascalCase record, every field a string. */
export interface SourceRecord {
  /** A single file's text, or the standard JSON input wrapped in one extra pair of braces (`{{...}}`). */
  SourceCode: string;
  /** The ABI as JSON text, or Etherscan's "not verified" text. */
  ABI: string;
  ContractName: string;
  /** `v0.8.26+commit.8a97fa7a`; a Vyper compiler `vyper:0.4.3+commit.bff19ea2`. */
  CompilerVersion: string;
  /** "0" or "1" (for Vyper: "0" only when the optimisation was `none`). */
  OptimizationUsed: string;
  /** Numeric text (Foundry's parser rejects "" for a verified record); "0" for Vyper, which has no runs. */
  Runs: string;
  /** Hex without 0x; "" when none, or when nothing proved them. */
  ConstructorArguments: string;
  /** "Default" when the compiler's default was used. */
  EVMVersion: string;
  /** `Name:0xaddr;Name2:0xaddr`. */
  Library: string;
  LicenseType: string;
  /** "1" only with an Implementation (Foundry panics otherwise). */
  Proxy: '0' | '1';
  Implementation: string;
  SwarmSource: string;
  // Fields beyond Etherscan's first ones (clients ignore what they do not know).
  CompilerType?: string;
  ContractFileName?: string;
  MatchKind?: string;
  CreationMatch?: string;
  RuntimeMatch?: string;
  /** The verified contract a copy was matched through (Etherscan's field). */
  SimilarMatch?: string;
}

/** The record of an address that is not verified, exactly as Etherscan gives it. */
export function unverifiedRecord(): SourceRecord {
  return {
    SourceCode: '',
    ABI: TEXT.notVerified,
    ContractName: '',
    CompilerVersion: '',
    OptimizationUsed: '',
    Runs: '',
    ConstructorArguments: '',
    EVMVersion: 'Default',
    Library: '',
    LicenseType: 'Unknown',
    Proxy: '0',
    Implementation: '',
    SwarmSource: '',
  };
}

/** The record of a verified contract, with its proxy link when verifyproxycontract found one. */
export function verifiedRecord(contract: VerifiedContract, proxy: ProxyRecord | null = null): SourceRecord {
  const implementation = proxy?.implementation ?? '';
  const proven = provenMatch(contract);
  const published = publishedSourceCode(contract);
  return {
    SourceCode: publishesInput(contract) ? wrapStandardJson(published) : published,
    ABI: contract.abi,
    ContractName: contract.contractName,
    CompilerVersion: contract.compilerVersion,
    OptimizationUsed: contract.optimizationUsed ? '1' : '0',
    Runs: String(contract.runs),
    // '' when nothing proved them: the submitter's word is not the contract's.
    ConstructorArguments: contract.constructorArguments ?? '',
    EVMVersion: contract.evmVersion || 'Default',
    Library: contract.libraries.map((l) => `${l.name}:${l.address}`).join(';'),
    LicenseType: licenseName(contract.licenseType),
    Proxy: implementation ? '1' : '0',
    Implementation: implementation,
    SwarmSource: contract.swarmSource,
    CompilerType: contract.language === 'Vyper' ? 'vyper' : 'solc',
    ContractFileName: contract.sourcePath,
    MatchKind: proven.match,
    CreationMatch: proven.creation ?? '',
    RuntimeMatch: proven.runtime ?? '',
    SimilarMatch: contract.method === 'similar' ? (contract.similarTo ?? '') : '',
  };
}
