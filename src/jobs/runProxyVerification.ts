import { isSolproofError } from '../core/errors.js';
import { type ProxyNotFoundResult, storedError } from '../core/jobResults.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/openStore.js';
import { saveProxyRecord } from '../store/proxyRecords.js';
import type { VerificationJob } from '../store/verificationJobs.js';
import { type ChainReader, detectProxy } from '../verify/index.js';
import { type JobOutcome, retryDelay } from './queue.js';

export interface ProxyVerificationDeps {
  store: Store;
  chain: ChainReader;
  logger: Logger;
  retryDelayMs?: number;
}

const notFound = (document: ProxyNotFoundResult): JobOutcome => ({ state: 'fail', result: { outcome: 'proxy_not_found', document } });

/**
 * The proxy job: detects the implementation at one pinned block and records the link
 * (replacing an earlier one, so an upgraded proxy is updated by verifying it again).
 */
export function createProxyVerificationHandler(deps: ProxyVerificationDeps) {
  const retryDelayMs = deps.retryDelayMs ?? 5000;
  return async function runProxyVerification(job: VerificationJob): Promise<JobOutcome> {
    if (job.request?.kind !== 'proxy') return notFound({ reason: 'request_unreadable' });
    const request = job.request.proxy;
    try {
      const detection = await detectProxy(deps.chain, request.address, {
        expectedImplementation: request.expectedImplementation,
      });
      if (!detection.found) {
        if (detection.reason === 'expected_implementation_differs') {
          return notFound({ reason: detection.reason, expectedImplementation: request.expectedImplementation ?? '', candidates: detection.candidates ?? [] });
        }
        return notFound({ reason: detection.reason });
      }
      await saveProxyRecord(deps.store.db, {
        address: request.address,
        implementation: detection.implementation,
        finalImplementation: detection.finalImplementation,
        pattern: detection.pattern,
        detection,
        blockNumber: Number(detection.blockNumber),
        checkedAt: Date.now(),
        receipt: job.receipt,
      });
      return {
        state: 'pass',
        result: {
          outcome: 'proxy_found',
          document: { implementation: detection.implementation, pattern: detection.pattern, blockNumber: Number(detection.blockNumber) },
        },
      };
    } catch (error) {
      if (isSolproofError(error) && error.retryable) {
        deps.logger.warn({ receipt: job.receipt, code: error.code, details: error.details }, 'proxy detection will be retried');
        return { retry: true, delayMs: retryDelay(retryDelayMs, job.attempts), error: storedError(error) };
      }
      throw error;
    }
  };
}
