import { isSolproofError, type SolproofError } from '../core/errors.js';
import { TEXT } from '../core/texts.js';
import type { Logger } from '../core/log.js';
import type { Address, LibraryLink } from '../core/types.js';
import type { Store } from '../store/openStore.js';
import type { VerificationJob } from '../store/verificationJobs.js';
import { getStoredVerdict, saveVerifiedContract } from '../store/verifiedContracts.js';
import { canBeImproved, isBetterVerdict, verifyContract, type ChainReader, type Compiler, type VerificationResult } from '../verify/index.js';
import { licenseFromSource } from './licenseFromSource.js';
import { retryDelay, type JobOutcome } from './queue.js';

export interface VerificationDeps {
  store: Store;
  chain: ChainReader;
  compiler: Compiler;
  logger: Logger;
  /** How long to wait before trying again when the node is down (default 5 s). */
  retryDelayMs?: number;
}

/** The reason a client is shown for a failed verification. */
export function failureReason(error: SolproofError): string {
  switch (error.code) {
    case 'no_match':
      return TEXT.reasonBytecodeMismatch;
    case 'runtime_mismatch':
      return TEXT.reasonRuntimeMismatch;
    case 'constructor_arguments_mismatch':
      return TEXT.reasonConstructorArgs;
    case 'contract_not_found_in_output':
      return TEXT.reasonContractName;
    case 'library_mismatch':
      return TEXT.reasonLibrary;
    case 'abstract_contract':
      return TEXT.reasonAbstract;
    case 'compiler_error':
      return error.message.startsWith('Solidity Compilation Error:') ? error.message : TEXT.compilationError(error.message);
    default:
      return error.message;
  }
}

/** The libraries the code links, by the bare name Etherscan shows. */
function librariesOf(result: VerificationResult): LibraryLink[] {
  return Object.entries(result.libraries).map(([name, address]) => ({
    name: name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name,
    address: address.toLowerCase() as Address,
  }));
}

/**
 * The verification job: reads the chain, compiles, matches, and stores the verdict.
 * A node that cannot be reached puts the job back in the queue; it never becomes a verdict.
 */
export function createVerificationHandler(deps: VerificationDeps) {
  const retryDelayMs = deps.retryDelayMs ?? 5000;
  return async function runVerification(job: VerificationJob): Promise<JobOutcome> {
    if (job.request?.kind !== 'source') {
      return { state: 'fail', resultText: job.requestError ?? 'The stored request is not a source verification', result: { error: job.requestError } };
    }
    const submission = job.request.submission;
    const address = submission.address;
    const existing = await getStoredVerdict(deps.store.db, address);
    if (existing && !canBeImproved(existing)) {
      return { state: 'already_verified', resultText: TEXT.alreadyVerifiedStatus };
    }
    let result: VerificationResult;
    try {
      const runtimeCode = await deps.chain.getCode(address);
      if (runtimeCode === '0x') {
        return { state: 'fail', resultText: TEXT.unableToLocateCode(address) };
      }
      const creation = await deps.chain.findCreation(address);
      result = await verifyContract({ compiler: deps.compiler, submission, runtimeCode, creation });
    } catch (error) {
      // A compiler that crashes again on the same input will not stop crashing.
      if (isSolproofError(error, 'compiler_crashed') && job.attempts >= 2) {
        return { state: 'fail', resultText: `Solidity Compilation Error: the compiler crashed on this input (${error.message.slice(0, 300)})` };
      }
      if (isSolproofError(error) && error.retryable) {
        deps.logger.warn({ receipt: job.receipt, code: error.code, err: error.message, details: error.details }, 'verification will be retried');
        return { retry: true, delayMs: retryDelay(retryDelayMs, job.attempts), error: error.message };
      }
      if (isSolproofError(error)) {
        return { state: 'fail', resultText: failureReason(error), result: { code: error.code, details: error.details } };
      }
      throw error;
    }

    const sourceText =
      submission.codeFormat === 'solidity-single-file'
        ? submission.sourceCode
        : (result.compilerInput.sources[result.sourcePath]?.content ?? '');
    const outcome = await saveVerifiedContract(
      deps.store.db,
      {
        address,
        contractName: result.contractName,
        sourcePath: result.sourcePath,
        compilerVersion: submission.compilerVersion,
        codeFormat: submission.codeFormat,
        // Served as getsourcecode's SourceCode: for standard JSON the input as it was parsed,
        // so that duplicate keys cannot show a reader another source than the one compiled.
        sourceCode: submission.codeFormat === 'solidity-standard-json-input' ? JSON.stringify(submission.standardJson) : submission.sourceCode,
        compilerInput: JSON.stringify(result.compilerInput),
        abi: JSON.stringify(result.abi),
        metadata: result.metadata,
        optimizationUsed: result.optimizationUsed,
        runs: result.runs,
        evmVersion: result.evmVersion,
        viaIR: result.viaIR,
        constructorArguments: result.constructorArguments,
        libraries: librariesOf(result),
        licenseType: submission.licenseType || licenseFromSource(sourceText),
        matchKind: result.matchKind,
        creationMatch: result.creationMatch,
        creationCompared: result.creationCompared,
        runtimeMatch: result.runtimeMatch,
        transformations: { applied: result.transformations, values: result.transformationValues },
        swarmSource: result.swarmSource,
        receipt: job.receipt,
      },
      (stored) => isBetterVerdict(result, stored),
    );
    if (outcome === 'not_better') return { state: 'already_verified', resultText: TEXT.alreadyVerifiedStatus };
    return {
      state: 'pass',
      resultText: TEXT.pass,
      result: {
        matchKind: result.matchKind,
        creationMatch: result.creationMatch,
        runtimeMatch: result.runtimeMatch,
        ...(outcome === 'replaced' ? { replaced: true } : {}),
      },
    };
  };
}
