import type { Address, ProxyRequest } from '../../core/types.js';
import { TEXT } from '../../texts/index.js';
import type { ApiContext, Caller } from '../context.js';
import { type Envelope, fail } from '../envelope.js';
import { isAddress, type Params } from '../params.js';
import { codeOrRefusal } from './codeAtAddress.js';
import { queueForKey } from './queueForKey.js';

/**
 * `verifyproxycontract`: queues the detection of a proxy's implementation. The proxy need not
 * be verified itself (OpenZeppelin's plugin links a proxy right after deploying it); the link
 * shows in getsourcecode once the proxy's own source is verified, and on the contract page at once.
 */
export async function verifyProxyContract(ctx: ApiContext, params: Params, caller: Caller): Promise<Envelope> {
  if (!caller.key) return fail(TEXT.invalidApiKey);
  const address = params.text('address');
  if (!address) return fail(TEXT.missingParameter('address'));
  if (!isAddress(address)) return fail(TEXT.invalidAddress);
  const expected = params.text('expectedimplementation');
  if (expected && !isAddress(expected)) {
    return fail(TEXT.invalidParameter('expectedimplementation', 'not a 20-byte hex address'));
  }
  const request: ProxyRequest = { address: address.toLowerCase() as Address };
  if (expected) request.expectedImplementation = expected.toLowerCase() as Address;
  // Plugins link a proxy right after deploying it: a lagging node is given a few seconds.
  const found = await codeOrRefusal(ctx, request.address);
  if (!found.ok) return found.refusal;
  return queueForKey(ctx, caller.key, { kind: 'proxy', proxy: request });
}
