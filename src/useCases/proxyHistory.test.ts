import { describe, expect, it } from 'vitest';
import type { Address, Hex } from '../core/types.js';
import type { ProxyHistoryRow } from '../store/proxyHistory.js';
import { implementationEvents } from './proxyHistory.js';

const a = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;
const PROXY = a(0xa0);
const BEACON1 = a(0xb1);
const BEACON2 = a(0xb2);
const row = (proxy: Address, kind: ProxyHistoryRow['kind'], target: Address, blockNumber: number, logIndex = 0): ProxyHistoryRow => ({
  proxy,
  kind,
  target,
  blockNumber,
  logIndex,
  transactionHash: `0x${blockNumber.toString(16).padStart(64, '0')}` as Hex,
});

describe("a proxy's implementations from its upgrade events", () => {
  it("a proxy's own Upgraded events, oldest first", () => {
    const own = [row(PROXY, 'implementation', a(2), 7), row(PROXY, 'implementation', a(1), 3)];
    expect(implementationEvents(PROXY, own, [], null).map((r) => [r.target, r.blockNumber])).toEqual([
      [a(1), 3],
      [a(2), 7],
    ]);
  });

  it("a beacon proxy: each beacon's implementations while the proxy pointed to it, the held one when it switched", () => {
    const own = [row(PROXY, 'beacon', BEACON1, 10), row(PROXY, 'beacon', BEACON2, 30)];
    const beacons = [
      row(BEACON1, 'implementation', a(1), 5),
      row(BEACON1, 'implementation', a(2), 20),
      row(BEACON2, 'implementation', a(3), 8),
      row(BEACON1, 'implementation', a(9), 40),
      row(BEACON2, 'implementation', a(4), 50),
    ];
    expect(implementationEvents(PROXY, own, beacons, BEACON2).map((r) => [r.target, r.blockNumber])).toEqual([
      [a(1), 10],
      [a(2), 20],
      [a(3), 30],
      [a(4), 50],
    ]);
  });

  it('a beacon proxy set up before the events were read: the beacon read now', () => {
    const beacons = [row(BEACON1, 'implementation', a(1), 5), row(BEACON1, 'implementation', a(2), 9)];
    expect(implementationEvents(PROXY, [], beacons, BEACON1).map((r) => r.target)).toEqual([a(1), a(2)]);
  });
});
