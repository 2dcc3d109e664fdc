import { isSolproofError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Address } from '../core/types.js';
import type { Store } from '../store/openStore.js';
import { saveProxyRecord } from '../store/proxyRecords.js';
import type { VerificationJob } from '../store/verificationJobs.js';
import type { ChainReader } from '../verify/ports.js';
import { detectProxy } from '../verify/proxy/index.js';
import { retryDelay, type JobOutcome } from './queue.js';

/** What verifyproxycontract queues. */
export interface ProxyRequest {
  address: Address;
  expectedImplementation?: Address;
}

export const PROXY_TEXTS = {
  found: (proxy: string, implementation: string) =>
    `The proxy's (${proxy.toLowerCase()}) implementation contract is found at ${implementation.toLowerCase()} and is successfully updated.`,
  notDetected: 'A corresponding implementation contract was unfortunately not detected for the proxy address.',
  expectedDiffers: (expected: string, found: string) =>
    `The implementation contract found at ${found.toLowerCase()} differs from the expected implementation ${expected.toLowerCase()}.`,
} as const;

export interface ProxyVerificationDeps {
  store: Store;
  chain: ChainReader;
  logger: Logger;
  retryDelayMs?: number;
}

/**
 * The proxy job: detects the implementation at one pinned block and records the link
 * (replacing an earlier one, so an upgraded proxy is updated by verifying it again).
 */
export function createProxyVerificationHandler(deps: ProxyVerificationDeps) {
  const retryDelayMs = deps.retryDelayMs ?? 5000;
  return async function runProxyVerification(job: VerificationJob): Promise<JobOutcome> {
    const request = job.request as ProxyRequest;
    try {
      const detection = await detectProxy(deps.chain, request.address, {
        expectedImplementation: request.expectedImplementation,
      });
      if (!detection.found) {
        if (detection.reason === 'expected_implementation_differs') {
          const found = detection.candidates?.[0]?.implementation ?? '0x';
          return {
            state: 'fail',
            resultText: PROXY_TEXTS.expectedDiffers(request.expectedImplementation ?? '', found),
            result: { reason: detection.reason, candidates: detection.candidates ?? [] },
          };
        }
        return { state: 'fail', resultText: PROXY_TEXTS.notDetected, result: { reason: detection.reason } };
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
        resultText: PROXY_TEXTS.found(request.address, detection.implementation),
        result: { implementation: detection.implementation, pattern: detection.pattern, blockNumber: Number(detection.blockNumber) },
      };
    } catch (error) {
      if (isSolproofError(error) && error.retryable) {
        deps.logger.warn({ receipt: job.receipt, err: error.message }, 'proxy detection will be retried');
        return { retry: true, delayMs: retryDelay(retryDelayMs, job.attempts), error: error.message };
      }
      throw error;
    }
  };
}
