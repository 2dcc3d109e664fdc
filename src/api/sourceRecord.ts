import { licenseName } from '../core/licenses.js';
import type { ProxyRecord } from '../store/proxyRecords.js';
import type { VerifiedContract } from '../store/verifiedContracts.js';
import { TEXT } from '../texts/index.js';
import { wrapStandardJson } from '../verify/index.js';

/** One element of getsourcecode's `result`: Etherscan's PascalCase record, every field a string. */
export type SourceRecord = Record<string, string>;

/** The record of an address that is not verified (spec/api.md, exactly). */
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
  const standardJson = contract.codeFormat === 'solidity-standard-json-input';
  const implementation = proxy?.implementation ?? '';
  return {
    SourceCode: standardJson ? wrapStandardJson(contract.sourceCode.trim()) : contract.sourceCode,
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
    // Foundry panics on Proxy "1" without an implementation: both or neither.
    Proxy: implementation ? '1' : '0',
    Implementation: implementation,
    SwarmSource: contract.swarmSource,
    // Extra fields (clients ignore what they do not know).
    CompilerType: 'solc',
    ContractFileName: contract.sourcePath,
    MatchKind: contract.matchKind,
    CreationMatch: contract.creationMatch ?? '',
    RuntimeMatch: contract.runtimeMatch ?? '',
    // The verified contract a copy was matched through (Etherscan's field).
    SimilarMatch: contract.method === 'similar' ? (contract.similarTo ?? '') : '',
  };
}
