import type { CopyLookup } from '../bytecodeDatabase/copyLookup.js';
import type { CompilerListing } from '../core/compilerListing.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/openStore.js';
import type { ChainReader } from '../verify/index.js';

/** What the explorer needs from the rest of the service (wired by cli/). */
export interface WebContext {
  config: Pick<Config, 'publicUrl' | 'webRate'>;
  /** The chain id the service serves. */
  chainId: number;
  store: Store;
  chain: ChainReader;
  logger: Logger;
  /** The compilers the service can use (`/compilers`, `/compilers.json`). */
  compilers: CompilerListPort;
  /** An unverified address may be a copy of a verified contract: checked when its page is read. */
  copies: CopyLookup;
}

/** Answers at once from the sources' last lists; never throws for an unreachable source. */
export interface CompilerListPort {
  list(): Promise<CompilerListing>;
}
