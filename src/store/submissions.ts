import { type Kysely, sql } from 'kysely';
import type { Database, QuotaKind } from './database.js';
import { isPostgres } from './dialect.js';
import type { JobRequest } from './jobRequest.js';
import { takeQuota } from './quotas.js';
import { writeTransaction } from './transactions.js';
import { insertJob, unfinishedSourceJob, type VerificationJob } from './verificationJobs.js';

export interface QueueSubmissionOptions {
  request: JobRequest;
  apiKeyId: string;
  /** The daily quota the submission counts against; null for one that uses none. */
  quota: { kind: QuotaKind; limit: number } | null;
  /** A key may have at most this many jobs queued or running; 0 or less: no limit. */
  maxUnfinished: number;
  /** Refused while the same key has a source verification of the request's address waiting or running (its duplicate). */
  refuseDuplicate?: boolean;
}

export type QueueSubmissionOutcome =
  | { ok: true; job: VerificationJob }
  | { ok: false; reason: 'unfinished'; unfinished: number }
  | { ok: false; reason: 'duplicate'; receipt: string }
  | { ok: false; reason: 'quota'; resetsAt: Date };

/**
 * Queues a submission of a key (or keyless client), in one transaction: refused while the key
 * has `maxUnfinished` jobs waiting or running (so one key cannot fill the queue) or, with
 * `refuseDuplicate`, a verification of the same address; then counted against its daily quota,
 * then written. Nothing is counted or written when refused; the job is durable when this resolves.
 */
export async function queueSubmission(db: Kysely<Database>, options: QueueSubmissionOptions): Promise<QueueSubmissionOutcome> {
  return writeTransaction(db, async (trx) => {
    // Serialises a key's submissions, a keyless client's too (SQLite's write lock does that already).
    if (isPostgres(db)) await sql`select pg_advisory_xact_lock(hashtextextended(${`submissions ${options.apiKeyId}`}, 0))`.execute(trx);
    if (options.refuseDuplicate && options.request.kind === 'source') {
      const receipt = await unfinishedSourceJob(trx, options.request.submission.address, options.apiKeyId);
      if (receipt) return { ok: false, reason: 'duplicate', receipt };
    }
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
