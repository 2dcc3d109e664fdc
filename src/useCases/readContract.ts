/**
 * Reading a verified contract, the same at every door: the record check first (a record of
 * code the address no longer holds is taken off before anything is read), then the store,
 * and for an address with no record a copy of a verified contract verified on the way.
 * Answers kept in memory are looked up after the check and kept under the store's version
 * read before the answer was built, so a changed record is never served from memory.
 */
import type { CreationFacts } from '../bytecodeDatabase/contractCreations.js';
import { type LayoutKind, type MissingLayout, missingLayout, type StorageLayout } from '../core/storageLayout.js';
import type { Address, Hex } from '../core/types.js';
import { compiledContractLayouts, loadCompiledContract, type StoredCompiledContract } from '../store/compilations.js';
import { getProxyRecord, type ProxyRecord } from '../store/proxyRecords.js';
import { type JobStatus, listJobStatusesForAddress } from '../store/verificationJobs.js';
import {
  getStoredVerdict,
  getVerifiedAbi,
  getVerifiedContract,
  listReplacedVerifications,
  type ReplacedVerification,
  type StoredVerdict,
  type VerifiedContract,
} from '../store/verifiedContracts.js';
import type { KeptAnswer } from './keptAnswers.js';
import type { Services } from './services.js';

type ReadServices = Pick<Services, 'store' | 'records' | 'copies'>;

/** The verified contract at `address`, or null: the record checked, a copy verified on the way. */
export async function readContract(s: ReadServices, address: Address): Promise<VerifiedContract | null> {
  await s.records.check(address);
  return orCopy(s, address, () => getVerifiedContract(s.store.db, address));
}

/** What `read` finds at `address`, or, when nothing, what it finds once a copy of a verified contract was verified there. */
async function orCopy<T>(s: Pick<Services, 'copies'>, address: Address, read: () => Promise<T | null>): Promise<T | null> {
  const found = await read();
  if (found !== null) return found;
  return (await s.copies.tryVerify(address)) ? read() : null;
}

/**
 * A door's answer built from a verified contract's ABI, kept in memory under `key`: the
 * serialised answer, or null when the address is not verified (that answer is the door's, never kept).
 */
export function abiAnswer(s: Services, address: Address, key: string, answer: (abi: string) => unknown): Promise<KeptAnswer | null> {
  return keptRead(s, address, key, () => getVerifiedAbi(s.store.db, address), answer);
}

/** A door's answer built from a verified contract and its proxy link, kept in memory under `key`, as abiAnswer. */
export function contractAnswer(
  s: Services,
  address: Address,
  key: string,
  answer: (contract: VerifiedContract, proxy: ProxyRecord | null) => unknown,
): Promise<KeptAnswer | null> {
  return keptRead(
    s,
    address,
    key,
    () => getVerifiedContract(s.store.db, address),
    async (contract) => answer(contract, await getProxyRecord(s.store.db, address)),
  );
}

async function keptRead<T>(
  s: Services,
  address: Address,
  key: string,
  read: () => Promise<T | null>,
  answer: (found: T) => unknown | Promise<unknown>,
): Promise<KeptAnswer | null> {
  await s.records.check(address);
  const kept = s.answers.get(key);
  if (kept) return kept;
  // Read before the store is: an answer built from what changed meanwhile is not kept.
  const version = s.answers.version();
  const found = await orCopy(s, address, read);
  if (found === null) return null;
  return s.answers.keep(key, version, await answer(found));
}

/** What a contract page shows of an address. */
export interface ContractPageRead {
  contract: VerifiedContract | null;
  proxy: ProxyRecord | null;
  /** The proxy's (last hop's) implementation, when it is verified. */
  implementation: VerifiedContract | null;
  history: ReplacedVerification[];
  /** The latest verification attempts at the address, newest first. */
  receipts: JobStatus[];
  /** For an unverified address: whether it holds code (null when the node could not be asked). */
  hasCode: boolean | null;
  /** The verified contract's compiled code. */
  compiledCode: { creation: string; runtime: string } | null;
  /** The verified contract's storage layouts. */
  layouts: ContractLayouts | null;
}

/** Everything a contract page shows of `address`, read as every door reads a record. */
export async function readContractPage(s: Services, address: Address, recentReceipts: number): Promise<ContractPageRead> {
  const contract = await readContract(s, address);
  const [proxy, history, receipts] = await Promise.all([
    getProxyRecord(s.store.db, address),
    listReplacedVerifications(s.store.db, address),
    listJobStatusesForAddress(s.store.db, address, recentReceipts),
  ]);
  const implementation = proxy ? await readContract(s, proxy.finalImplementation) : null;
  let hasCode: boolean | null = true;
  if (!contract) {
    try {
      hasCode = (await s.chain.getCode(address)) !== '0x';
    } catch {
      hasCode = null;
    }
  }
  const compiled = contract ? await loadCompiledContract(s.store.db, contract.compiledContractId) : null;
  const compiledCode = compiled ? { creation: compiled.compiled.creation.code, runtime: compiled.compiled.runtime.code } : null;
  const layouts = contract ? await readStorageLayouts(s, contract) : null;
  return { contract, proxy, implementation, history, receipts, hasCode, compiledCode, layouts };
}

/** Why a contract cannot be called through its page: not verified, no proxy recorded, or an implementation not verified. */
export type CallRefusal = { code: 'not_verified' } | { code: 'no_proxy' } | { code: 'implementation_not_verified'; implementation: Address };

/** The ABI a contract page calls `address` with: its own, or with `asProxy` its implementation's. */
export async function abiForCalls(
  s: ReadServices,
  address: Address,
  asProxy: boolean,
): Promise<{ ok: true; abi: string } | { ok: false; refusal: CallRefusal }> {
  if (asProxy) {
    const proxy = await getProxyRecord(s.store.db, address);
    if (!proxy) return { ok: false, refusal: { code: 'no_proxy' } };
    const implementation = await readContract(s, proxy.finalImplementation);
    if (!implementation) return { ok: false, refusal: { code: 'implementation_not_verified', implementation: proxy.finalImplementation } };
    return { ok: true, abi: implementation.abi };
  }
  const contract = await readContract(s, address);
  return contract ? { ok: true, abi: contract.abi } : { ok: false, refusal: { code: 'not_verified' } };
}

/** The proxy link verifyproxycontract last found for `address`, or null. */
export function readProxy(s: Pick<Services, 'store'>, address: Address): Promise<ProxyRecord | null> {
  return getProxyRecord(s.store.db, address);
}

/** A verified contract's compiled code, as the bytecode database keeps it. */
export function readCompiledCode(s: Pick<Services, 'store'>, contract: VerifiedContract): Promise<StoredCompiledContract | null> {
  return loadCompiledContract(s.store.db, contract.compiledContractId);
}

/** A verified contract's storage layout of one kind: solc's, or why there is none. */
export type ContractLayout = { layout: StorageLayout; missing: null } | { layout: null; missing: MissingLayout };

/** A verified contract's storage layouts, as kept with its compilation. */
export type ContractLayouts = Record<LayoutKind, ContractLayout>;

/**
 * The storage layouts kept with a verified contract's compilation, each with why it is missing
 * when it is: a record verified before layouts were kept has none (its compilation is reused,
 * never compiled again; compiling it on a read would cost a compile per first read).
 */
export async function readStorageLayouts(s: Pick<Services, 'store'>, contract: VerifiedContract): Promise<ContractLayouts> {
  const kept = await compiledContractLayouts(s.store.db, contract.compiledContractId);
  const one = (kind: LayoutKind): ContractLayout => {
    const layout = kept?.[kind] ?? null;
    return layout ? { layout, missing: null } : { layout: null, missing: missingLayout(kind, contract.language, contract.compilerVersion) };
  };
  return { storageLayout: one('storageLayout'), transientStorageLayout: one('transientStorageLayout') };
}

/** Where a verified contract was created and the code it holds now (null: none, or the node could not tell). */
export async function readDeployment(
  s: Pick<Services, 'creations' | 'chain'>,
  address: Address,
): Promise<{ creation: CreationFacts | null; runtimeCode: Hex | null }> {
  const [creation, code] = await Promise.all([s.creations.creationOf(address).catch(() => null), s.chain.getCode(address)]);
  return { creation, runtimeCode: code === '0x' ? null : code };
}

/** The verdict stored for `address` once its record is checked (no copy is looked for), or null. */
export async function readVerdict(s: Pick<Services, 'store' | 'records'>, address: Address): Promise<StoredVerdict | null> {
  await s.records.check(address);
  return getStoredVerdict(s.store.db, address);
}
