/**
 * One error class for the whole service. An error is a stable `code` and typed `details`: the
 * facts, never prose. What a client reads is rendered from the two at the edge, in one place
 * (`src/texts/`); `message` is only a compact form of code and details for logs.
 */

/** A solc error as the compiler reported it (the facts a compile failure shows). */
export interface CompilerErrorFact {
  severity: string;
  message: string;
  formattedMessage?: string;
  errorCode?: string;
  type?: string;
  /** solc gives byte offsets; Vyper gives a line and a column instead (start and end are then -1). */
  sourceLocation?: { file: string; start: number; end: number; line?: number; column?: number };
}

/** A line of a flattened file that was blanked so it would compile (see verify/flatteningRepairs). */
/** A constructor argument decoded with its ABI type: `uint256 start = 7`. */
export interface DecodedArgumentFact {
  type: string;
  name: string;
  /** The value as Solidity would write it: decimal numbers, quoted strings, hex bytes and addresses, [..] for arrays and tuples. */
  value: string;
}

export interface FlatteningRepairFact {
  /** 1-based line number in the submitted source. */
  line: number;
  text: string;
  why: 'second_spdx_line' | 'second_abicoder_pragma' | 'missing_import';
}

/** How a compiler process or worker ended without output. */
export interface CompilerCrashFacts {
  detail: string;
  cause?: 'not_json' | 'could_not_run' | 'cancelled' | 'exited';
}

/** How the compiled runtime code differs from the deployed one. */
export interface CodeDifferenceFacts {
  compiledRuntimeLength: number;
  onchainRuntimeLength: number;
  /** solc's "extra file input" bug: unused files changed the code but not the metadata hash. */
  reason?: 'extra_file_input_bug';
  /** The contract's external functions, and how many of their selectors the deployed code holds (none: other code entirely). */
  functions?: number;
  functionsInCode?: number;
}

/** What may be wrong with a submission's fields or a request (one `problem` each). */
export type InvalidInputFacts =
  | { problem: 'unsupported_code_format'; codeFormat: string }
  | { problem: 'invalid_library_name'; name: string }
  | { problem: 'invalid_library_address'; name: string; address: string }
  | { problem: 'library_given_twice'; name: string }
  | { problem: 'library_conflict'; library: string; inInput: string; inForm: string }
  | { problem: 'invalid_contract_name'; contractName: string }
  | { problem: 'empty_source' }
  | { problem: 'invalid_runs'; runs: string }
  | { problem: 'invalid_address'; address: string }
  | { problem: 'negative_block_number' }
  | { problem: 'invalid_storage_slot' }
  | { problem: 'stored_request_unreadable'; why: string }
  /** Vyper sources named with a solc version (`v0.8.26+commit.8a97fa7a`): Vyper versions are spelled `vyper:0.4.1`. */
  | { problem: 'solc_version_for_vyper'; compilerVersion: string }
  /** Vyper sources sent as Solidity (a `.vy` file, or Vyper's pragmas, under a Solidity code format). */
  | { problem: 'vyper_source_as_solidity'; compilerVersion: string }
  /** A Vyper compiler named for Solidity sources. */
  | { problem: 'vyper_version_for_solidity'; compilerVersion: string };

/** What may be wrong with a standard JSON input or a build file (one `problem` each). */
export type InvalidStandardJsonFacts =
  | { problem: 'not_json'; document: 'input' | 'build'; parserMessage: string }
  | { problem: 'not_an_object'; document: 'input' | 'build' }
  | { problem: 'not_solidity'; language: string }
  /** A `vyper-json` submission whose input is not Vyper's (`"language": "Solidity"` sent as vyper-json). */
  | { problem: 'not_vyper'; language: string }
  /** A `vyper-json` input that says Vyper but holds Solidity (a `.sol` source, or Solidity's text). */
  | { problem: 'solidity_in_vyper_json'; path: string }
  /** A Vyper interface that is neither `{content}` text nor an `{abi}` list. */
  | { problem: 'interface_shape'; path: string }
  | { problem: 'no_sources' }
  | { problem: 'too_many_sources'; max: number }
  | { problem: 'source_not_an_object'; path: string }
  | { problem: 'source_urls'; path: string }
  | { problem: 'source_without_content'; path: string }
  | { problem: 'settings_not_an_object' }
  | { problem: 'libraries_shape' }
  | { problem: 'too_many_declarations'; max: number }
  | { problem: 'malformed_solc_long_version' };

/** Which contract a submission names, and why it was not found. */
export type ContractNotFoundFacts =
  /** `singleFile`: a single-file submission, whose file name the service made up from the contract name (`available` then holds names only). */
  | { problem: 'not_in_output'; contractName: string; sourcePath: string; available: string[]; singleFile?: boolean }
  | { problem: 'file_not_among_sources'; contractName: string; path: string }
  | { problem: 'not_declared'; contractName: string }
  | { problem: 'declared_several_times'; contractName: string };

/** The typed facts each code carries. */
export interface ErrorDetails {
  // verdicts
  no_match: CodeDifferenceFacts & { flatteningRepairs?: FlatteningRepairFact[] };
  /** The creation code matches, but the runtime code at the address is other code. */
  runtime_mismatch: CodeDifferenceFacts & { flatteningRepairs?: FlatteningRepairFact[] };
  /** `decoded`: the creation transaction's arguments read with the constructor's ABI types (absent when they do not decode). */
  constructor_arguments_mismatch: { submitted: string; onchain: string; decoded?: DecodedArgumentFact[]; flatteningRepairs?: FlatteningRepairFact[] };
  contract_not_found_in_output: ContractNotFoundFacts & { flatteningRepairs?: FlatteningRepairFact[] };
  library_mismatch: { library: string; onchain: string; submitted: string; flatteningRepairs?: FlatteningRepairFact[] };
  /**
   * The sources do not compile. `flatteningRepairs`: the lines of a flattened file to remove;
   * `remaining`: the errors still there once they are removed.
   */
  compiler_error: { errors: CompilerErrorFact[]; flatteningRepairs?: FlatteningRepairFact[]; remaining?: CompilerErrorFact[]; language?: 'Vyper' };
  abstract_contract: { contractName: string; flatteningRepairs?: FlatteningRepairFact[] };
  /** A whole build whose contracts all compile to no code (interfaces, abstract contracts). */
  no_contract_in_build: Record<string, never>;
  contract_not_deployed: { address: string };
  already_verified: Record<string, never>;
  // compilers
  /** `compiler`: absent for solc; `vyper` for a Vyper compiler (its versions are spelled `vyper:0.4.1`). */
  compiler_version_not_found: {
    version: string;
    why: 'not_available' | 'not_a_version' | 'not_a_release';
    release?: string;
    longVersion?: string;
    compiler?: 'vyper';
  };
  compiler_download_failed: { version: string; failures: string[]; compiler?: 'vyper' };
  compile_timeout: { timeoutMs: number };
  compile_out_of_memory: { maxMemoryMb: number; detail?: string };
  compile_output_too_large: { maxOutputBytes: number; size?: number };
  /** Its caller stopped the compile before it finished (a diagnosis at its time limit); its worker or process was stopped with it. */
  compile_cancelled: Record<string, never>;
  /**
   * `detail`: what the compiler process or worker said; `cause`: how it ended when that is
   * known (output that is not JSON, a process that could not start, was cancelled or exited);
   * `poolClosed`: the service is stopping.
   */
  compiler_crashed: CompilerCrashFacts & { poolClosed?: boolean };
  /** A run that may only use known compilations met one that is not known. */
  compile_required: Record<string, never>;
  // limits
  /** A failure was not diagnosed: the key's diagnoses for the UTC day are used up (`resetsAt`: ISO time of the next UTC midnight). */
  diagnosis_quota_reached: { limit: number; resetsAt: string };
  // input
  invalid_input: InvalidInputFacts;
  invalid_standard_json: InvalidStandardJsonFacts;
  // chain
  chain_unavailable: {
    method: string;
    reason: 'rpc' | 'http' | 'malformed' | 'too_large' | 'timeout' | 'unreachable';
    rpcCode?: number | undefined;
    httpStatus?: number | undefined;
    nodeMessage: string;
  };
  chain_mismatch: { expected: number; actual: number };
  // storage
  store_error:
    | { problem: 'cannot_open_sqlite'; dataDir: string }
    | { problem: 'unsupported_url_scheme'; scheme: string }
    | { problem: 'migration_failed'; migration?: string };
}

export type ErrorCode = keyof ErrorDetails;

export class SolproofError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly details: ErrorDetails[C];
  /** True when trying the same thing again later may succeed (node down, download failed). */
  readonly retryable: boolean;

  constructor(code: C, details: ErrorDetails[C], options: { cause?: unknown; retryable?: boolean } = {}) {
    super(logMessage(code, details), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SolproofError';
    this.code = code;
    this.details = details;
    this.retryable = options.retryable ?? false;
  }
}

/** Any SolproofError, as a union over its codes: a check of `code` narrows `details`. */
export type AnySolproofError = { [C in ErrorCode]: SolproofError<C> }[ErrorCode];

/** An error as stored with a job and rendered at read time: its code and its facts. */
export type ErrorFacts = { [C in ErrorCode]: { code: C; details: ErrorDetails[C] } }[ErrorCode];

export function isSolproofError(e: unknown): e is AnySolproofError;
export function isSolproofError<C extends ErrorCode>(e: unknown, code: C): e is SolproofError<C>;
export function isSolproofError(e: unknown, code?: ErrorCode): boolean {
  return e instanceof SolproofError && (code === undefined || e.code === code);
}

/** The code and facts of an error, as a job keeps them. */
export function errorFacts(e: AnySolproofError): ErrorFacts {
  return { code: e.code, details: e.details } as ErrorFacts;
}

/** For logs only: `code {facts}`, bounded. */
function logMessage(code: string, details: unknown): string {
  let facts = '';
  try {
    facts = JSON.stringify(details) ?? '';
  } catch {
    facts = '';
  }
  return facts && facts !== '{}' ? `${code} ${facts.slice(0, 500)}` : code;
}
