import type { CopyLookup } from '../bytecodeDatabase/copyLookup.js';
import type { RecordCheck } from '../bytecodeDatabase/recordCheck.js';
import type { CompilerListing } from '../core/compilerListing.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/openStore.js';
import type { ChainReader } from '../verify/index.js';

/** What the explorer needs from the rest of the service (wired by cli/). */
export interface WebContext {
  config: Pick<Config, 'publicUrl' | 'webRate' | 'bodyLimit' | 'selfServiceKeys' | 'receiptStreams'>;
  /** The chain id the service serves. */
  chainId: number;
  /** The chain's JSON-RPC URL as users reach it (the devnet the service started); absent when it is not for the public. */
  publicRpcUrl?: string | undefined;
  store: Store;
  chain: ChainReader;
  logger: Logger;
  /** The compilers the service can use (`/compilers`, `/compilers.json`). */
  compilers: CompilerListPort;
  /** An unverified address may be a copy of a verified contract: checked when its page is read. */
  copies: CopyLookup;
  /** A record is served only while its address holds the code it describes: asked before a record is shown. */
  records: RecordCheck;
  /** Submits the Verify & Publish form as the API's verifysourcecode (same checks, limits and quota) for `client`. */
  submitVerification(params: Record<string, string>, client: string): Promise<ApiAnswer>;
  /**
   * Whether `apiKey` may submit from `client`, checked as the API checks keys (wrong ones count
   * towards its cool-down) but without using its rate: null when it may, else the text to show.
   */
  checkApiKey(apiKey: string, client: string): Promise<string | null>;
}

/** The API's envelope, as the explorer needs it. */
export interface ApiAnswer {
  status: string;
  message: string;
  result: unknown;
}

/** Answers at once from the sources' last lists; never throws for an unreachable source. */
export interface CompilerListPort {
  list(): Promise<CompilerListing>;
}

/**
 * The RPC URL the pages may show in their snippets: the configured one when it carries no
 * secret (no user, password, path or query: a provider's key often sits in the path), else none.
 */
export function shareableRpcUrl(rpcUrl: string | undefined): string | undefined {
  if (!rpcUrl) return undefined;
  try {
    const url = new URL(rpcUrl);
    if (url.username || url.password || url.search || (url.pathname !== '/' && url.pathname !== '')) return undefined;
    return rpcUrl.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}
