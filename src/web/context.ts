import type { Services } from '../useCases/index.js';

/** What the explorer runs on: the use cases' parts, and the chain's URL as the pages may show it. */
export interface WebContext extends Services {
  /** The chain's JSON-RPC URL as users reach it (the devnet the service started); absent when it is not for the public. */
  publicRpcUrl?: string | undefined;
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
