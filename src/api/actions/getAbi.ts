import { parseAddress } from '../../core/hex.js';
import { TEXT } from '../../texts/index.js';
import { abiAnswer, type KeptAnswer, type Services } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

/** `getabi`: the ABI of a verified contract as a JSON string. */
export async function getAbi(s: Services, params: Params, caller: Caller): Promise<Envelope | KeptAnswer> {
  const given = params.text('address');
  if (!given) return fail(TEXT.missingParameter('address'));
  const address = parseAddress(given);
  if (!address) return fail(TEXT.invalidAddress);
  const answer = await abiAnswer(s, address, `getabi ${address} ${caller.okMessage}`, (abi) => ok(abi, caller.okMessage));
  return answer ?? fail(TEXT.notVerified);
}
