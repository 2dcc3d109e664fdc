import { pino, type Logger } from 'pino';

export type { Logger };

/** The service's logger: JSON lines on stderr, level from SOLPROOF_LOG_LEVEL (default info). */
export function createLogger(level = process.env.SOLPROOF_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: undefined }, pino.destination(2));
}
