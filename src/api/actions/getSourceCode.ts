import { parseAddress } from '../../core/hex.js';
import { TEXT } from '../../texts/index.js';
import { contractAnswer, type KeptAnswer, type Services } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';
import { unverifiedRecord, verifiedRecord } from '../sourceRecord.js';

/** `getsourcecode`: always a one-element array, verified or not. */
export async function getSourceCode(s: Services, params: Params, caller: Caller): Promise<Envelope | KeptAnswer> {
  const given = params.text('address');
  if (!given) return fail(TEXT.missingParameter('address'));
  const address = parseAddress(given);
  if (!address) return fail(TEXT.invalidAddress);
  const answer = await contractAnswer(s, address, `getsourcecode ${address} ${caller.okMessage}`, (contract, proxy) =>
    ok([verifiedRecord(contract, proxy)], caller.okMessage),
  );
  return answer ?? ok([unverifiedRecord()], caller.okMessage);
}
