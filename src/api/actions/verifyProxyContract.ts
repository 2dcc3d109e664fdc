import { parseAddress } from '../../core/hex.js';
import type { ProxyRequest } from '../../core/types.js';
import { submitRefusalText, TEXT } from '../../texts/index.js';
import { type Services, submitProxy } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

/**
 * `verifyproxycontract`: queues the detection of a proxy's implementation. The link shows in
 * getsourcecode once the proxy's own source is verified, and on the contract page at once.
 */
export async function verifyProxyContract(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  if (!caller.key) return fail(TEXT.invalidApiKey);
  const given = params.text('address');
  if (!given) return fail(TEXT.missingParameter('address'));
  const address = parseAddress(given);
  if (!address) return fail(TEXT.invalidAddress);
  const expectedText = params.text('expectedimplementation');
  const expected = expectedText ? parseAddress(expectedText) : null;
  if (expectedText && !expected) return fail(TEXT.invalidParameter('expectedimplementation', 'not a 20-byte hex address'));
  const request: ProxyRequest = { address, ...(expected ? { expectedImplementation: expected } : {}) };
  const submitted = await submitProxy(s, { key: caller.key }, request);
  return submitted.ok ? ok(submitted.receipt) : fail(submitRefusalText(submitted.refusal));
}
