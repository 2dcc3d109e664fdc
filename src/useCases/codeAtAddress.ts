import { withV } from '../core/compilerVersion.js';
import { isSolproofError } from '../core/errors.js';
import type { NoCode } from '../core/refusals.js';
import type { Address, Hex } from '../core/types.js';
import { deployedFacts } from '../verify/index.js';
import type { Services } from './services.js';

/** How often the node is asked again while waiting for code. */
const POLL_MS = 250;

/**
 * The code at `address` when a submission arrives. Right after a deployment a node behind a
 * load balancer may not show it yet, so an empty answer is asked again for up to
 * `config.codeWaitMs`; the last question is pinned to a block, which the refusal names.
 */
export async function codeAtAddress(
  s: Pick<Services, 'chain' | 'config'>,
  address: Address,
): Promise<{ ok: true; code: Hex } | { ok: false; refusal: NoCode }> {
  const waitMs = Math.max(0, s.config.codeWaitMs);
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      const last = Date.now() >= deadline;
      const block = last ? await s.chain.getBlockNumber() : undefined;
      const code = await s.chain.getCode(address, block);
      if (code.length > 2) return { ok: true, code };
      if (block !== undefined) return { ok: false, refusal: { code: 'no_code', address, block, waitedMs: waitMs } };
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(POLL_MS, deadline - Date.now()))));
    }
  } catch (e) {
    if (isSolproofError(e, 'chain_unavailable')) return { ok: false, refusal: { code: 'node_unavailable' } };
    throw e;
  }
}

/**
 * The compiler the code at `address` names in its metadata (`v0.8.26+commit.8a97fa7a`), for a
 * form to start from; null when there is no code, its metadata names no release, the release
 * is unknown, or the node cannot be asked now. One question to the node, no waiting.
 */
export async function deployedCompiler(s: Pick<Services, 'chain' | 'releases'>, address: Address): Promise<string | null> {
  try {
    const code = await s.chain.getCode(address);
    const release = code.length > 2 ? deployedFacts(code).compilerRelease : null;
    const long = release ? s.releases(release)?.longVersion : undefined;
    return long ? withV(long) : null;
  } catch (e) {
    if (isSolproofError(e, 'chain_unavailable')) return null;
    throw e;
  }
}
