/**
 * The verification domain's public surface: what the other folders may use. Everything else
 * in verify/ is its own business.
 */

export type {
  StoredDiagnosis,
  VyperDeployedFacts,
  VyperDiagnosis,
  VyperDiagnosisSetting,
  VyperSettingChange,
  VyperSubmittedSettings,
} from '../core/diagnosis.js';
export { metadataHashOf } from './auxdata.js';
export { type BuildFile, type BuildFormat, readBuildFile } from './buildFile.js';
export {
  type BuiltSolcInput,
  buildSolcInput,
  CONTRACT_OUTPUTS,
  compileSettings,
  outputSelectionFor,
  resolveSourcePath,
  splitQualifiedName,
} from './buildSolcInput.js';
export { type CompiledAuxdata, type CompiledCode, type CompiledContract, compiledContractOf } from './compiledContract.js';
export { type ContractVerdict, contractVerdict, unprovenImmutableValues } from './contractVerdict.js';
export {
  type CodeComparison,
  compareCodes,
  type DeployedFacts,
  type DiagnoseArgs,
  type Diagnosis,
  type DiagnosisBudget,
  type DiagnosisSetting,
  deployedFacts,
  diagnoseFailure,
  diagnosisReasonCode,
  disassemble,
  type Instruction,
  type SettingChange,
  type SubmittedSettings,
  submittedSettings,
  withChanges,
} from './diagnose/index.js';
export { codeFingerprint, deployedCodeFingerprint } from './fingerprint.js';
export { type CodePart, type ContractMatch, matchCompiledContract } from './matchContract.js';
export { type CopyMatch, type MatchCopyArgs, matchCopy } from './matchCopy.js';
export { metadataSourcePaths } from './metadataSources.js';
export type {
  ChainLog,
  ChainReader,
  Compiler,
  ContractCreation,
  KnownCompilations,
  LogFilter,
  LogReader,
  StorageSlotReader,
  VyperCompiler,
} from './ports.js';
export {
  type DetectProxyOptions,
  detectProxy,
  PROXY_PATTERNS,
  type ProxyCandidate,
  type ProxyDetection,
  type ProxyFound,
  type ProxyHop,
  type ProxyNotFound,
  type ProxyNotFoundReason,
  type ProxyPattern,
} from './proxy/index.js';
export { type SettingsSummary, settingsSummary, settingsSummaryOf } from './settingsSummary.js';
export type { SolcContractOutput, SolcInput, SolcOutput, SolcSettings, SolcSource } from './solcTypes.js';
export { checkStandardJsonInput, parseStandardJsonText, unwrapStandardJson, wrapStandardJson } from './standardJsonText.js';
export { encodeMappingKey, mappingValueSlot } from './storage/mappingKey.js';
export { erc7201Slot, type NamespacedLayout, namespacedLayouts } from './storage/namespacedLayout.js';
export { type SourceStruct, type SourceTypes, sourceTypes } from './storage/sourceTypes.js';
export { type DecodedStorage, type DecodeOptions, decodeStorage, MAX_LOOKUP_KEYS, type StorageRow, slotHex } from './storage/storageValues.js';
export type { Transformation, TransformationValues } from './transformations.js';
export { type AbiChange, type AbiDiff, abiDiff } from './upgradeSafety/abiDiff.js';
export { type ChangedFile, SOURCE_DIFF_MAX_BYTES, type SourceDiff, type SourceFile, sourceDiff } from './upgradeSafety/sourceDiff.js';
export {
  compareUpgradeLayouts,
  compileErrors,
  declaresNamespaces,
  type LayoutIncompatibility,
  layoutInput,
  namespacedInput,
  type UpgradeLayout,
  upgradeLayout,
} from './upgradeSafety/upgradeLayout.js';
export { canBeImproved, isBetterVerdict, type ProvenMatch, provenMatch, type VerdictStrength, verdictRank } from './verdictRank.js';
export { solcInputToCompile, submissionInputs, type VerificationResult, type VerifyContractArgs, verifyContract } from './verifyContract.js';
export { type BuiltVyperInput, buildVyperInput, normalVyperPath, VYPER_CONTRACT_OUTPUTS, vyperContractName } from './vyper/buildVyperInput.js';
export {
  type DiagnoseVyperArgs,
  diagnoseVyperFailure,
  vyperDeployedFacts,
  vyperSubmittedSettings,
  withVyperChanges,
} from './vyper/diagnoseVyper.js';
export { type MatchVyperArgs, matchVyperContract, type VyperContractMatch } from './vyper/matchVyper.js';
export { looksLikeVyperSource } from './vyper/sourceLanguage.js';
export {
  findVyperContractOutput,
  type VerifyVyperContractArgs,
  type VyperPartialReason,
  type VyperVerificationResult,
  verifyVyperContract,
  vyperCompiledContract,
  vyperPartialReason,
  vyperVersionOf,
} from './vyper/verifyVyperContract.js';
export {
  decodeVyperTail,
  type LocatedVyperAuxdata,
  locateVyperAuxdata,
  type VyperAuxdata,
  vyperAuxdataOfInitCode,
  vyperTailPosition,
} from './vyper/vyperAuxdata.js';
export { checkVyperJsonInput, parseVyperJsonText } from './vyper/vyperJsonInput.js';
export type { VyperContractOutput, VyperError, VyperOutput } from './vyper/vyperTypes.js';
