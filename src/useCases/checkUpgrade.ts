/**
 * Whether a candidate implementation may replace a proxy's current one: the current
 * implementation is read from the chain now (EIP-1967 slots, the beacon, as proxy detection
 * reads them; never a stored link, which may be stale), both contracts must be verified, and
 * their storage layouts are compared by OpenZeppelin's upgrades-core (verify/upgradeSafety).
 * Also what the upgrade changes of the interface (ABI) and of the sources.
 *
 * upgrades-core reads the AST, which no record keeps: each proven input is compiled again in
 * the compiler pool (analysis only: AST and layout; its time and memory limits apply), and its
 * layout kept in memory by compilation, which never changes.
 */

import { withoutV } from '../core/compilerVersion.js';
import { type ErrorFacts, errorFacts, isSolproofError } from '../core/errors.js';
import { type MissingLayout, missingLayout } from '../core/storageLayout.js';
import type { Address } from '../core/types.js';
import type { VerifiedContract } from '../store/verifiedContracts.js';
import {
  type AbiDiff,
  abiDiff,
  compareUpgradeLayouts,
  compileErrors,
  declaresNamespaces,
  detectProxy,
  type LayoutIncompatibility,
  layoutInput,
  namespacedInput,
  type ProxyPattern,
  type SolcInput,
  type SourceDiff,
  sourceDiff,
  type UpgradeLayout,
  upgradeLayout,
} from '../verify/index.js';
import { publishedFiles, publishedInput } from './published.js';
import { readContract } from './readContract.js';
import type { Services } from './services.js';

/** Which of the two contracts a refusal is about. */
export type UpgradeSide = 'current' | 'candidate';

/** Why an upgrade check gives no verdict. */
export type UpgradeCheckRefusal =
  | { code: 'no_code'; address: Address }
  | { code: 'not_a_proxy'; address: Address }
  /** A proxy whose implementation cannot be replaced (a minimal clone), or has many (a Diamond), or an EIP-7702 account. */
  | { code: 'not_upgradeable'; address: Address; pattern: ProxyPattern }
  | { code: 'not_verified'; side: UpgradeSide; address: Address }
  /** A contract with no storage layout to compare: Vyper, not Solidity, or solc before 0.5.13. */
  | { code: 'no_layout'; side: UpgradeSide; address: Address; missing: MissingLayout }
  /** Compiling the proven input again failed: solc's errors (first ones) as it gave them. */
  | { code: 'compile_errors'; side: UpgradeSide; address: Address; errors: string[] }
  /** The compiler pool refused or failed (limits, download, crash). */
  | { code: 'compile_failed'; side: UpgradeSide; address: Address; error: ErrorFacts }
  /** upgrades-core could not read the contract's layout: its own message. */
  | { code: 'layout_unreadable'; side: UpgradeSide; address: Address; reason: string };

/** A contract of the check, as the answer names it. */
export interface CheckedContract {
  address: Address;
  contractName: string;
  /** `path:Name`. */
  fullyQualifiedName: string;
  compilerVersion: string;
}

/** The verdict of an upgrade check. */
export interface UpgradeCheck {
  proxy: Address;
  pattern: ProxyPattern;
  /** A beacon proxy's beacon, whose implementation an upgrade replaces. */
  beacon: Address | null;
  /** The block the implementation was read at. */
  blockNumber: bigint;
  currentImplementation: CheckedContract;
  candidate: CheckedContract;
  /** Whether upgrades-core finds the candidate's storage layout compatible with the current one's. */
  compatible: boolean;
  incompatibilities: LayoutIncompatibility[];
  /** ERC-7201 namespaces compared (`erc7201:…`): those of the current implementation. */
  namespaces: string[];
  abiDiff: AbiDiff;
  sourceDiff: SourceDiff;
}

export type UpgradeCheckAnswer = { ok: true; check: UpgradeCheck } | { ok: false; refusal: UpgradeCheckRefusal };

/** Proxies whose one implementation an upgrade replaces are checked; these are not. */
const NOT_UPGRADEABLE: ReadonlySet<ProxyPattern> = new Set([
  'eip1167',
  'clone44',
  'push0_clone',
  'vyper_forwarder',
  'sequence_wallet',
  'eip2535_diamond',
  'eip7702',
]);

/** Whether an upgrade replaces the implementation of a proxy of `pattern` (whose page links to the check). */
export function isUpgradeableProxy(pattern: ProxyPattern): boolean {
  return !NOT_UPGRADEABLE.has(pattern);
}

/** Checks whether `candidate` may replace the implementation the proxy at `proxy` delegates to now. */
export async function checkUpgrade(
  s: Pick<Services, 'store' | 'records' | 'copies' | 'chain' | 'compiler'>,
  proxy: Address,
  candidate: Address,
): Promise<UpgradeCheckAnswer> {
  const refuse = (refusal: UpgradeCheckRefusal): UpgradeCheckAnswer => ({ ok: false, refusal });
  const detection = await detectProxy(s.chain, proxy);
  if (!detection.found) return refuse(detection.reason === 'no_code' ? { code: 'no_code', address: proxy } : { code: 'not_a_proxy', address: proxy });
  if (!isUpgradeableProxy(detection.pattern)) return refuse({ code: 'not_upgradeable', address: proxy, pattern: detection.pattern });
  const currentAddress = detection.implementation;

  const [current, next] = await Promise.all([readContract(s, currentAddress), readContract(s, candidate)]);
  if (!current) return refuse({ code: 'not_verified', side: 'current', address: currentAddress });
  if (!next) {
    const hasCode = (await s.chain.getCode(candidate)) !== '0x';
    return refuse(hasCode ? { code: 'not_verified', side: 'candidate', address: candidate } : { code: 'no_code', address: candidate });
  }
  const currentLayout = await layoutOf(s, current, 'current');
  if ('refusal' in currentLayout) return refuse(currentLayout.refusal);
  const candidateLayout = await layoutOf(s, next, 'candidate');
  if ('refusal' in candidateLayout) return refuse(candidateLayout.refusal);

  const { compatible, incompatibilities } = await compareUpgradeLayouts(currentLayout.layout, candidateLayout.layout);
  return {
    ok: true,
    check: {
      proxy,
      pattern: detection.pattern,
      beacon: detection.beacon ?? null,
      blockNumber: detection.blockNumber,
      currentImplementation: named(current),
      candidate: named(next),
      compatible,
      incompatibilities,
      namespaces: Object.keys(currentLayout.layout.namespaces ?? {}),
      abiDiff: abiDiff(current.abi, next.abi),
      sourceDiff: sourceDiff(publishedFiles(current), publishedFiles(next)),
    },
  };
}

function named(c: VerifiedContract): CheckedContract {
  return { address: c.address, contractName: c.contractName, fullyQualifiedName: `${c.sourcePath}:${c.contractName}`, compilerVersion: c.compilerVersion };
}

type LayoutRead = { layout: UpgradeLayout } | { refusal: UpgradeCheckRefusal };

/** Layouts read, by store and compiled contract: a compilation never changes, so neither does its layout. */
const readLayouts = new WeakMap<object, Map<string, Promise<LayoutRead>>>();
/** Layouts kept per store: each costs one or two compiles, and weighs what its types weigh. */
const KEPT_LAYOUTS = 64;

/** The layout upgrades-core reads of a verified contract, compiled again once per compilation. */
function layoutOf(s: Pick<Services, 'store' | 'compiler'>, contract: VerifiedContract, side: UpgradeSide): Promise<LayoutRead> {
  const missing = missingLayout('storageLayout', contract.language, contract.compilerVersion);
  if (missing.reason !== 'not_kept') return Promise.resolve({ refusal: { code: 'no_layout', side, address: contract.address, missing } });
  let kept = readLayouts.get(s.store);
  if (!kept) readLayouts.set(s.store, (kept = new Map()));
  const cached = kept.get(contract.compiledContractId);
  // A refusal names its side and address: kept layouts only.
  if (cached) return cached.then((read) => ('layout' in read ? read : readLayout(s, contract, side)));
  const reading = readLayout(s, contract, side);
  kept.set(contract.compiledContractId, reading);
  if (kept.size > KEPT_LAYOUTS) kept.delete(kept.keys().next().value!);
  void reading.then((read) => {
    if ('refusal' in read) kept.delete(contract.compiledContractId);
  });
  return reading;
}

async function readLayout(s: Pick<Services, 'compiler'>, contract: VerifiedContract, side: UpgradeSide): Promise<LayoutRead> {
  const version = withoutV(contract.compilerVersion);
  const input = layoutInput(publishedInput(contract) as SolcInput);
  const refusal = (r: UpgradeCheckRefusal): LayoutRead => ({ refusal: r });
  try {
    const output = await s.compiler.compile(version, input);
    const errors = compileErrors(output);
    if (errors.length) return refusal({ code: 'compile_errors', side, address: contract.address, errors: errors.slice(0, 5) });
    let namespaced: Awaited<ReturnType<typeof s.compiler.compile>> | undefined;
    if (declaresNamespaces(version, input)) {
      const out = await s.compiler.compile(version, await namespacedInput(version, input, output));
      // As OpenZeppelin's plugins do when this extra compile fails: namespaces are then read from the AST alone.
      if (compileErrors(out).length === 0) namespaced = out;
    }
    return { layout: await upgradeLayout(version, input, output, namespaced, contract.sourcePath, contract.contractName) };
  } catch (e) {
    if (isSolproofError(e)) return refusal({ code: 'compile_failed', side, address: contract.address, error: errorFacts(e) });
    return refusal({ code: 'layout_unreadable', side, address: contract.address, reason: e instanceof Error ? e.message : String(e) });
  }
}
