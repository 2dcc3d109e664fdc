import type { CreationLookup } from '../bytecodeDatabase/contractCreations.js';
import type { CopyLookup } from '../bytecodeDatabase/copyLookup.js';
import type { RecordCheck } from '../bytecodeDatabase/recordCheck.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { SourceSubmission } from '../core/types.js';
import type { QueuedSource } from '../jobs/earlyCompile.js';
import type { RateLimitStore } from '../limits/rateLimits.js';
import type { Store } from '../store/openStore.js';
import type { ChainReader } from '../verify/index.js';

/** What the Sourcify API needs from the rest of the service (wired by cli/, the same parts the /api endpoint uses). */
export interface SourcifyContext {
  config: Config;
  /** The chain id the service serves: the only `chainId` the routes accept. */
  chainId: number;
  store: Store;
  releases: ReleaseLookup;
  /**
   * Tells the job runners that a job was queued. Given the source submission of a job just
   * queued, a process whose own runner will take it starts compiling it now.
   */
  wakeJobs(queued?: QueuedSource): void;
  /** An unverified address may be a copy of a verified contract: checked on read and by a similarity verification. */
  copies: CopyLookup;
  /** A record is served only while its address holds the code it describes. */
  records: RecordCheck;
  /** Runs a just-queued verification at once when its sources were compiled before; true when it finished. */
  runKnown(receipt: string, submission: SourceSubmission): Promise<boolean>;
  /** The keyless per-address limits, shared with the /api endpoint. */
  limits: RateLimitStore;
  /** Reads the code an address holds now (a record is served only while it holds the code the record describes). */
  chain: Pick<ChainReader, 'getCode'>;
  /** Contracts' creations, found on the chain once and then read from the store. */
  creations: CreationLookup;
  logger: Logger;
}
