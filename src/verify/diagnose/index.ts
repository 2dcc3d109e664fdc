export type {
  CodeComparison,
  DeployedFacts,
  DeployedHashKind,
  Diagnosis,
  DiagnosisSetting,
  Instruction,
  SettingChange,
  SubmittedSettings,
} from '../../core/diagnosis.js';
export { compareCodes, disassemble } from './codeComparison.js';
export { deployedFacts } from './deployedFacts.js';
export { type DiagnoseArgs, type DiagnosisBudget, diagnoseFailure, requiredMetadataChanges } from './diagnoseFailure.js';
export { diagnosisReasonCode } from './reasonCode.js';
export { submittedSettings, withChanges } from './settingChanges.js';
