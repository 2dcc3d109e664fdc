/**
 * The use cases: one module per thing a user does, each rule (admission, what may replace
 * what, fairness, what is proven, what is published) decided here once. The doors (api/,
 * sourcify/, web/) parse a request, call one of these and word the answer; they use nothing
 * of store/, jobs/ or the bytecode database but through this facade.
 */

export type { CreationFacts } from '../bytecodeDatabase/contractCreations.js';
// The records, jobs and refusals as the use cases hand them to the doors.
export type { AccessRefusal, AdmissionRefusal, FinalRecord, NoCode, QueueRefusal, SubmitRefusal } from '../core/refusals.js';
export type { ApiKeyRecord } from '../store/apiKeys.js';
export type { StoredCompiledContract } from '../store/compilations.js';
export type { ProxyRecord } from '../store/proxyRecords.js';
export type { JobKind, JobStatus, VerificationJob } from '../store/verificationJobs.js';
export {
  formatListCursor,
  type ListCursor,
  type ListFilter,
  parseListCursor,
  type ReplacedVerification,
  type StoredVerdict,
  type VerifiedContract,
  type VerifiedContractSummary,
  type VerifiedMatchSummary,
} from '../store/verifiedContracts.js';
export { AccessControl, type AccessDecision, type ActionClass } from './access.js';
export { openRecord } from './admission.js';
export {
  type CheckedContract,
  checkUpgrade,
  isUpgradeableProxy,
  readUnpublishedCandidate,
  type UnpublishedCandidate,
  type UpgradeCheck,
  type UpgradeCheckAnswer,
  type UpgradeCheckRefusal,
  type UpgradeSide,
} from './checkUpgrade.js';
export { codeAtAddress, deployedCompiler } from './codeAtAddress.js';
export { checkJob, findJob, findSubmission, isFinished, isRetryAfterFailure, provenByJob, waitForVerdict } from './jobStatus.js';
export { KeptAnswer, KeptAnswers } from './keptAnswers.js';
export { createSelfServiceKey, type SelfServiceKey, selfServiceOwner } from './keys.js';
export { everyVerified, listMatches, listVerified, proxiesAmong, verifiedCount } from './listContracts.js';
export { type ProxyImplementation, readProxyHistory } from './proxyHistory.js';
export { type PublishedInput, publishedFiles, publishedInput, publishedSourceCode, publishesInput } from './published.js';
export {
  abiAnswer,
  abiForCalls,
  type CallRefusal,
  type ContractLayout,
  type ContractLayouts,
  type ContractPageRead,
  contractAnswer,
  readCompiledCode,
  readContract,
  readContractPage,
  readDeployment,
  readProxy,
  readStorageLayouts,
  readVerdict,
} from './readContract.js';
export {
  MAX_SLOTS,
  type MappingLookup,
  type NamespaceValues,
  readStorageValues,
  STORAGE_READ_MS,
  type StorageSection,
  type StorageValues,
} from './readStorageValues.js';
export type { CompilerListPort, JobIntake, Services } from './services.js';
export { MAX_LIBRARIES, parseSourceSubmission, type SubmissionFields } from './submissionFields.js';
export { type Submitter, submitterId } from './submitter.js';
export { type Submitted, submitBuild, submitProxy, submitSource } from './submitVerification.js';
export { VerdictWaits } from './verdictWaits.js';
export { type SimilarMatch, verifySimilar } from './verifySimilar.js';
export { readVyperJsonSubmission, type VyperField, type VyperJsonRequest, type VyperProblem } from './vyperSubmissionFields.js';
