import { expect } from 'vitest';
import { SolproofError } from '../../src/core/errors.js';

/** A SolproofError whose facts a test reads by name. */
export type RejectionError = SolproofError & { details: Record<string, any> };

/** The SolproofError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(p: Promise<unknown>): Promise<RejectionError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SolproofError);
    return e as RejectionError;
  }
  throw new Error('expected a rejection');
}
