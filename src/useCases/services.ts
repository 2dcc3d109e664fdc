/**
 * The parts every use case runs on, built once by cli/ and handed to the doors (api/,
 * sourcify/, web/). A door never reaches past these into store/, jobs/ or the bytecode
 * database: it calls a use case with them.
 */
import type { CreationLookup } from '../bytecodeDatabase/contractCreations.js';
import type { CopyLookup } from '../bytecodeDatabase/copyLookup.js';
import type { RecordCheck } from '../bytecodeDatabase/recordCheck.js';
import type { CompilerListing } from '../core/compilerListing.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { SourceSubmission } from '../core/types.js';
import type { RateLimitStore } from '../limits/rateLimits.js';
import type { Store } from '../store/openStore.js';
import type { ChainReader, Compiler, LogReader, StorageSlotReader } from '../verify/index.js';
import type { AccessControl } from './access.js';
import type { KeptAnswers } from './keptAnswers.js';
import type { VerdictWaits } from './verdictWaits.js';

/** What a use case tells the job runners once it has queued a job. */
export interface JobIntake {
  /**
   * Runs a just-queued source verification at once when its sources were compiled before
   * (no compiler needed, so the verdict is there by the first status check); true when it finished.
   */
  runKnown(receipt: string, submission: SourceSubmission): Promise<boolean>;
  /**
   * Wakes the job runners (this process's and, through the store, every worker's). Given the
   * source submission just queued, a process whose own runner will take it starts compiling it now.
   */
  wake(queued?: { receipt: string; submission: SourceSubmission }): void;
}

/** The compilers the service can use, answered at once from the sources' last lists. */
export interface CompilerListPort {
  list(): Promise<CompilerListing>;
}

export interface Services {
  config: Config;
  /** The chain id the service serves (read from the node at start). */
  chainId: number;
  store: Store;
  chain: ChainReader & LogReader & StorageSlotReader;
  /** Which commit each solc release has: other commits are refused at submission. */
  releases: ReleaseLookup;
  /** A record is served only while its address holds the code it describes: asked before a record is read. */
  records: RecordCheck;
  /** An unverified address may be a copy of a verified contract: checked when it is read. */
  copies: CopyLookup;
  /** Contracts' creations, found on the chain once and then read from the store. */
  creations: CreationLookup;
  /** Read answers kept in memory while the store has not changed. */
  answers: KeptAnswers;
  jobs: JobIntake;
  /** Keys and the rate limits built on `limits`. */
  access: AccessControl;
  /** Where every request limit lives: this process's memory, or Redis shared by all processes. */
  limits: RateLimitStore;
  compilers: CompilerListPort;
  /**
   * Compiles for reads that need more than a record keeps (the upgrade check reads the AST):
   * the compiler pool, with its time and memory limits.
   */
  compiler: Compiler;
  /** Status checks of young running jobs wait here, briefly, for the verdict. */
  verdicts: VerdictWaits;
  logger: Logger;
}
