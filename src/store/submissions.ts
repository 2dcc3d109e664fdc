import type { Kysely } from 'kysely';
import type { Database, QuotaKind } from './database.js';
import { isPostgres } from './dialect.js';
import type { JobRequest } from './jobRequest.js';
import { takeQuota } from './quotas.js';
import { writeTransaction } from './transactions.js';
import { insertJob, type VerificationJob } from './verificationJobs.js';

export interface QueueSubmissionOptions {
  request: JobRequest;
  apiKeyId: string;
  /** The daily quota the submission counts against; null for one that uses none. */
  quota: { kind: QuotaKind; limit: number } | null;
  /** A key may have at most this many jobs queued or running; 0 or less: no limit. */
  maxUnfinished: number;
}

export type QueueSubmissionOutcome =
  | { ok: true; job: VerificationJob }
  | { ok: false; reason: 'unfinished'; unfinished: number }
  | { ok: false; reason: 'quota'; resetsAt: Date };

/**
 * Queues a submission of a key, in one transaction: refused while the key has
 * `maxUnfinished` jobs waiting or running (so one key cannot fill the queue), then counted
 * against its daily quota, then written. Nothing is counted or written when refused; the job
 * is durable when this resolves.
 */
export async function queueSubmission(db: Kysely<Database>, options: QueueSubmissionOptions): Promise<QueueSubmissionOutcome> {
  return writeTransaction(db, async (trx) => {
    // Serialises a key's submissions (SQLite's write lock does that already).
    if (isPostgres(db)) await trx.selectFrom('apiKeys').select('id').where('id', '=', options.apiKeyId).forUpdate().execute();
    if (options.maxUnfinished > 0) {
      const row = await trx
        .selectFrom('verificationJobs')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('apiKeyId', '=', options.apiKeyId)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirstOrThrow();
      const unfinished = Number(row.n);
      if (unfinished >= options.maxUnfinished) return { ok: false, reason: 'unfinished', unfinished };
    }
    if (options.quota) {
      const quota = await takeQuota(trx, { keyId: options.apiKeyId, kind: options.quota.kind, limit: options.quota.limit });
      if (!quota.ok) return { ok: false, reason: 'quota', resetsAt: quota.resetsAt };
    }
    const job = await insertJob(trx, { request: options.request, apiKeyId: options.apiKeyId });
    return { ok: true, job };
  });
}
