/**
 * Read answers kept in memory as the bytes sent, so a repeated read of a verified contract
 * costs neither a query nor a serialisation. An answer is kept under the store's `records`
 * version read before it was built, and served only while that version is current: a record
 * improved, taken off or linked to a proxy (here or in another process) is never served from
 * memory afterwards (store/storeChanges.ts). Only verified answers are kept; the entries' bytes
 * are bounded, the oldest going first.
 */
import { NO_METRICS, type ServiceMetrics } from '../core/metrics.js';
import type { StoreChanges } from '../store/storeChanges.js';

/** An answer already serialised as JSON: sent as it is. */
export class KeptAnswer {
  constructor(readonly body: Buffer) {}
}

/** What answers kept in memory may weigh in all, by default. */
export const DEFAULT_KEPT_ANSWER_BYTES = 64 * 1024 * 1024;

interface Entry {
  version: number;
  body: KeptAnswer;
}

export class KeptAnswers {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly changes: Pick<StoreChanges, 'version'>,
    private readonly metrics: Pick<ServiceMetrics, 'answerRead'> = NO_METRICS,
    private readonly maxBytes = DEFAULT_KEPT_ANSWER_BYTES,
  ) {}

  /** The version an answer about to be built is kept under (-1: it will not be kept). */
  version(): number {
    return this.changes.version('records');
  }

  /** The answer kept for `key` while it is still current; null otherwise. */
  get(key: string): KeptAnswer | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    const version = this.version();
    if (version < 0 || entry.version !== version) {
      this.drop(key, entry);
      return null;
    }
    this.metrics.answerRead('memory');
    return entry.body;
  }

  /**
   * Serialises `answer` and keeps it for `key` when the store has not changed since `version`
   * was read (the answer was built from what is still current). Returns what to send.
   */
  keep(key: string, version: number, answer: unknown): KeptAnswer {
    const body = new KeptAnswer(Buffer.from(JSON.stringify(answer), 'utf8'));
    this.metrics.answerRead('store');
    const size = body.body.byteLength + key.length;
    if (version < 0 || version !== this.version() || size > this.maxBytes / 4) return body;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { version, body });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(k, e);
    }
    return body;
  }

  /** How many answers are kept and what they weigh (bytes). */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.body.byteLength + key.length;
  }
}
