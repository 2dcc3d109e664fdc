import { TEXT } from '../texts/index.js';

export interface Envelope {
  status: '0' | '1';
  message: string;
  result: unknown;
}

export function ok(result: unknown, message: string = TEXT.ok): Envelope {
  return { status: '1', message, result };
}

/** A business or client error: HTTP stays 200, status "0", a human text in `result`. */
export function fail(result: string, message: string = TEXT.notOk): Envelope {
  return { status: '0', message, result };
}
