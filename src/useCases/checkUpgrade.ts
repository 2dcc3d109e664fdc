/**
 * Whether a candidate implementation may replace a proxy's current one: the current
 * implementation is read from the chain now (EIP-1967 slots, the beacon, as proxy detection
 * reads them; never a stored link, which may be stale), both contracts must be verified, and
 * their storage layouts are compared by OpenZeppelin's upgrades-core (verify/upgradeSafety).
 * Also what the upgrade changes of the interface (ABI) and of the sources. With `against`, the
 * candidate is compared with an earlier implementation of the proxy's history (the upgrade events
 * the chain follower recorded) instead; the history comes with every verdict.
 *
 * upgrades-core reads the AST, which no record keeps: each proven input is compiled again in
 * the compiler pool (analysis only: AST and layout; its time and memory limits apply), and its
 * layout kept in memory by compilation, which never changes.
 */

import { readSubmittedVersion, withoutV } from '../core/compilerVersion.js';
import { type ErrorFacts, errorFacts, isSolproofError } from '../core/errors.js';
import { oneAtATime } from '../core/oneAtATime.js';
import { type MissingLayout, missingLayout } from '../core/storageLayout.js';
import type { Address } from '../core/types.js';
import type { VerifiedContract } from '../store/verifiedContracts.js';
import { errorSentence, submittedVersionText, TEXT } from '../texts/index.js';
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
  parseStandardJsonText,
  type SolcInput,
  type SolcOutput,
  type SourceDiff,
  type SourceFile,
  sourceDiff,
  splitQualifiedName,
  type UpgradeLayout,
  upgradeLayout,
} from '../verify/index.js';
import { type ProxyImplementation, readProxyHistory } from './proxyHistory.js';
import { publishedFiles, publishedInput } from './published.js';
import { readContract } from './readContract.js';
import type { Services } from './services.js';

/** Which of the two contracts a refusal is about: the current implementation, an earlier one (`against`), or the candidate. */
export type UpgradeSide = 'current' | 'earlier' | 'candidate';

/** Why an upgrade check gives no verdict. */
export type UpgradeCheckRefusal =
  | { code: 'no_code'; address: Address }
  | { code: 'not_a_proxy'; address: Address }
  /** A proxy whose implementation cannot be replaced (a minimal clone), or has many (a Diamond), or an EIP-7702 account. */
  | { code: 'not_upgradeable'; address: Address; pattern: ProxyPattern }
  /** `against` is not an implementation the proxy had (as far as the recorded upgrade events tell). */
  | { code: 'not_in_history'; proxy: Address; address: Address }
  | { code: 'not_verified'; side: UpgradeSide; address: Address }
  /** A contract with no storage layout to compare: Vyper, not Solidity, or solc before 0.5.13. */
  | { code: 'no_layout'; side: UpgradeSide; address: Address | null; missing: MissingLayout }
  /** Compiling the proven input again failed: solc's errors (first ones) as it gave them. */
  | { code: 'compile_errors'; side: UpgradeSide; address: Address | null; errors: string[] }
  /** The compiler pool refused or failed (limits, download, crash). */
  | { code: 'compile_failed'; side: UpgradeSide; address: Address | null; error: ErrorFacts }
  /** upgrades-core could not read the contract's layout: its own message. */
  | { code: 'layout_unreadable'; side: UpgradeSide; address: Address | null; reason: string };

/** A contract of the check, as the answer names it. */
export interface CheckedContract {
  /** Null for a candidate compiled here and not published. */
  address: Address | null;
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
  /** The implementation compared with: the current one, or `against`. */
  currentImplementation: CheckedContract;
  /** The earlier implementation compared with when one was asked for; null for the current one. */
  against: Address | null;
  /** The proxy's implementations, oldest first. */
  history: ProxyImplementation[];
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

/**
 * A candidate compiled here and not published: a standard JSON input, the contract in it
 * (`path:Name`) and the solc version (read as a submission's is). Needs an API key at the door.
 */
export interface UnpublishedCandidate {
  input: SolcInput;
  sourcePath: string;
  contractName: string;
  /** `v0.8.28+commit.7893614a`. */
  compilerVersion: string;
}

/**
 * Reads an unpublished candidate from the API's fields (`sourceCode`: a standard JSON input,
 * wrapped or not; `contractname`: `path:Name`; `compilerversion`), refusing in Etherscan's words.
 */
export function readUnpublishedCandidate(
  s: Pick<Services, 'releases'>,
  fields: { sourceCode: string; contractName: string; compilerVersion: string },
): { ok: true; candidate: UnpublishedCandidate } | { ok: false; text: string } {
  if (!fields.contractName) return { ok: false, text: TEXT.missingParameter('contractname') };
  const { path, name } = splitQualifiedName(fields.contractName);
  if (path === null || !name) return { ok: false, text: TEXT.invalidParameter('contractname', 'name the contract as path:Name, e.g. contracts/Box.sol:BoxV2') };
  if (!fields.compilerVersion) return { ok: false, text: TEXT.missingParameter('compilerversion') };
  const version = readSubmittedVersion(fields.compilerVersion, s.releases);
  if (!version.ok) return { ok: false, text: submittedVersionText(version.error) };
  let input: SolcInput;
  try {
    input = parseStandardJsonText(fields.sourceCode);
  } catch (e) {
    if (isSolproofError(e)) return { ok: false, text: errorSentence(e) };
    throw e;
  }
  if (!input.sources[path]) return { ok: false, text: TEXT.invalidParameter('contractname', `the input has no source ${JSON.stringify(path.slice(0, 200))}`) };
  return { ok: true, candidate: { input, sourcePath: path, contractName: name, compilerVersion: version.value.long } };
}

/** What the check needs of a candidate, verified or compiled here. */
interface CandidateFacts {
  named: CheckedContract;
  abi: string | unknown[];
  files: SourceFile[];
  layout: LayoutRead;
}

/**
 * Checks whether `candidate` (a verified contract's address, or an input compiled here) may
 * replace the implementation the proxy at `proxy` delegates to now.
 */
export async function checkUpgrade(
  s: Pick<Services, 'store' | 'records' | 'copies' | 'chain' | 'compiler'>,
  proxy: Address,
  candidate: Address | UnpublishedCandidate,
  against?: Address,
): Promise<UpgradeCheckAnswer> {
  const refuse = (refusal: UpgradeCheckRefusal): UpgradeCheckAnswer => ({ ok: false, refusal });
  const detection = await detectProxy(s.chain, proxy);
  if (!detection.found) return refuse(detection.reason === 'no_code' ? { code: 'no_code', address: proxy } : { code: 'not_a_proxy', address: proxy });
  if (!isUpgradeableProxy(detection.pattern)) return refuse({ code: 'not_upgradeable', address: proxy, pattern: detection.pattern });
  const history = await readProxyHistory(s, proxy, detection.beacon ?? null);
  const earlier = against !== undefined && against.toLowerCase() !== detection.implementation.toLowerCase() ? (against.toLowerCase() as Address) : null;
  if (earlier && !history.some((h) => h.implementation === earlier)) return refuse({ code: 'not_in_history', proxy, address: earlier });
  const currentAddress = earlier ?? detection.implementation;
  const currentSide: UpgradeSide = earlier ? 'earlier' : 'current';

  const current = await readContract(s, currentAddress);
  if (!current) return refuse({ code: 'not_verified', side: currentSide, address: currentAddress });
  let verified: VerifiedContract | null = null;
  if (typeof candidate === 'string') {
    verified = await readContract(s, candidate);
    if (!verified) {
      const hasCode = (await s.chain.getCode(candidate)) !== '0x';
      return refuse(hasCode ? { code: 'not_verified', side: 'candidate', address: candidate } : { code: 'no_code', address: candidate });
    }
  }
  const currentLayout = await layoutOf(s, current, currentSide);
  if ('refusal' in currentLayout) return refuse(currentLayout.refusal);
  const next: CandidateFacts = verified
    ? { named: named(verified), abi: verified.abi, files: publishedFiles(verified), layout: await layoutOf(s, verified, 'candidate') }
    : await unpublishedFacts(s, candidate as UnpublishedCandidate);
  if ('refusal' in next.layout) return refuse(next.layout.refusal);

  const { compatible, incompatibilities } = await compareUpgradeLayouts(currentLayout.layout, next.layout.layout);
  return {
    ok: true,
    check: {
      proxy,
      pattern: detection.pattern,
      beacon: detection.beacon ?? null,
      blockNumber: detection.blockNumber,
      currentImplementation: named(current),
      against: earlier,
      history,
      candidate: next.named,
      compatible,
      incompatibilities,
      namespaces: Object.keys(currentLayout.layout.namespaces ?? {}),
      abiDiff: abiDiff(current.abi, next.abi),
      sourceDiff: sourceDiff(publishedFiles(current), next.files),
    },
  };
}

function named(c: VerifiedContract): CheckedContract {
  return { address: c.address, contractName: c.contractName, fullyQualifiedName: `${c.sourcePath}:${c.contractName}`, compilerVersion: c.compilerVersion };
}

/** An unpublished candidate's facts: its layout and ABI from one compile (analysis only), its sources as given. */
async function unpublishedFacts(s: Pick<Services, 'compiler'>, c: UnpublishedCandidate): Promise<CandidateFacts> {
  const facts = {
    named: { address: null, contractName: c.contractName, fullyQualifiedName: `${c.sourcePath}:${c.contractName}`, compilerVersion: c.compilerVersion },
    files: Object.entries(c.input.sources).flatMap(([path, source]) => (source.content === undefined ? [] : [{ path, content: source.content }])),
  };
  const missing = missingLayout('storageLayout', c.input.language, c.compilerVersion);
  if (missing.reason !== 'not_kept') return { ...facts, abi: [], layout: { refusal: { code: 'no_layout', side: 'candidate', address: null, missing } } };
  const read = await readLayout(s, { ...c, address: null }, 'candidate');
  return { ...facts, abi: 'layout' in read ? read.abi : [], layout: read };
}

type LayoutRead = { layout: UpgradeLayout; abi: unknown[] } | { refusal: UpgradeCheckRefusal };

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
  const compiled = { input: publishedInput(contract) as SolcInput, ...contract };
  // A refusal names its side and address: kept layouts only.
  if (cached) return cached.then((read) => ('layout' in read ? read : readLayout(s, compiled, side)));
  const reading = readLayout(s, compiled, side);
  kept.set(contract.compiledContractId, reading);
  if (kept.size > KEPT_LAYOUTS) kept.delete(kept.keys().next().value!);
  void reading.then((read) => {
    if ('refusal' in read) kept.delete(contract.compiledContractId);
  });
  return reading;
}

/** What is compiled for a layout: an input, its contract, its compiler, and the address it is known by (none for an unpublished one). */
interface LayoutSubject {
  input: SolcInput;
  sourcePath: string;
  contractName: string;
  compilerVersion: string;
  address: Address | null;
}

/**
 * The compiles of upgrade checks run one at a time in a process: a check never takes more than
 * one of the compiler pool's slots from verifications, however many are asked at once.
 */
const inTurn = oneAtATime();

function readLayout(s: Pick<Services, 'compiler'>, subject: LayoutSubject, side: UpgradeSide): Promise<LayoutRead> {
  return inTurn('upgrade-check', () => compileLayout(s, subject, side));
}

async function compileLayout(s: Pick<Services, 'compiler'>, subject: LayoutSubject, side: UpgradeSide): Promise<LayoutRead> {
  const version = withoutV(subject.compilerVersion);
  const input = layoutInput(subject.input, ['abi']);
  const address = subject.address;
  const refusal = (r: UpgradeCheckRefusal): LayoutRead => ({ refusal: r });
  try {
    const output = await s.compiler.compile(version, input);
    const errors = compileErrors(output);
    if (errors.length) return refusal({ code: 'compile_errors', side, address, errors: errors.slice(0, 5) });
    let namespaced: Awaited<ReturnType<typeof s.compiler.compile>> | undefined;
    if (declaresNamespaces(version, input)) {
      const out = await s.compiler.compile(version, await namespacedInput(version, input, output));
      // As OpenZeppelin's plugins do when this extra compile fails: namespaces are then read from the AST alone.
      if (compileErrors(out).length === 0) namespaced = out;
    }
    const layout = await upgradeLayout(version, input, output, namespaced, subject.sourcePath, subject.contractName);
    return { layout, abi: contractAbi(output, subject.sourcePath, subject.contractName) };
  } catch (e) {
    if (isSolproofError(e)) return refusal({ code: 'compile_failed', side, address, error: errorFacts(e) });
    return refusal({ code: 'layout_unreadable', side, address, reason: e instanceof Error ? e.message : String(e) });
  }
}

/** The ABI solc gave `sourcePath:contractName` (a single file's record may name no source unit). */
function contractAbi(output: SolcOutput, sourcePath: string, contractName: string): unknown[] {
  const exact = output.contracts?.[sourcePath]?.[contractName];
  const found = exact ?? Object.values(output.contracts ?? {}).find((file) => file[contractName])?.[contractName];
  return found?.abi ?? [];
}
