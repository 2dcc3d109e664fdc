/**
 * Every sentence the service words for a client from codes and facts, in one place:
 * Etherscan's texts (etherscan.ts; clients compare them byte for byte), a sentence for each
 * error code and its facts (errors.ts, compileLimits.ts), the diagnosis of a failed
 * verification (diagnosis.ts), how a job reads for each client (jobs.ts: checkverifystatus,
 * checkproxyverification, checkbuildstatus, the receipt page and its JSON), the use cases'
 * refusals in Etherscan's words (refusals.ts), and Sourcify's texts (sourcify.ts).
 *
 * The doors (api/, sourcify/, web/), cli/ and the use cases' field parser word with them when
 * they answer; the domain (verify/, compilers/, chain/), the store and the jobs keep codes and
 * facts only (boundaries.test.ts holds it). The explorer's own page prose is written in its
 * page renderers (web/pages/), which take these words for verdicts, errors and jobs.
 */

export * from './diagnosis.js';
export {
  compilerErrorsText,
  errorSentence,
  flatteningRepairsText,
  flatteningWhyText,
  submittedVersionText,
  submittedVyperVersionText,
  verdictReason,
} from './errors.js';
export { TEXT, utcSecond } from './etherscan.js';
export * from './jobs.js';
export { accessRefusalText, submitRefusalText } from './refusals.js';
export { SOURCIFY_TEXT, sourcifyJobErrorMessage, sourcifyVersionProblem } from './sourcify.js';
export { missingLayoutText } from './storageLayout.js';
export { type IncompatibilityFacts, incompatibilityText, type UpgradeRefusalFacts, upgradeRefusalText, upgradeVerdictText } from './upgradeCheck.js';
