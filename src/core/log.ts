import { type Logger, pino } from 'pino';

export type { Logger };

/** The service's logger: JSON lines on stderr, level from SOLPROOF_LOG_LEVEL (default info). */
export function createLogger(level = process.env.SOLPROOF_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: null }, pino.destination(2));
}

/**
 * A request URL fit for the log: the value of every `apikey` parameter (any letter case,
 * encoded or not) replaced, so a key sent in the query string is never written in clear.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&;](?:a|%61|%41)(?:p|%70|%50)(?:i|%69|%49)(?:k|%6b|%4b)(?:e|%65|%45)(?:y|%79|%59)=)[^&;#]*/gi, '$1[redacted]');
}
