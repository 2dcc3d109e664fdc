import { expect } from 'vitest';
import { SolproofError } from '../../src/core/errors.js';

/** The SolproofError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(p: Promise<unknown>): Promise<SolproofError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SolproofError);
    return e as SolproofError;
  }
  throw new Error('expected a rejection');
}
