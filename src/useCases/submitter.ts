import type { Config } from '../core/config.js';
import type { SubmissionQuota } from '../core/refusals.js';
import { clientKey } from '../limits/clientAddress.js';
import type { ApiKeyRecord } from '../store/apiKeys.js';

/**
 * Who submits: the holder of a valid API key (Etherscan's API and the explorer's form), or a
 * keyless client known by its address (Sourcify's API). Quotas, the limit of unfinished jobs
 * and the fair share of the workers are counted per submitter.
 */
export type Submitter = { key: ApiKeyRecord } | { client: string };

/** The id a submitter's jobs and quotas are counted under: its key's id, or `sourcify:<address>` for a keyless client (an IPv6 client by its /64). */
export function submitterId(who: Submitter): string {
  return 'key' in who ? who.key.id : `sourcify:${clientKey(who.client)}`;
}

/** The daily quota of `kind` a submitter has: a key's per kind, a keyless client's one quota for all it may submit. */
export function dailyQuota(
  config: Pick<Config, 'dailyVerifyQuota' | 'dailyProxyQuota' | 'dailyDryRunQuota' | 'sourcifyDailyQuota'>,
  who: Submitter,
  kind: SubmissionQuota,
): number {
  if (!('key' in who)) return config.sourcifyDailyQuota;
  return { verify: config.dailyVerifyQuota, proxy: config.dailyProxyQuota, dry_run: config.dailyDryRunQuota }[kind];
}
