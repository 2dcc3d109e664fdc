import { isSolproofError } from '../../core/errors.js';
import type { Address, Hex } from '../../core/types.js';
import { TEXT } from '../../texts/index.js';
import type { ApiContext } from '../context.js';
import { type Envelope, fail } from '../envelope.js';

/** How often the node is asked again while waiting for code. */
const POLL_MS = 250;

/**
 * Checks at submission that the node has code at `address`. Right after a deployment a node
 * behind a load balancer may not show it yet, so an empty answer is asked again for up to
 * `config.codeWaitMs`; the last question is pinned to a block, which the refusal names.
 * Returns the code, or the refusal.
 */
export async function codeOrRefusal(
  ctx: Pick<ApiContext, 'chain' | 'config'>,
  address: Address,
): Promise<{ ok: true; code: Hex } | { ok: false; refusal: Envelope }> {
  const waitMs = Math.max(0, ctx.config.codeWaitMs);
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      const last = Date.now() >= deadline;
      const block = last ? await ctx.chain.getBlockNumber() : undefined;
      const code = await ctx.chain.getCode(address, block);
      if (code.length > 2) return { ok: true, code };
      if (block !== undefined) return { ok: false, refusal: fail(TEXT.noCodeAtBlock(address, block, waitMs)) };
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(POLL_MS, deadline - Date.now()))));
    }
  } catch (e) {
    if (isSolproofError(e, 'chain_unavailable')) return { ok: false, refusal: fail(TEXT.nodeUnavailable) };
    throw e;
  }
}
