import type { ServerResponse } from 'node:http';
import { FairSlots } from '../../limits/fairSlots.js';
import type { RateLimitStore } from '../../limits/rateLimits.js';

/**
 * What the explorer's routes share while the service runs: the rate limits (one store with the
 * API) and what is open or in flight now. Created once by `registerWebRoutes`, which keeps the
 * counts of API requests and ends the open responses when the service closes.
 */
export interface WebRuntime {
  limits: RateLimitStore;
  /** API requests in flight: while there are any, the CSV export pauses between batches. */
  apiInFlight: number;
  /** CSV exports being written now (bounded in all). */
  csvExports: number;
  /** Responses held open (CSV downloads, receipt event streams): closing the service ends them. */
  openDownloads: Set<ServerResponse>;
  /** Receipt event streams open now, shared fairly among clients. */
  receiptStreams: FairSlots;
}

/** Receipt event streams: per client at most, and how long one is held at most. */
export const RECEIPT_STREAMS_PER_CLIENT = 8;
export const RECEIPT_STREAM_MAX_MS = 10 * 60_000;

/** `receiptStreams`: the receipt event streams open at once in all (`--receipt-streams`). */
export function createWebRuntime(limits: RateLimitStore, receiptStreams = 500): WebRuntime {
  return {
    limits,
    apiInFlight: 0,
    csvExports: 0,
    openDownloads: new Set(),
    receiptStreams: new FairSlots(receiptStreams, RECEIPT_STREAMS_PER_CLIENT, RECEIPT_STREAM_MAX_MS),
  };
}
