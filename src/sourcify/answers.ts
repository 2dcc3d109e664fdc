/**
 * The shapes every Sourcify route answers in: the error object (`customCode`, `message`,
 * `errorId`) with its HTTP status, and the minimal contract object with Sourcify's match words.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { getAddress } from 'viem';
import type { MatchKind } from '../core/types.js';
import { provenMatch } from '../verify/index.js';

/** Sourcify's word for how a part matched: `exact_match` (full), `match` (partial), or null. */
export type SourcifyMatch = 'exact_match' | 'match' | null;

/** The service's match kind in Sourcify's words. */
export function sourcifyMatch(kind: MatchKind | null | undefined): SourcifyMatch {
  return kind === 'full' ? 'exact_match' : kind === 'partial' ? 'match' : null;
}

/** Sourcify's minimal contract object (`VerifiedContractMinimal`). */
export interface ContractMinimal {
  match: SourcifyMatch;
  creationMatch: SourcifyMatch;
  runtimeMatch: SourcifyMatch;
  chainId: string;
  address: string;
  verifiedAt?: string;
  matchId?: string;
}

/** The minimal object of an address with no verification (or none yet). */
export function unmatched(chainId: number, address: string): ContractMinimal {
  return { match: null, creationMatch: null, runtimeMatch: null, chainId: String(chainId), address: checksummed(address) };
}

/** A verdict's matches in Sourcify's words: what the service proved (provenMatch), overall and part by part. */
export function matchesOf(verdict: {
  creationMatch: MatchKind | null;
  runtimeMatch: MatchKind | null;
  matchKind: MatchKind;
}): Pick<ContractMinimal, 'match' | 'creationMatch' | 'runtimeMatch'> {
  const proven = provenMatch(verdict);
  return { match: sourcifyMatch(proven.match), creationMatch: sourcifyMatch(proven.creation), runtimeMatch: sourcifyMatch(proven.runtime) };
}

/**
 * A record's minimal object. `matchId` is the record's position in the list of verified
 * contracts (`<verifiedAt>-<address>`), what `afterMatchId` pages by.
 */
export function matched(
  chainId: number,
  record: { address: string; creationMatch: MatchKind | null; runtimeMatch: MatchKind | null; matchKind: MatchKind; verifiedAt: number },
): ContractMinimal {
  return {
    ...matchesOf(record),
    chainId: String(chainId),
    address: checksummed(record.address),
    verifiedAt: isoSecond(record.verifiedAt),
    matchId: matchIdOf(record),
  };
}

export function matchIdOf(record: { verifiedAt: number; address: string }): string {
  return `${record.verifiedAt}-${record.address.toLowerCase()}`;
}

/** `2026-11-23T10:00:00Z`, as Sourcify gives times. */
export function isoSecond(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function checksummed(address: string): string {
  try {
    return getAddress(address.toLowerCase());
  } catch {
    return address;
  }
}

/** Sourcify's error object. */
export interface SourcifyError {
  customCode: string;
  message: string;
  errorId: string;
  [more: string]: unknown;
}

export function sourcifyError(customCode: string, message: string, more: Record<string, unknown> = {}): SourcifyError {
  return { customCode, message, errorId: randomUUID(), ...more };
}

/** Answers an error with its status. */
export function sendError(reply: FastifyReply, status: number, customCode: string, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(sourcifyError(customCode, message));
}

/** A route's answer: the HTTP status and the JSON body (and, for a 429, when to come back: Retry-After). */
export interface Answer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

/**
 * Retry-After of a 429 that waits for a job rather than for a limiter (the address's own
 * verification, or some of the client's): when its state is worth asking again.
 */
export const JOB_WAIT_SECONDS = 5;

export function errorAnswer(status: number, customCode: string, message: string, more: Record<string, unknown> = {}): Answer {
  return { status, body: sourcifyError(customCode, message, more) };
}
