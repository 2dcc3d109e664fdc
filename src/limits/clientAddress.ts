/**
 * Who a keyless limit counts. Every limit on clients without a key (keyless reads and status
 * polls, the Sourcify API and its quotas, explorer pages, the CSV export, forms, receipt streams,
 * self-service keys, the invalid-key cool-down) is keyed by `clientKey(address)`, so that one
 * client is one client whichever of its addresses it sends from.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Addresses are at most 45 characters; anything longer is cut so that it cannot bloat the limiters. */
const MAX_CLIENT_LENGTH = 64;

/** The eight 16-bit groups of an IPv6 address (without a zone), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address;
  // A dotted IPv4 tail (::ffff:1.2.3.4) is the last two groups.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const head = parse(halves[0] ?? '');
  const rest = halves.length > 1 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest];
}

/**
 * The client a keyless limit counts for a request's address: an IPv4 address as it is; an
 * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack listener reports for IPv4
 * peers) as that IPv4 address; any other IPv6 address by its /64 (`2001:db8:1:2::/64`): a
 * network's hosts choose the low 64 bits freely, so counting them apart would give one client
 * 2^64 allowances. Anything else (a proxy may forward text that is no address) is itself, cut
 * to 64 characters.
 */
export function clientKey(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address.split('%')[0] ?? '');
  if (!groups) return address.slice(0, MAX_CLIENT_LENGTH);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** Retry-After's whole seconds for a wait of `waitMs` (at least 1: a refused request waits). */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
