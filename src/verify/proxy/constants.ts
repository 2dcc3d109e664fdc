import type { Hex } from '../../core/types.js';

/** Storage slots that proxies keep their implementation (or beacon, or admin) in. */
export const SLOTS = {
  /** bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1) */
  eip1967Implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  /** bytes32(uint256(keccak256('eip1967.proxy.beacon')) - 1) */
  eip1967Beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
  /** bytes32(uint256(keccak256('eip1967.proxy.admin')) - 1) */
  eip1967Admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  /** keccak256('org.zeppelinos.proxy.implementation') */
  ozLegacyImplementation: '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
  /** keccak256('PROXIABLE') */
  eip1822Proxiable: '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7',
  zero: '0x0000000000000000000000000000000000000000000000000000000000000000',
} as const satisfies Record<string, Hex>;

/** 4-byte selectors of the getters proxies answer, without 0x. */
export const SELECTORS = {
  implementation: '5c60da1b',
  childImplementation: 'da525716',
  proxyType: '4555d5c9',
  getImplementation: 'aaf10f42',
  comptrollerImplementation: 'bb82aa5e',
  masterCopy: 'a619486e',
  facetAddresses: '52ef6b2c',
  facetAddress: 'cdffacc6',
  /**
   * `solproofProbeUnknownSelector()`: a selector no contract is expected to implement,
   * called to see what a contract answers to calls it does not know.
   */
  unknownProbe: 'fd3b5658',
} as const;

/** A Diamond answering with more facets than this is treated as not a Diamond (bounded work). */
export const MAX_FACETS = 128;
