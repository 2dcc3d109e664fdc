export { diagnoseFailure, requiredMetadataChanges, type DiagnoseArgs, type Diagnosis, type DiagnosisBudget } from './diagnoseFailure.js';
export { compareCodes, disassemble, type CodeComparison, type Instruction } from './codeComparison.js';
export { deployedFacts, type DeployedFacts, type DeployedHashKind } from './deployedFacts.js';
export { submittedSettings, withChanges, type DiagnosisSetting, type SettingChange, type SubmittedSettings } from './settingChanges.js';
export { diagnosisReasonCode } from './reasonCode.js';
