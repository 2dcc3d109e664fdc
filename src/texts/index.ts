/**
 * Every text a client or a person reads, in one place: Etherscan's texts (clients compare them
 * byte for byte), the sentences for each error code and its facts, the diagnosis of a failed
 * verification, and how a finished job reads. The edge (api/, web/, cli/) renders with them at
 * read time; the domain (verify/, compilers/, chain/) and the jobs keep codes and facts only.
 */

export * from './diagnosis.js';
export { compilerErrorsText, errorSentence, flatteningRepairsText, flatteningWhyText, submittedVersionText, verdictReason } from './errors.js';
export { TEXT, utcSecond } from './etherscan.js';
export * from './jobs.js';
export { accessRefusalText, submitRefusalText } from './refusals.js';
export { SOURCIFY_TEXT, sourcifyJobErrorMessage, sourcifyVersionProblem } from './sourcify.js';
