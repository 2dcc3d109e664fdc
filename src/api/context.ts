import type { CreationLookup } from '../bytecodeDatabase/contractCreations.js';
import type { CopyLookup } from '../bytecodeDatabase/copyLookup.js';
import type { RecordCheck } from '../bytecodeDatabase/recordCheck.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ReleaseLookup } from '../core/solcReleases.js';
import type { SourceSubmission } from '../core/types.js';
import type { QueuedSource } from '../jobs/earlyCompile.js';
import type { ApiKeyRecord } from '../store/apiKeys.js';
import type { Store } from '../store/openStore.js';
import type { ChainReader, LogReader } from '../verify/index.js';
import type { AnswerCache } from './answerCache.js';

/** What the API needs from the rest of the service (wired by cli/). */
export interface ApiContext {
  config: Config;
  /** The chain id the service serves (read from the node at start). */
  chainId: number;
  store: Store;
  chain: ChainReader & LogReader;
  /** Which commit each solc release has: other commits are refused at submission. */
  releases: ReleaseLookup;
  /**
   * Tells the job runners that a job was queued. Given the source submission of a job just
   * queued, a process whose own runner will take it starts compiling it now.
   */
  wakeJobs(queued?: QueuedSource): void;
  /** An unverified address may be a copy of a verified contract: checked on read. */
  copies: CopyLookup;
  /** A record is served only while its address holds the code it describes: asked before a record is read. */
  records: RecordCheck;
  /** Contracts' creations (getcontractcreation), found on the chain once and then read from the store. */
  creations: CreationLookup;
  /** Runs a just-queued verification at once when its sources were compiled before; true when it finished. */
  runKnown(receipt: string, submission: SourceSubmission): Promise<boolean>;
  /** Verified read answers kept in memory while the store has not changed. */
  answers: AnswerCache;
  logger: Logger;
}

/** Who is asking: the validated key (if any) and the client address. */
export interface Caller {
  key: ApiKeyRecord | null;
  client: string;
  /**
   * The client shows the failure reason after `Fail - Unable to verify`: every client but
   * hardhat-verify 2, which compares the whole text (see readsFailureReasons).
   */
  readsReasons: boolean;
  /** The service's base URL as this caller reaches it (`--public-url`, else the request's host): receipts' pages are under it. */
  baseUrl?: string;
}
