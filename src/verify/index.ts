/**
 * The verification domain's public surface: what the other folders may use. Everything else
 * in verify/ is its own business.
 */
export type { ChainReader, ChainLog, Compiler, ContractCreation, KnownCompilations, LogFilter, LogReader } from './ports.js';
export { compiledContractOf, type CompiledAuxdata, type CompiledCode, type CompiledContract } from './compiledContract.js';
export { codeFingerprint } from './fingerprint.js';
export { metadataHashOf } from './auxdata.js';
export { contractVerdict, unprovenImmutableValues, type ContractVerdict } from './contractVerdict.js';
export { metadataSourcePaths } from './metadataSources.js';
export { matchCompiledContract, type CodePart, type ContractMatch } from './matchContract.js';
export { matchCopy, type CopyMatch, type MatchCopyArgs } from './matchCopy.js';
export { settingsSummary, type SettingsSummary } from './settingsSummary.js';
export { buildSolcInput, outputSelectionFor, resolveSourcePath, splitQualifiedName, type BuiltSolcInput } from './buildSolcInput.js';
export { readBuildFile, type BuildFile, type BuildFormat } from './buildFile.js';
export { CONTRACT_OUTPUTS, compileSettings } from './buildSolcInput.js';
export { checkStandardJsonInput, parseStandardJsonText, unwrapStandardJson, wrapStandardJson } from './standardJsonText.js';
export { canBeImproved, isBetterVerdict, verdictRank, type VerdictStrength } from './verdictRank.js';
export { submissionInputs, verifyContract, type VerificationResult, type VerifyContractArgs } from './verifyContract.js';
export type { SolcContractOutput, SolcInput, SolcOutput, SolcSettings, SolcSource } from './solcTypes.js';
export type { Transformation, TransformationValues } from './transformations.js';
export {
  detectProxy,
  PROXY_PATTERNS,
  type DetectProxyOptions,
  type ProxyCandidate,
  type ProxyDetection,
  type ProxyFound,
  type ProxyHop,
  type ProxyNotFound,
  type ProxyNotFoundReason,
  type ProxyPattern,
} from './proxy/index.js';
export {
  compareCodes,
  deployedFacts,
  diagnoseFailure,
  diagnosisReasonCode,
  disassemble,
  submittedSettings,
  withChanges,
  type CodeComparison,
  type DeployedFacts,
  type DiagnoseArgs,
  type Diagnosis,
  type DiagnosisBudget,
  type DiagnosisSetting,
  type Instruction,
  type SettingChange,
  type SubmittedSettings,
} from './diagnose/index.js';
