/** The use cases' refusals in Etherscan's words: what /api, and the explorer's form that submits as it does, answer with. */
import type { AccessRefusal, SubmitRefusal } from '../core/refusals.js';
import { TEXT } from './etherscan.js';

export function accessRefusalText(refusal: AccessRefusal): string {
  switch (refusal) {
    case 'invalid_key':
      return TEXT.invalidApiKey;
    case 'too_many_invalid_keys':
      return TEXT.tooManyInvalidKeys;
    case 'keyless_rate':
      return TEXT.maxRateKeyless;
    case 'keyed_rate':
      return TEXT.maxRateKeyed;
  }
}

export function submitRefusalText(refusal: SubmitRefusal): string {
  switch (refusal.code) {
    case 'already_verified':
      return TEXT.alreadyVerified;
    case 'own_job_unfinished':
      return TEXT.ownJobUnfinished(refusal.address, refusal.receipt);
    case 'no_code':
      return TEXT.noCodeAtBlock(refusal.address, refusal.block, refusal.waitedMs);
    case 'node_unavailable':
      return TEXT.nodeUnavailable;
    case 'daily_quota':
      return TEXT.dailyQuotaReached(refusal.kind, refusal.limit, refusal.resetsAt);
    case 'too_many_unfinished':
      return TEXT.tooManyUnfinished(refusal.unfinished);
  }
}
