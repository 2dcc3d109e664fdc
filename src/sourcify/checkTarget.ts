import type { Address } from '../core/types.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Answer, errorAnswer } from './answers.js';
import type { SourcifyContext } from './context.js';

/** The `{chainId}/{address}` of a route: the address in lower case, or the refusal (a chain not served, an address that is none). */
export function checkTarget(ctx: Pick<SourcifyContext, 'chainId'>, params: { chainId?: string; address?: string }): { address: Address } | Answer {
  const chainId = params.chainId ?? '';
  if (chainId !== String(ctx.chainId)) return errorAnswer(404, 'unsupported_chain', SOURCIFY_TEXT.unsupportedChain(chainId, ctx.chainId));
  const address = params.address ?? '';
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidAddress(address));
  return { address: address.toLowerCase() as Address };
}

export function isAnswer(value: object): value is Answer {
  return 'status' in value && 'body' in value;
}
