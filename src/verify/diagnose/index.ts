export { type CodeComparison, compareCodes, disassemble, type Instruction } from './codeComparison.js';
export { type DeployedFacts, type DeployedHashKind, deployedFacts } from './deployedFacts.js';
export { type DiagnoseArgs, type Diagnosis, type DiagnosisBudget, diagnoseFailure, requiredMetadataChanges } from './diagnoseFailure.js';
export { diagnosisReasonCode } from './reasonCode.js';
export { type DiagnosisSetting, type SettingChange, type SubmittedSettings, submittedSettings, withChanges } from './settingChanges.js';
