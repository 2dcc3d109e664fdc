import { knownAddress, knownHex } from '../../core/hex.js';
import type { Address, Hex } from '../../core/types.js';
import type { ChainReader } from '../ports.js';
import { codeContainsSelector, hasDelegateCall, isKnownSafeProxyCode, matchProxyBytecode } from './bytecodeShapes.js';
import { SELECTORS, SLOTS } from './constants.js';
import type { DetectProxyOptions, ProxyCandidate, ProxyDetection, ProxyFound, ProxyHop, ProxyPattern } from './proxyTypes.js';
import { PROXY_PATTERNS } from './proxyTypes.js';
import { addressArrayFromReturnData, addressFromReturnData, addressFromSingleWord, addressFromWord, lowAddressOfWord, uintFromReturnData } from './words.js';

const DEFAULT_MAX_HOPS = 5;
const MAX_MAX_HOPS = 16;

/** A candidate with the facts that only the winner reports. */
interface Candidate extends ProxyCandidate {
  beacon?: Address;
  facets?: Address[];
  eip897ProxyType?: 1 | 2;
  isDelegatedAccount?: boolean;
}

interface Inspection {
  /** Valid candidates in priority order. */
  candidates: Candidate[];
  admin?: Address;
}

/**
 * Every read of one detection goes through here: pinned to one block, code fetched once
 * per address.
 */
class PinnedReads {
  private readonly codes = new Map<Address, Promise<Hex>>();

  constructor(
    private readonly chain: ChainReader,
    readonly blockNumber: bigint,
  ) {}

  code(address: Address): Promise<Hex> {
    let code = this.codes.get(address);
    if (!code) {
      code = this.chain.getCode(address, this.blockNumber).then((c) => knownHex(c));
      this.codes.set(address, code);
    }
    return code;
  }

  storage(address: Address, slot: Hex): Promise<Hex> {
    return this.chain.getStorageAt(address, slot, this.blockNumber);
  }

  call(to: Address, selector: string, argument = ''): Promise<Hex | null> {
    return this.chain.call(to, `0x${selector}${argument}`, this.blockNumber);
  }

  async hasCode(address: Address): Promise<boolean> {
    const code = await this.code(address);
    return code !== '0x' && code !== '0x0';
  }
}

/**
 * Finds the implementation a proxy delegates to, reading everything at one pinned block.
 *
 * Order (docs/api.md, Proxies): exact bytecode shapes; one batch of well-known storage
 * slots; getters, called only when their selector appears in the code and the code can
 * DELEGATECALL. Each candidate must be a non-zero address word, not the proxy, with code.
 * The first candidate in PROXY_PATTERNS order wins unless `expectedImplementation`
 * names another candidate; the rest are returned as conflicts. Chains of proxies are
 * followed up to `maxHops` hops, stopping at an address already seen.
 *
 * A Safe proxy built with an optimizing compiler may hold no literal `masterCopy()`
 * selector (the comparison constant gets folded), so when nothing else answered and the
 * code can DELEGATECALL, `masterCopy()` is called anyway; its answer counts only when it
 * is the address in slot 0 and an unknown selector is not answered with it too (see
 * foldedSafeCandidate).
 *
 * A Diamond's `implementation` is its first facet with code, as `facetAddresses()` lists
 * them; `facets` has them all. Most Diamonds serve the loupe from a facet, so when nothing
 * else answered and the code can DELEGATECALL, `facetAddresses()` is tried anyway; such a
 * Diamond must then report (`facetAddress(bytes4)`) one of its listed facets as the loupe.
 *
 * Chain read failures propagate as thrown by the ChainReader.
 */
export async function detectProxy(chain: ChainReader, address: Address, options: DetectProxyOptions = {}): Promise<ProxyDetection> {
  const proxy = knownAddress(address);
  const blockNumber = options.blockNumber ?? (await chain.getBlockNumber());
  const maxHops = clampHops(options.maxHops);
  const reads = new PinnedReads(chain, blockNumber);

  if (!(await reads.hasCode(proxy))) return { found: false, blockNumber, reason: 'no_code' };

  const first = await inspect(reads, proxy, true);
  if (first.candidates.length === 0) return { found: false, blockNumber, reason: 'not_a_proxy' };

  let winner = first.candidates[0]!;
  if (options.expectedImplementation !== undefined) {
    const expected = knownAddress(options.expectedImplementation);
    const match = first.candidates.find((c) => c.implementation === expected);
    if (!match) {
      return {
        found: false,
        blockNumber,
        reason: 'expected_implementation_differs',
        expectedImplementation: expected,
        candidates: distinctByAddress(first.candidates),
      };
    }
    winner = match;
  }

  const hops: ProxyHop[] = [{ address: proxy, implementation: winner.implementation, pattern: winner.pattern }];
  const visited = new Set<Address>([proxy, winner.implementation]);
  let chainEnd: ProxyFound['chainEnd'] = 'logic';
  for (;;) {
    const current = hops[hops.length - 1]!.implementation;
    const next = (await inspect(reads, current, false)).candidates[0];
    if (!next) break;
    if (hops.length >= maxHops) {
      chainEnd = 'max_hops';
      break;
    }
    if (visited.has(next.implementation)) {
      chainEnd = 'cycle';
      break;
    }
    visited.add(next.implementation);
    hops.push({ address: current, implementation: next.implementation, pattern: next.pattern });
  }

  const result: ProxyFound = {
    found: true,
    blockNumber,
    implementation: winner.implementation,
    pattern: winner.pattern,
    finalImplementation: hops[hops.length - 1]!.implementation,
    conflicts: conflictsOf(first.candidates, winner),
    chain: hops,
    chainEnd,
  };
  if (winner.beacon) result.beacon = winner.beacon;
  if (winner.facets) result.facets = winner.facets;
  if (winner.eip897ProxyType) result.eip897ProxyType = winner.eip897ProxyType;
  if (winner.isDelegatedAccount) result.isDelegatedAccount = true;
  if (first.admin) result.admin = first.admin;
  return result;
}

function clampHops(maxHops: number | undefined): number {
  if (maxHops === undefined || !Number.isFinite(maxHops)) return DEFAULT_MAX_HOPS;
  return Math.min(MAX_MAX_HOPS, Math.max(1, Math.floor(maxHops)));
}

/** The other candidates that point somewhere else, one per address, best first. */
function conflictsOf(candidates: Candidate[], winner: Candidate): ProxyCandidate[] {
  return distinctByAddress(candidates.filter((c) => c.implementation !== winner.implementation));
}

/** One entry per implementation address, keeping the highest-priority pattern. */
function distinctByAddress(candidates: Candidate[]): ProxyCandidate[] {
  const seen = new Set<Address>();
  const distinct: ProxyCandidate[] = [];
  for (const { pattern, implementation } of candidates) {
    if (seen.has(implementation)) continue;
    seen.add(implementation);
    distinct.push({ pattern, implementation });
  }
  return distinct;
}

/** All valid candidates of one address, in priority order; the admin slot only when asked (display only). */
async function inspect(reads: PinnedReads, self: Address, withAdmin: boolean): Promise<Inspection> {
  const code = await reads.code(self);
  if (code === '0x') return { candidates: [] };

  const shape = matchProxyBytecode(code);
  if (shape) {
    // The code is the whole story: a fixed-target proxy has no slots or getters to consult.
    if (shape.pattern === 'sequence_wallet') {
      const word = await reads.storage(self, `0x${self.slice(2).padStart(64, '0')}`);
      const implementation = await validImplementation(reads, self, addressFromWord(word));
      return { candidates: implementation ? [{ pattern: 'sequence_wallet', implementation }] : [] };
    }
    const implementation = await validImplementation(reads, self, shape.implementation);
    if (!implementation) return { candidates: [] };
    if (shape.pattern === 'eip7702') {
      // The EVM does not follow a delegation to another delegated account.
      if ((await reads.code(implementation)).startsWith('0xef0100')) return { candidates: [] };
      return { candidates: [{ pattern: 'eip7702', implementation, isDelegatedAccount: true }] };
    }
    return { candidates: [{ pattern: shape.pattern, implementation }] };
  }

  const canDelegate = hasDelegateCall(code);
  const has = (selector: string): boolean => canDelegate && codeContainsSelector(code, selector);

  const [slotCandidates, getterCandidates, admin] = await Promise.all([
    storageCandidates(reads, self, code),
    getterCandidatesOf(reads, self, has),
    withAdmin ? reads.storage(self, SLOTS.eip1967Admin).then(addressFromWord) : null,
  ]);
  let candidates = [...slotCandidates, ...getterCandidates];

  // The optimizer can fold the masterCopy() selector out of a Safe proxy's code.
  if (candidates.length === 0 && canDelegate && !codeContainsSelector(code, SELECTORS.masterCopy)) {
    const safe = await foldedSafeCandidate(reads, self);
    if (safe) candidates = [safe];
  }

  // Most Diamonds serve the loupe from a facet, so its selector is not in their own code.
  if (candidates.length === 0 && canDelegate && !codeContainsSelector(code, SELECTORS.facetAddresses)) {
    const diamond = await diamondCandidate(reads, self, true);
    if (diamond) candidates = [diamond];
  }

  candidates.sort((a, b) => PROXY_PATTERNS.indexOf(a.pattern) - PROXY_PATTERNS.indexOf(b.pattern));
  return admin ? { candidates, admin } : { candidates };
}

async function storageCandidates(reads: PinnedReads, self: Address, code: Hex): Promise<Candidate[]> {
  const slotPatterns: [ProxyPattern, Hex][] = [
    ['eip1967', SLOTS.eip1967Implementation],
    ['oz_legacy', SLOTS.ozLegacyImplementation],
    ['eip1822', SLOTS.eip1822Proxiable],
  ];
  // Slot 0 means nothing in general; only a known Safe proxy runtime says it holds the
  // singleton (other Safe proxies must also answer masterCopy() with it: foldedSafeCandidate).
  if (isKnownSafeProxyCode(code)) slotPatterns.push(['safe', SLOTS.zero]);

  const [beacon, ...found] = await Promise.all([
    beaconCandidate(reads, self),
    ...slotPatterns.map(async ([pattern, slot]): Promise<Candidate | null> => {
      const implementation = await validImplementation(reads, self, addressFromWord(await reads.storage(self, slot)));
      return implementation ? { pattern, implementation } : null;
    }),
  ]);
  return [beacon, ...found].filter((c): c is Candidate => c !== null);
}

async function beaconCandidate(reads: PinnedReads, self: Address): Promise<Candidate | null> {
  const beacon = await validImplementation(reads, self, addressFromWord(await reads.storage(self, SLOTS.eip1967Beacon)));
  if (!beacon) return null;
  for (const selector of [SELECTORS.implementation, SELECTORS.childImplementation]) {
    const implementation = addressFromReturnData(await reads.call(beacon, selector));
    if (implementation === beacon) continue;
    const valid = await validImplementation(reads, self, implementation);
    if (valid) return { pattern: 'eip1967_beacon', implementation: valid, beacon };
  }
  return null;
}

async function getterCandidatesOf(reads: PinnedReads, self: Address, has: (selector: string) => boolean): Promise<Candidate[]> {
  const single = async (pattern: ProxyPattern, selector: string): Promise<Candidate | null> => {
    if (!has(selector)) return null;
    const implementation = await validImplementation(reads, self, addressFromReturnData(await reads.call(self, selector)));
    return implementation ? { pattern, implementation } : null;
  };

  const eip897 = async (): Promise<Candidate | null> => {
    const candidate = await single('eip897', SELECTORS.implementation);
    if (!candidate || !has(SELECTORS.proxyType)) return candidate;
    const proxyType = uintFromReturnData(await reads.call(self, SELECTORS.proxyType));
    if (proxyType === 1n || proxyType === 2n) candidate.eip897ProxyType = Number(proxyType) as 1 | 2;
    return candidate;
  };

  const found = await Promise.all([
    single('safe', SELECTORS.masterCopy),
    eip897(),
    single('get_implementation', SELECTORS.getImplementation),
    single('compound_unitroller', SELECTORS.comptrollerImplementation),
    has(SELECTORS.facetAddresses) ? diamondCandidate(reads, self, false) : null,
  ]);
  return found.filter((c): c is Candidate => c !== null);
}

/**
 * A Safe proxy known by behaviour alone: it answers `masterCopy()` itself with the low 20
 * bytes of slot 0 and delegates every other call there. The caller has seen DELEGATECALL
 * in the code and no literal selector, so for a plain contract `masterCopy()` is a call it
 * does not know. Accepted only when all hold at the pinned block:
 * - the answer is exactly one word and passes the candidate rule (top 12 bytes zero, not
 *   zero, not the proxy, has code);
 * - it is the address in the low 20 bytes of slot 0 (masked, as the proxy does);
 * - the unknown-selector probe does not get that address back too. A contract answering
 *   every call with slot 0 is taken as not a Safe proxy: a Safe proxy would have delegated
 *   the probe, and only a singleton echoing the proxy's slot 0 to calls it does not know
 *   would answer it so (Safe's singletons return nothing or revert). That rare logic is
 *   the price of keeping such catch-all contracts out. The probe is a fixed selector, not
 *   a random one, so that one block always gives one verdict.
 * A contract written to imitate all this while delegating elsewhere is not ruled out
 * (calls cannot see where a call goes); the literal-selector path asks even less.
 */
async function foldedSafeCandidate(reads: PinnedReads, self: Address): Promise<Candidate | null> {
  const answer = addressFromSingleWord(await reads.call(self, SELECTORS.masterCopy));
  const implementation = await validImplementation(reads, self, answer);
  if (!implementation) return null;
  const [slotZero, probe] = await Promise.all([reads.storage(self, SLOTS.zero), reads.call(self, SELECTORS.unknownProbe)]);
  if (lowAddressOfWord(slotZero) !== implementation) return null;
  if (probe !== null && probe.length >= 2 + 64 && lowAddressOfWord(probe.slice(0, 66)) === implementation) return null;
  return { pattern: 'safe', implementation };
}

/**
 * An EIP-2535 Diamond: `facetAddresses()` lists facets with code. When the loupe selector
 * is not in the proxy's own code (`loupeInFacet`), the Diamond must also route
 * `facetAddresses()` itself to one of those facets, as `facetAddress(bytes4)` reports.
 */
async function diamondCandidate(reads: PinnedReads, self: Address, loupeInFacet: boolean): Promise<Candidate | null> {
  const listed = addressArrayFromReturnData(await reads.call(self, SELECTORS.facetAddresses));
  if (!listed) return null;
  const unique = [...new Set(listed)].filter((facet) => facet !== self);
  const withCode = await Promise.all(unique.map((facet) => reads.hasCode(facet)));
  const facets = unique.filter((_, i) => withCode[i]);
  if (facets.length === 0) return null;

  if (loupeInFacet) {
    const argument = SELECTORS.facetAddresses.padEnd(64, '0');
    const loupe = addressFromReturnData(await reads.call(self, SELECTORS.facetAddress, argument));
    if (!loupe || !facets.includes(loupe)) return null;
  }
  return { pattern: 'eip2535_diamond', implementation: facets[0]!, facets };
}

/** The candidate rule: an address, not zero, not the proxy itself, with code at the pinned block. */
async function validImplementation(reads: PinnedReads, self: Address, candidate: Address | null): Promise<Address | null> {
  if (candidate === null) return null;
  const address = knownAddress(candidate);
  if (address === self || /^0x0{40}$/.test(address)) return null;
  return (await reads.hasCode(address)) ? address : null;
}
