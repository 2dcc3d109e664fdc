/**
 * Every text a client may compare byte for byte lives here (docs/api.md, Texts, lists where
 * each is answered); etherscan.test.ts pins the ones clients compare.
 */
/** `2026-11-23T00:00:00Z`: when a daily limit resets, as the texts give it (UTC, whole seconds). */
export function utcSecond(at: Date | string): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const TEXT = {
  ok: 'OK',
  notOk: 'NOTOK',
  okKeyless: 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied',
  maxRateKeyless: 'Max rate limit reached, please use API Key for higher rate limit',
  maxRateKeyed: 'Max rate limit reached',
  invalidApiKey: 'Invalid API Key',
  upgradeInputNeedsKey: 'checkupgrade with sourceCode compiles your input: it needs a valid API key (apikey)',
  tooManyInvalidKeys: 'Too many invalid api key attempts, please try again later',
  notVerified: 'Contract source code not verified',
  invalidAddress: 'Error! Invalid address format',
  alreadyVerified: 'Contract source code already verified',
  pending: 'Pending in queue',
  pass: 'Pass - Verified',
  /** A dry run that would have verified: nothing was published. */
  passDryRun: 'Pass - Verified (dry run: nothing was published)',
  fail: 'Fail - Unable to verify',
  alreadyVerifiedStatus: 'Already Verified',
  unknownUid: 'Unknown UID',
  reasonBytecodeMismatch: 'Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.',
  reasonConstructorArgs: 'Please check if the correct constructor argument was entered.',
  reasonRuntimeMismatch:
    'The creation code matches these sources, but the code deployed at the address does not: the constructor returned other code than the contract compiles to.',
  /** Etherscan's words (people search for them), with the name it left out. */
  reasonContractName: (name: string) => `Unable to locate ContractName ${name.slice(0, 200)}, did you specify the correct Contract Name?`,
  /** After reasonConstructorArgs: the service reads the arguments itself, so the field may stay empty. */
  leaveArgumentsEmpty: 'Or leave the constructor arguments empty: the service reads them from the creation transaction.',
  reasonLibrary: 'Library was required but suitable match not found',
  reasonAbstract: 'The named contract compiles to no bytecode (an abstract contract or an interface cannot match deployed code).',
  proxyNotDetected: 'A corresponding implementation contract was unfortunately not detected for the proxy address.',
  postRequired: (action: string) => `This action (${action}) requires a POST request`,
  unableToLocateCode: (address: string) => `Unable to locate ContractCode at ${address}`,
  /** The submission-time refusal: Etherscan's text first (clients retry on it), then what the node said. */
  noCodeAtBlock: (address: string, block: bigint, waitedMs: number) =>
    `Unable to locate ContractCode at ${address}: the node had no code there at block ${block}` +
    (waitedMs > 0 ? ` (still none after waiting ${Number((waitedMs / 1000).toFixed(1))} s)` : ''),
  compilationError: (message: string) => `Solidity Compilation Error: ${message}`,
  vyperCompilationError: (message: string) => `Vyper Compilation Error: ${message}`,
  /** After a failure's reason: where its diagnosis is shown in full. */
  receiptPage: (url: string) => `Diagnosis: ${url}`,
  failWithReason: (reason: string) => (reason ? `Fail - Unable to verify. ${reason}` : 'Fail - Unable to verify'),
  proxyFound: (proxy: string, implementation: string) =>
    `The proxy's (${proxy.toLowerCase()}) implementation contract is found at ${implementation.toLowerCase()} and is successfully updated.`,
  proxyExpectedDiffers: (expected: string, found: string) =>
    `The implementation contract found at ${found.toLowerCase()} differs from the expected implementation ${expected.toLowerCase()}.`,
  missingParameter: (name: string) => `Missing or empty parameter: ${name}`,
  invalidParameter: (name: string, problem: string) => `Invalid parameter ${name}: ${problem}`,
  unknownAction: (action: string, module = 'contract') =>
    action ? `Error! Unknown action "${action.slice(0, 64)}" for module ${module}` : 'Error! Missing action parameter',
  unknownModule: (module: string) =>
    module
      ? `Error! Unknown module "${module.slice(0, 64)}": this service answers module=contract (and module=logs)`
      : 'Error! Missing module parameter (module=contract)',
  wrongChain: (given: string, served: number) => `Error! Chain id ${given.slice(0, 32)} is not served here; this service serves chain id ${served}`,
  nodeUnavailable: 'The network node could not be reached; please try again later',
  bodyTooLarge: (limit: number) => `Request body too large: the limit is ${limit} bytes`,
  malformedBody: 'The request body could not be read as a form, multipart form or JSON object',
  largeBodyNeedsKey: (open: number) =>
    `Request bodies over ${open} bytes are read only for submissions with a valid API key: send apikey in the query string or as the first body field`,
  largeBodyNotASubmission: (open: number) => `Request bodies over ${open} bytes are accepted only for verifysourcecode, verifyproxycontract and verifybuild`,
  internalError: 'Internal error; please try again later',
  dailyQuotaReached: (kind: 'verify' | 'proxy' | 'dry_run', limit: number, resetsAt: Date) =>
    `Daily limit of ${limit} ${{ verify: 'source code verifications', proxy: 'proxy verifications', dry_run: 'dry runs' }[kind]} reached for this API key; it resets at ${utcSecond(resetsAt)}`,
  /** A key's second submission for an address while its first is still waiting or running. */
  ownJobUnfinished: (address: string, receipt: string) =>
    `A verification of ${address} by this API key is still waiting or running (receipt ${receipt}): wait for its verdict with checkverifystatus before submitting again`,
  tooManyUnfinished: (count: number) => `This API key has ${count} verifications waiting or running; submit more when some have finished`,
  methodNotAllowed: (method: string) => `The ${method.slice(0, 16)} method is not accepted here: send GET or POST`,
  headersTooLarge: (limit: number) => `Request line and headers too large: the limit is ${limit} bytes; send long fields in a POST body`,
  malformedRequest: 'The request could not be read as HTTP',
  badUrl: 'The request URL could not be decoded',
  requestTimeout: 'The request took too long to arrive',
  invalidSubmission: (problem: string) => `Invalid submission: ${problem}`,
  /** verifysourcecode's `message` (beside the receipt) when the version named a known release without its commit. */
  okVyperCommitFilledIn: (given: string, long: string) =>
    `OK - compiler version "${given.slice(0, 64)}" has no commit: Vyper ${long} was used (the one commit of that release)`,
  okCommitFilledIn: (given: string, long: string) =>
    `OK - compiler version "${given.slice(0, 64)}" has no commit: solc ${long} was used (the one commit of that release)`,
  /** checkverifystatus's `message` beside `Pass - Verified` for a partial match (clients compare the result, not the message). */
  okPartialMatch: (why: string) => `OK - Partial match: ${why}`,
  notALongVersion: (given: string) => `Invalid parameter compilerversion: "${given}" is not a solc long version like v0.8.26+commit.8a97fa7a`,
  notASolcRelease: (given: string, long: string) => `Invalid parameter compilerversion: "${given}" is not a solc release; did you mean ${long}?`,
  commitTooShort: (given: string, release: string) =>
    `Invalid parameter compilerversion: "${given}" does not name a commit of solc ${release}: send its whole long version, with the 8-digit commit (like v0.8.26+commit.8a97fa7a)`,
  bodyTooDeep: (depth: number) => `The request body's JSON is nested more than ${depth} levels deep`,
  tooManyFields: (max: number) => `The request body has more than ${max} fields`,
  /** getcontractcreation when none of the addresses holds a contract whose creation is known (the message; the result is null). */
  noDataFound: 'No data found',
  tooManyContractAddresses: (max: number, given: number) => `Error! At most ${max} contract addresses can be asked at once (contractaddresses has ${given})`,
  invalidAddressIn: (name: string, value: string) => `Error! Invalid address format in ${name}: ${JSON.stringify(value.slice(0, 64))}`,
} as const;
