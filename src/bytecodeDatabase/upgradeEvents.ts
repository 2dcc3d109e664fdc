/**
 * The upgrade events of EIP-1967 proxies and beacons, as the chain follower records them:
 * `Upgraded(address)` (a proxy's, or a beacon's, new implementation) and
 * `BeaconUpgraded(address)` (a beacon proxy's new beacon). The address is the first indexed
 * topic (OpenZeppelin and EIP-1967), or the data of a contract that does not index it.
 */
import { keccakOfText } from '../core/keccak.js';
import type { Address } from '../core/types.js';
import type { ProxyHistoryRow } from '../store/proxyHistory.js';
import type { ChainLog } from '../verify/index.js';

export const UPGRADED_TOPIC = keccakOfText('Upgraded(address)');
export const BEACON_UPGRADED_TOPIC = keccakOfText('BeaconUpgraded(address)');
/** Both first topics, for one eth_getLogs. */
export const UPGRADE_TOPICS = [UPGRADED_TOPIC, BEACON_UPGRADED_TOPIC] as const;

/** The address an upgrade event names, or null when the log is not one (another event with the same name and other arguments). */
function namedAddress(log: ChainLog): Address | null {
  const word = log.topics.length === 2 ? log.topics[1]! : log.topics.length === 1 && log.data.length === 66 ? log.data : null;
  if (word === null || !/^0x0{24}[0-9a-fA-F]{40}$/.test(word)) return null;
  return `0x${word.slice(26).toLowerCase()}`;
}

/** The upgrade events among `logs`, as proxy history rows. */
export function upgradeEventRows(logs: readonly ChainLog[]): ProxyHistoryRow[] {
  const rows: ProxyHistoryRow[] = [];
  for (const log of logs) {
    const topic = log.topics[0]?.toLowerCase();
    const kind = topic === UPGRADED_TOPIC ? 'implementation' : topic === BEACON_UPGRADED_TOPIC ? 'beacon' : null;
    const target = namedAddress(log);
    if (kind === null || target === null) continue;
    rows.push({
      proxy: log.address.toLowerCase() as Address,
      target,
      kind,
      blockNumber: Number(log.blockNumber),
      transactionHash: log.transactionHash,
      logIndex: Number(log.logIndex),
    });
  }
  return rows;
}
