import { parseAddress } from '../core/hex.js';
import type { Address } from '../core/types.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import { type Answer, errorAnswer } from './answers.js';

/** The `{chainId}/{address}` of a route: the address, or the refusal (a chain not served, an address that is none). */
export function checkTarget(served: number, params: { chainId?: string | undefined; address?: string | undefined }): { address: Address } | Answer {
  const chainId = params.chainId ?? '';
  if (chainId !== String(served)) return errorAnswer(404, 'unsupported_chain', SOURCIFY_TEXT.unsupportedChain(chainId, served));
  const given = params.address ?? '';
  const address = parseAddress(given);
  if (!address) return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidAddress(given));
  return { address };
}

export function isAnswer(value: object): value is Answer {
  return 'status' in value && 'body' in value;
}
