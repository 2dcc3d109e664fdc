/**
 * `GET /v2/contract/{chainId}/{address}`: a verified contract as Sourcify serves one, read from
 * the same record `/api`'s getsourcecode reads (whichever API verified it, a similar match
 * included). 404 with null matches for an address that is not verified. `fields` picks what
 * to add to the minimal object (`all` for everything, `part.sub` for one sub-field); `omit`
 * gives everything but what it names.
 */
import { withoutV } from '../core/compilerVersion.js';
import { keccakOfText } from '../core/keccak.js';
import { parseVyperVersion } from '../core/vyperVersion.js';
import { SOURCIFY_TEXT } from '../texts/index.js';
import {
  publishedInput,
  readCompiledCode,
  readContract,
  readDeployment,
  readProxy,
  readStorageLayouts,
  type Services,
  type VerifiedContract,
} from '../useCases/index.js';
import { type Answer, checksummed, errorAnswer, matched, unmatched } from './answers.js';
import { checkTarget, isAnswer } from './checkTarget.js';

/** Every field `fields`/`omit` may name, with the sub-fields of the nested ones. */
const FIELDS: Record<string, readonly string[]> = {
  creationBytecode: ['onchainBytecode', 'recompiledBytecode', 'sourceMap', 'linkReferences', 'cborAuxdata', 'transformations', 'transformationValues'],
  runtimeBytecode: [
    'onchainBytecode',
    'recompiledBytecode',
    'sourceMap',
    'linkReferences',
    'cborAuxdata',
    'immutableReferences',
    'transformations',
    'transformationValues',
  ],
  deployment: ['transactionHash', 'blockNumber', 'transactionIndex', 'deployer'],
  compilation: ['language', 'compiler', 'compilerVersion', 'compilerSettings', 'name', 'fullyQualifiedName'],
  signatures: ['function', 'event', 'error'],
  sources: [],
  abi: [],
  metadata: [],
  stdJsonInput: [],
  stdJsonOutput: [],
  storageLayout: [],
  transientStorageLayout: [],
  userdoc: [],
  devdoc: [],
  sourceIds: [],
  additionalInput: [],
  proxyResolution: [],
};
const MINIMAL = ['match', 'creationMatch', 'runtimeMatch', 'chainId', 'address', 'verifiedAt', 'matchId'];

/** The selection asked for: field → null for the whole field, or the set of its sub-fields. */
type Selection = Map<string, Set<string> | null>;

/** Reads `fields`/`omit` into a selection, or names the field that is none. */
export function readSelection(fields: string | undefined, omit: string | undefined): Selection | string {
  if (fields !== undefined && omit !== undefined) return 'fields and omit cannot be used together';
  const selection: Selection = new Map();
  const names = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const known = (name: string): string | null => {
    const [field, sub, extra] = name.split('.');
    if (MINIMAL.includes(name)) return null;
    if (!field || !(field in FIELDS) || extra !== undefined) return name;
    if (sub !== undefined && !FIELDS[field]!.includes(sub)) return name;
    return null;
  };
  if (fields !== undefined) {
    for (const name of names(fields)) {
      if (name === 'all') {
        for (const field of Object.keys(FIELDS)) selection.set(field, null);
        continue;
      }
      const wrong = known(name);
      if (wrong !== null) return `unknown field "${wrong.slice(0, 64)}"`;
      if (MINIMAL.includes(name)) continue;
      const [field, sub] = name.split('.') as [string, string | undefined];
      if (sub === undefined) selection.set(field, null);
      else if (selection.get(field) !== null) selection.set(field, new Set([...(selection.get(field) ?? []), sub]));
    }
    return selection;
  }
  for (const field of Object.keys(FIELDS)) selection.set(field, null);
  if (omit !== undefined) {
    for (const name of names(omit)) {
      const wrong = known(name);
      if (wrong !== null || MINIMAL.includes(name)) return `unknown or required field "${name.slice(0, 64)}"`;
      const [field, sub] = name.split('.') as [string, string | undefined];
      if (sub === undefined) selection.delete(field);
      else {
        const current = selection.get(field);
        const subs = new Set(current ?? FIELDS[field]);
        subs.delete(sub);
        selection.set(field, subs);
      }
    }
    return selection;
  }
  // Neither: the minimal object alone.
  return new Map();
}

export async function getContract(
  s: Services,
  params: { chainId?: string | undefined; address?: string | undefined },
  query: Record<string, unknown>,
): Promise<Answer> {
  const target = checkTarget(s.chainId, params);
  if (isAnswer(target)) return target;
  const { address } = target;
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const selection = readSelection(text('fields'), text('omit'));
  if (typeof selection === 'string') return errorAnswer(400, 'invalid_parameter', SOURCIFY_TEXT.invalidField('fields', selection));

  const contract = await readContract(s, address);
  if (!contract) return { status: 404, body: unmatched(s.chainId, address) };

  const body: Record<string, unknown> = { ...matched(s.chainId, contract) };
  const parts = await contractParts(s, contract, selection);
  for (const [field, subs] of selection) {
    const value = parts[field];
    if (value === undefined) continue;
    body[field] = subs === null || value === null || typeof value !== 'object' ? value : pick(value as Record<string, unknown>, subs);
  }
  return { status: 200, body };
}

function pick(value: Record<string, unknown>, keys: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => keys.has(k)));
}

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
};

/** Every field asked for, built from the record, its compilation and its deployment. */
async function contractParts(s: Services, contract: VerifiedContract, selection: Selection): Promise<Record<string, unknown>> {
  const parts: Record<string, unknown> = {};
  const abi = (parseJson(contract.abi) as unknown[] | null) ?? [];
  const metadata = parseJson(contract.metadata) as { output?: { userdoc?: unknown; devdoc?: unknown } } | null;
  const vyper = contract.language === 'Vyper';
  // Sourcify's long version without the v, a Vyper one too (`0.4.3+commit.bff19ea2`, kept as `vyper:0.4.3+commit.bff19ea2`).
  const longVersion = vyper ? (parseVyperVersion(contract.compilerVersion)?.long ?? contract.compilerVersion) : withoutV(contract.compilerVersion);
  parts.abi = abi;
  parts.metadata = metadata;
  parts.userdoc = metadata?.output?.userdoc ?? null;
  parts.devdoc = metadata?.output?.devdoc ?? null;
  if (selection.has('storageLayout') || selection.has('transientStorageLayout')) {
    // As solc gave them; null as Sourcify answers it when there is none (Vyper, solc before
    // 0.5.13 or, for the transient one, 0.8.27, a record verified before layouts were kept).
    const layouts = await readStorageLayouts(s, contract);
    parts.storageLayout = layouts.storageLayout.layout;
    parts.transientStorageLayout = layouts.transientStorageLayout.layout;
  }
  // Not kept by the service: the compiled input asks solc only for what matching needs.
  parts.sourceIds = null;
  parts.stdJsonOutput = null;
  parts.additionalInput = null;
  const published = publishedInput(contract);
  parts.sources = published.sources;
  parts.compilation = {
    language: contract.language,
    compiler: vyper ? 'vyper' : 'solc',
    compilerVersion: longVersion,
    compilerSettings: contract.settings,
    name: contract.contractName,
    fullyQualifiedName: `${contract.sourcePath}:${contract.contractName}`,
  };
  parts.stdJsonInput = published;
  parts.signatures = signaturesOf(abi);
  if (selection.has('proxyResolution')) {
    const proxy = await readProxy(s, contract.address);
    parts.proxyResolution = proxy
      ? { isProxy: true, proxyType: proxy.pattern, implementations: [{ address: checksummed(proxy.implementation) }] }
      : { isProxy: false, proxyType: null, implementations: [] };
  }
  if (selection.has('deployment') || selection.has('creationBytecode') || selection.has('runtimeBytecode')) {
    // The creation is found once and kept (getcontractcreation reads the same); the record check proved the code at the address is the record's.
    const { creation, runtimeCode } = await readDeployment(s, contract.address);
    parts.deployment = {
      transactionHash: creation?.transactionHash ?? contract.deployment?.transactionHash ?? null,
      blockNumber: creation ? String(creation.blockNumber) : contract.deployment?.blockNumber != null ? String(contract.deployment.blockNumber) : null,
      transactionIndex: null,
      deployer: creation ? checksummed(creation.sender) : contract.deployment?.creator ? checksummed(contract.deployment.creator) : null,
    };
    Object.assign(parts, await bytecodes(s, contract, creation?.creationCode ?? null, runtimeCode));
  }
  return parts;
}

async function bytecodes(
  s: Services,
  contract: VerifiedContract,
  onchainCreation: string | null,
  onchainRuntime: string | null,
): Promise<{ creationBytecode: unknown; runtimeBytecode: unknown }> {
  const compiled = await readCompiledCode(s, contract);
  const hex = (code: string | null | undefined) => (code ? (code.startsWith('0x') ? code : `0x${code}`) : null);
  const auxdata = (positions: { id: string; offset: number; value: string }[] | undefined) =>
    positions ? Object.fromEntries(positions.map((p) => [p.id, { value: hex(p.value), offset: p.offset }])) : null;
  const t = contract.transformations;
  return {
    creationBytecode: {
      onchainBytecode: hex(onchainCreation),
      recompiledBytecode: hex(compiled?.compiled.creation.code),
      sourceMap: null,
      linkReferences: compiled?.compiled.creation.linkReferences ?? null,
      cborAuxdata: auxdata(compiled?.compiled.creation.auxdata.positions),
      transformations: contract.creationMatch ? t.applied.creation : null,
      transformationValues: contract.creationMatch ? t.values.creation : null,
    },
    runtimeBytecode: {
      onchainBytecode: hex(onchainRuntime),
      recompiledBytecode: hex(compiled?.compiled.runtime.code),
      sourceMap: null,
      linkReferences: compiled?.compiled.runtime.linkReferences ?? null,
      cborAuxdata: auxdata(compiled?.compiled.runtime.auxdata.positions),
      immutableReferences: compiled?.compiled.runtime.immutableReferences ?? null,
      transformations: t.applied.runtime,
      transformationValues: t.values.runtime,
    },
  };
}

interface AbiParam {
  type?: string;
  components?: AbiParam[];
}

interface AbiEntry {
  type?: string;
  name?: string;
  inputs?: AbiParam[];
}

/** A parameter's canonical type: tuples spelled out, array suffixes kept. */
function canonicalType(param: AbiParam): string {
  const type = param.type ?? '';
  if (!type.startsWith('tuple')) return type;
  return `(${(param.components ?? []).map(canonicalType).join(',')})${type.slice('tuple'.length)}`;
}

/** The ABI's functions, events and errors with their signatures and selectors, as Sourcify lists them. */
function signaturesOf(abi: unknown[]): Record<'function' | 'event' | 'error', { signature: string; signatureHash32: string; signatureHash4: string }[]> {
  const out = { function: [], event: [], error: [] } as Record<
    'function' | 'event' | 'error',
    { signature: string; signatureHash32: string; signatureHash4: string }[]
  >;
  for (const item of abi as AbiEntry[]) {
    if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') continue;
    const signature = `${item.name ?? ''}(${(item.inputs ?? []).map(canonicalType).join(',')})`;
    const hash = keccakOfText(signature);
    out[item.type].push({ signature, signatureHash32: hash, signatureHash4: hash.slice(0, 10) });
  }
  return out;
}
