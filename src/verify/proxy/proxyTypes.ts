import type { Address } from '../../core/types.js';

/**
 * How a proxy was recognised. One name per pattern (docs/api.md, Proxies); shape variants
 * (vanity PUSHn, trailing immutable args, the two PUSH0 forms, the two Vyper forms) share
 * their pattern's name.
 */
export type ProxyPattern =
  | 'eip1167'
  | 'clone44'
  | 'push0_clone'
  | 'vyper_forwarder'
  | 'sequence_wallet'
  | 'eip1967'
  | 'eip1967_beacon'
  | 'oz_legacy'
  | 'eip1822'
  | 'safe'
  | 'eip897'
  | 'get_implementation'
  | 'compound_unitroller'
  | 'eip2535_diamond'
  | 'eip7702';

/** Every pattern, in the fixed priority order used when several answer. */
export const PROXY_PATTERNS: readonly ProxyPattern[] = [
  'eip1167',
  'clone44',
  'push0_clone',
  'vyper_forwarder',
  'sequence_wallet',
  'eip7702',
  'eip1967',
  'eip1967_beacon',
  'oz_legacy',
  'eip1822',
  'safe',
  'eip897',
  'get_implementation',
  'compound_unitroller',
  'eip2535_diamond',
];

/** One validated answer: a pattern and the logic contract it points at. */
export interface ProxyCandidate {
  pattern: ProxyPattern;
  implementation: Address;
}

/** One step of a proxy chain: `address` delegates to `implementation`. */
export interface ProxyHop {
  address: Address;
  implementation: Address;
  pattern: ProxyPattern;
}

export interface ProxyFound {
  found: true;
  /** The block every read was pinned to. */
  blockNumber: bigint;
  /**
   * The first hop's logic contract (what the Etherscan success text names). For a
   * Diamond this is the first facet that `facetAddresses()` lists; all are in `facets`.
   */
  implementation: Address;
  pattern: ProxyPattern;
  /** The last hop's implementation: the contract whose ABI "Read as Proxy" uses. */
  finalImplementation: Address;
  /** EIP-1967 beacon proxies: the beacon the implementation was read from. */
  beacon?: Address;
  /** The EIP-1967 admin slot's address when set (display only; may be an EOA). */
  admin?: Address;
  /** EIP-2535 Diamonds: every facet with code, in `facetAddresses()` order. */
  facets?: Address[];
  /** EIP-897 `proxyType()`: 1 fixed, 2 upgradeable, when the proxy answers it. */
  eip897ProxyType?: 1 | 2;
  /** EIP-7702: the address is an account delegating to code, not a contract proxy. */
  isDelegatedAccount?: boolean;
  /** Lower-priority candidates of the first hop that point elsewhere. */
  conflicts: ProxyCandidate[];
  /** Every hop, first hop first; at least one. */
  chain: ProxyHop[];
  /** Why the chain stopped: at a non-proxy, at an address already seen, or at maxHops. */
  chainEnd: 'logic' | 'cycle' | 'max_hops';
}

export type ProxyNotFoundReason = 'no_code' | 'not_a_proxy' | 'expected_implementation_differs';

export interface ProxyNotFound {
  found: false;
  blockNumber: bigint;
  reason: ProxyNotFoundReason;
  /** Set with reason expected_implementation_differs: what the caller expected (lower case). */
  expectedImplementation?: Address;
  /** Set with reason expected_implementation_differs: what was detected, best first. */
  candidates?: ProxyCandidate[];
}

export type ProxyDetection = ProxyFound | ProxyNotFound;

export interface DetectProxyOptions {
  /** Etherscan's `expectedimplementation`; compared case-insensitively. */
  expectedImplementation?: Address | undefined;
  /** Read at this block; default: the latest block at the start of detection. */
  blockNumber?: bigint;
  /** Hops to follow through proxy chains; default 5, at most 16. */
  maxHops?: number;
}
