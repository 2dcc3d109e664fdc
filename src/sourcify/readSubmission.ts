/**
 * Reads a Sourcify verification request (`stdJsonInput`, `compilerVersion`,
 * `contractIdentifier`, optional `creationTransactionHash`) into the service's own submission:
 * a standard JSON submission, Solidity's or Vyper's (`"language": "Vyper"`, read by the same
 * use case as `/api`'s vyper-json), verified by the same job as one sent through `/api`. The
 * constructor arguments are not sent: the job reads them from the creation it finds.
 */
import { compareVersions, readSubmittedVersion } from '../core/compilerVersion.js';
import { isSolproofError } from '../core/errors.js';
import { isRecord } from '../core/json.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { Address, AnySourceSubmission, StandardJsonSubmission } from '../core/types.js';
import { errorSentence, SOURCIFY_TEXT, sourcifyVersionProblem } from '../texts/index.js';
import { readVyperJsonSubmission, type VyperField } from '../useCases/index.js';
import { buildSolcInput, checkStandardJsonInput } from '../verify/index.js';

export type ReadSubmission = { ok: true; submission: AnySourceSubmission } | { ok: false; message: string };

/** Sourcify's name of each field of a Vyper submission (a problem of the whole submission is the input's). */
const vyperField = (field: VyperField): string =>
  field === 'contract' ? 'contractIdentifier' : field === 'compilerVersion' ? 'compilerVersion' : 'stdJsonInput';

const refuse = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** The submission for `address`, or the message of an `invalid_parameter` refusal naming the field. */
export function readSourcifySubmission(body: unknown, address: Address, releases: ReleaseLookup): ReadSubmission {
  if (!isRecord(body)) return refuse(SOURCIFY_TEXT.invalidJson);
  const { stdJsonInput, compilerVersion, contractIdentifier, creationTransactionHash } = body;
  if (stdJsonInput === undefined) return refuse(SOURCIFY_TEXT.missingField('stdJsonInput'));
  if (!isRecord(stdJsonInput)) return refuse(SOURCIFY_TEXT.invalidField('stdJsonInput', 'it must be a standard JSON input object'));
  if (typeof compilerVersion !== 'string' || compilerVersion.trim() === '') return refuse(SOURCIFY_TEXT.missingField('compilerVersion'));
  if (typeof contractIdentifier !== 'string' || contractIdentifier.trim() === '') return refuse(SOURCIFY_TEXT.missingField('contractIdentifier'));
  if (creationTransactionHash !== undefined && (typeof creationTransactionHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(creationTransactionHash))) {
    return refuse(SOURCIFY_TEXT.invalidField('creationTransactionHash', 'expected 0x and 64 hex digits'));
  }
  const identifier = contractIdentifier.trim();
  const colon = identifier.lastIndexOf(':');
  if (identifier.length > 1024 || colon <= 0 || colon === identifier.length - 1) {
    return refuse(SOURCIFY_TEXT.invalidField('contractIdentifier', 'expected path:Name, e.g. contracts/Token.sol:Token'));
  }
  if (stdJsonInput.language === 'Vyper') {
    const read = readVyperJsonSubmission(
      { address, contractName: identifier, compilerVersion: compilerVersion.trim(), input: stdJsonInput, constructorArguments: '', licenseType: 0 },
      releases,
    );
    return read.ok ? { ok: true, submission: read.value } : refuse(SOURCIFY_TEXT.invalidField(vyperField(read.problem.field), read.problem.problem));
  }
  const version = readSubmittedVersion(compilerVersion.trim(), releases);
  if (!version.ok) return refuse(SOURCIFY_TEXT.invalidField('compilerVersion', sourcifyVersionProblem(version.error)));
  if (compareVersions(version.value.short, '0.4.11') < 0) {
    return refuse(SOURCIFY_TEXT.invalidField('compilerVersion', 'compilers older than 0.4.11 are not supported'));
  }

  let submission: StandardJsonSubmission;
  try {
    submission = {
      address,
      contractName: identifier,
      compilerVersion: version.value.long,
      // The settings are the input's own; these fields are what a standard JSON submission without them reads as.
      optimizationUsed: false,
      runs: 200,
      constructorArguments: '',
      evmVersion: '',
      licenseType: 0,
      libraries: [],
      viaIR: false,
      codeFormat: 'solidity-standard-json-input',
      standardJson: checkStandardJsonInput(stdJsonInput),
    };
    // What would only fail the job later (a contract file outside the sources) is refused now.
    buildSolcInput(submission);
  } catch (e) {
    if (!isSolproofError(e)) throw e;
    const field = e.code === 'contract_not_found_in_output' ? 'contractIdentifier' : 'stdJsonInput';
    return refuse(SOURCIFY_TEXT.invalidField(field, errorSentence(e).slice(0, 300)));
  }
  return { ok: true, submission };
}
