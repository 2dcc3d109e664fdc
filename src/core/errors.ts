/**
 * One error class for the whole service. `code` is a stable string the API layer maps to
 * an Etherscan text; `message` is a short human sentence; `details` carries extra facts.
 */
export type ErrorCode =
  // verdicts
  | 'no_match'
  /** The creation code matches, but the runtime code at the address is other code. */
  | 'runtime_mismatch'
  | 'constructor_arguments_mismatch'
  | 'contract_not_found_in_output'
  | 'library_mismatch'
  | 'compiler_error'
  | 'abstract_contract'
  | 'contract_not_deployed'
  | 'already_verified'
  // compilers
  | 'compiler_version_not_found'
  | 'compiler_download_failed'
  | 'compile_timeout'
  | 'compile_out_of_memory'
  | 'compile_output_too_large'
  | 'compiler_crashed'
  /** A run that may only use known compilations met one that is not known. */
  | 'compile_required'
  // input
  | 'invalid_input'
  | 'invalid_standard_json'
  | 'unsupported_evm_version'
  // chain
  | 'chain_unavailable'
  | 'chain_mismatch'
  // storage
  | 'store_error';

export class SolproofError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  /** True when trying the same thing again later may succeed (node down, download failed). */
  readonly retryable: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown; retryable?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SolproofError';
    this.code = code;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
  }
}

export function isSolproofError(e: unknown, code?: ErrorCode): e is SolproofError {
  return e instanceof SolproofError && (code === undefined || e.code === code);
}
