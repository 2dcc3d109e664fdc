/**
 * What the service counts, as a port: domain code reports events here and never learns how
 * they are kept. The Prometheus registry behind it is composed in cli/ (cli/metrics.ts); tests
 * and tools that need none use NO_METRICS.
 */
export interface ServiceMetrics {
  /** One HTTP request answered: `action` is the API action (`contract.getabi`) or the route pattern. */
  request(action: string, status: number, seconds: number): void;
  /** A request refused by a limit: `rate_limit`, `invalid_key_cooldown`, `quota`, `queued_jobs`. */
  refused(reason: string): void;
  /** A job ended (`pass`, `fail`, `already_verified`) or was put back (`retry`, `released`). */
  jobDone(kind: string, outcome: string, seconds: number): void;
  /** One compile by `version`, `ok` or `error` (a compiler error, a time limit, a stop). */
  compiled(version: string, outcome: 'ok' | 'error', seconds: number): void;
  /** A deployment verified through a stored compilation (a similar match). */
  similarMatch(): void;
  /** A failed verification's diagnosis ended: `fix` (it found one), `none`, `skipped` (daily limit) or `error`. */
  diagnosis(outcome: string): void;
  /** A verified contract's read answer (getabi, getsourcecode) was sent from `memory` or built from the `store`. */
  answerRead(source: 'memory' | 'store'): void;
}

export const NO_METRICS: ServiceMetrics = {
  request() {},
  refused() {},
  jobDone() {},
  compiled() {},
  similarMatch() {},
  diagnosis() {},
  answerRead() {},
};
