import { SolproofError } from '../core/errors.js';
import type { ChainReader } from '../verify/index.js';

/**
 * Confirms the node serves the chain the service is configured for, so code from another
 * network is never verified under this chain's name. Throws SolproofError('chain_mismatch')
 * when it does not, and chain_unavailable (from the reader) when the node cannot be asked.
 */
export async function checkChainId(reader: ChainReader, expected: number): Promise<void> {
  const actual = await reader.chainId();
  if (actual !== expected) {
    throw new SolproofError('chain_mismatch', { expected, actual });
  }
}
