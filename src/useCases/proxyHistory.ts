/**
 * A proxy's implementations, oldest first, from the upgrade events the chain follower recorded:
 * its own `Upgraded` events, and for a beacon proxy the `Upgraded` events of each beacon it
 * pointed to while it did (a `BeaconUpgraded` switching to a beacon brings that beacon's
 * implementation at the time). Each with whether it is verified and has a storage layout kept.
 */
import type { Address, Hex } from '../core/types.js';
import { type ProxyHistoryRow, proxyHistoryOf } from '../store/proxyHistory.js';
import { readContract, readStorageLayouts } from './readContract.js';
import type { Services } from './services.js';

/** One implementation a proxy had, from the event that made it the proxy's. */
export interface ProxyImplementation {
  implementation: Address;
  blockNumber: number;
  transactionHash: Hex;
  verified: boolean;
  contractName: string | null;
  /** Whether a storage layout is kept for it (`/address/<a>/storage-layout.json` serves one). */
  hasLayout: boolean;
}

/** A proxy's implementations as events show them, oldest first, without their records. */
export function implementationEvents(
  proxy: Address,
  own: readonly ProxyHistoryRow[],
  beacons: readonly ProxyHistoryRow[],
  beaconNow: Address | null,
): ProxyHistoryRow[] {
  const proxyLc = proxy.toLowerCase();
  const events = [...own.filter((r) => r.proxy === proxyLc), ...beacons].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  // Before any BeaconUpgraded is known (the proxy was set up before the follower read it), the beacon is the one read now.
  let beacon: string | null = own.some((r) => r.kind === 'beacon') ? null : (beaconNow?.toLowerCase() ?? null);
  const latest = new Map<string, ProxyHistoryRow>();
  const out: ProxyHistoryRow[] = [];
  for (const e of events) {
    if (e.proxy === proxyLc && e.kind === 'beacon') {
      beacon = e.target;
      const held = latest.get(beacon);
      if (held) out.push({ ...held, blockNumber: e.blockNumber, transactionHash: e.transactionHash, logIndex: e.logIndex });
    } else if (e.proxy === proxyLc) {
      out.push(e);
    } else if (e.kind === 'implementation') {
      latest.set(e.proxy, e);
      if (e.proxy === beacon) out.push(e);
    }
  }
  return out;
}

/** The implementations of `proxy`, oldest first; `beaconNow` is its beacon as read now (null when none). */
export async function readProxyHistory(
  s: Pick<Services, 'store' | 'records' | 'copies'>,
  proxy: Address,
  beaconNow: Address | null,
): Promise<ProxyImplementation[]> {
  const own = await proxyHistoryOf(s.store.db, [proxy]);
  const beaconAddresses = new Set(own.filter((r) => r.kind === 'beacon').map((r) => r.target));
  if (beaconNow) beaconAddresses.add(beaconNow.toLowerCase() as Address);
  const beacons = (await proxyHistoryOf(s.store.db, [...beaconAddresses])).filter((r) => r.kind === 'implementation');
  const events = implementationEvents(proxy, own, beacons, beaconNow);
  const facts = new Map<string, Promise<Pick<ProxyImplementation, 'verified' | 'contractName' | 'hasLayout'>>>();
  const factsOf = (address: Address) => {
    let found = facts.get(address);
    if (!found) {
      found = (async () => {
        const contract = await readContract(s, address);
        if (!contract) return { verified: false, contractName: null, hasLayout: false };
        const layouts = await readStorageLayouts(s, contract);
        return { verified: true, contractName: contract.contractName, hasLayout: layouts.storageLayout.layout !== null };
      })();
      facts.set(address, found);
    }
    return found;
  };
  return Promise.all(
    events.map(async (e) => ({ implementation: e.target, blockNumber: e.blockNumber, transactionHash: e.transactionHash, ...(await factsOf(e.target)) })),
  );
}
