/**
 * How long an idle kept-alive connection stays open, told and kept. A client reuses an idle
 * connection until shortly before the time the server names in `Keep-Alive: timeout=N`
 * (undici, Node's fetch, stops 2 s before it; clients that ignore the hint reuse it until it
 * closes). When the server closes at exactly that time, a request sent near the end of the
 * client's window meets the close: the client sees ECONNRESET or "other side closed". That
 * happens when an event loop is late, as on a loaded machine:
 * - the service's: a loop that resumes after a stall runs its timers before it reads its
 *   sockets, so the idle timer of a connection whose next request has already arrived fires
 *   first and the request is lost;
 * - a client's: its own idle timer cannot run either, and it sends on a connection the service
 *   closed meanwhile (a test process blocked 17.8 s by its own work, at a load average of 15,
 *   met the 15 s this first kept).
 * So the service names a shorter time than it keeps: clients stop reusing a connection well
 * before the service closes it. It keeps an idle connection as long as a new one may wait for
 * its first request (30 s, IDLE_TIMEOUT_MS in api/server.ts), so no connection is held longer.
 */
import type { Server } from 'node:http';

/** What clients are told (`Keep-Alive: timeout=5`): they reuse an idle connection for less than this. */
export const KEEP_ALIVE_HINT_MS = 5_000;
/** How much longer the service keeps an idle connection open than it says: the delay, the service's or a client's, it absorbs. */
export const KEEP_ALIVE_GRACE_MS = 25_000;
/** The service's idle keep-alive timeout. */
export const KEEP_ALIVE_TIMEOUT_MS = KEEP_ALIVE_HINT_MS + KEEP_ALIVE_GRACE_MS;

/**
 * Makes `server` keep idle connections for KEEP_ALIVE_TIMEOUT_MS while telling clients
 * KEEP_ALIVE_HINT_MS. Node writes `Keep-Alive: timeout=` from its own timeout unless a response
 * already carries the header, so every response is given the shorter one before anything
 * else sees it.
 */
export function keepAliveLongerThanTold(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const hint = `timeout=${Math.floor(KEEP_ALIVE_HINT_MS / 1000)}`;
  server.prependListener('request', (_request, response) => {
    response.setHeader('keep-alive', hint);
  });
}
