/**
 * A contract's storage layout as OpenZeppelin's upgrades-core reads it, and its comparison with
 * another: the rules (gaps, ERC-7201 namespaces, renames and retypes by NatSpec, packing) are
 * upgrades-core's, never the service's. upgrades-core reads solc's AST beside its storage
 * layout (which contract declares each variable, enum members, `@custom:storage-location`
 * namespaces), so a kept layout is not enough: the proven input is compiled again for the AST
 * and the layout (analysis only, no code generated), and, when a source declares a namespace,
 * once more in upgrades-core's "namespaced" form, which gives the namespaced structs' slots.
 */
import type { SolcInput as OzSolcInput, SolcOutput as OzSolcOutput, StorageLayout as OzStorageLayout } from '@openzeppelin/upgrades-core';
import type { StorageItem, StorageOperation } from '@openzeppelin/upgrades-core/dist/storage/compare.js';
import { parseVersionNumbers, versionAtLeast } from '../../core/compilerVersion.js';
import type { SolcInput, SolcOutput } from '../solcTypes.js';

/** upgrades-core, loaded on the first check (it takes about 300 ms to load, which no start should pay). */
async function upgradesCore() {
  const [core, report, query] = await Promise.all([
    import('@openzeppelin/upgrades-core'),
    import('@openzeppelin/upgrades-core/dist/storage/report.js'),
    import('@openzeppelin/upgrades-core/dist/validate/query.js'),
  ]);
  return { ...core, LayoutCompatibilityReport: report.LayoutCompatibilityReport, unfoldStorageLayout: query.unfoldStorageLayout };
}

/** A layout as upgrades-core compares it (its `StorageLayout`). */
export type UpgradeLayout = OzStorageLayout;

/** The outputs upgrades-core reads: every source's AST and each contract's storage layout. */
const LAYOUT_OUTPUTS = { '*': { '': ['ast'], '*': ['storageLayout'] } };

/** The first solc whose structs carry NatSpec, so namespaces (ERC-7201) can be read. */
const NAMESPACES_SINCE = '0.8.20';

/**
 * `input` asking only for what upgrades-core reads: the AST and storage layouts (solc stops after
 * analysis), and `also` of each contract (outputs analysis gives too, as `abi`).
 */
export function layoutInput(input: SolcInput, also: string[] = []): SolcInput {
  const outputSelection = { '*': { '': LAYOUT_OUTPUTS['*'][''], '*': [...LAYOUT_OUTPUTS['*']['*'], ...also] } };
  return { ...input, settings: { ...input.settings, outputSelection } };
}

/** Whether a source of `input` declares an ERC-7201 namespace that solc `version` can report. */
export function declaresNamespaces(version: string, input: SolcInput): boolean {
  if (!versionAtLeast(parseVersionNumbers(version), NAMESPACES_SINCE)) return false;
  return Object.values(input.sources).some((s) => s.content?.includes('@custom:storage-location'));
}

/**
 * upgrades-core's "namespaced" input for `input` (compiled into `output` by layoutInput):
 * each namespace struct turned into a state variable, so solc lays it out.
 */
export async function namespacedInput(version: string, input: SolcInput, output: SolcOutput): Promise<SolcInput> {
  const { makeNamespacedInput, trySanitizeNatSpec } = await upgradesCore();
  const made = makeNamespacedInput(input as unknown as OzSolcInput, output as unknown as OzSolcOutput, releaseOnly(version));
  return (await trySanitizeNatSpec(made, releaseOnly(version))) as unknown as SolcInput;
}

/** The compile errors of an output, as solc words them. */
export function compileErrors(output: SolcOutput): string[] {
  return (output.errors ?? []).filter((e) => e.severity === 'error').map((e) => e.formattedMessage ?? e.message);
}

/**
 * The layout of `sourcePath:contractName`, as upgrades-core extracts it from `output` (compiled
 * from `input` by layoutInput) and, when given, the namespaced output. Throws upgrades-core's
 * error when it cannot read the contract (a namespace outside a contract, a `layout at` it does
 * not evaluate).
 */
export async function upgradeLayout(
  version: string,
  input: SolcInput,
  output: SolcOutput,
  namespaced: SolcOutput | undefined,
  sourcePath: string,
  contractName: string,
): Promise<UpgradeLayout> {
  const { validate, solcInputOutputDecoder, unfoldStorageLayout } = await upgradesCore();
  // upgrades-core reads every contract's creation code (to name its version and find links);
  // analysis gave none, and neither is needed for the layout.
  const withCode = {
    ...output,
    contracts: Object.fromEntries(
      Object.entries(output.contracts ?? {}).map(([file, contracts]) => [
        file,
        Object.fromEntries(Object.entries(contracts).map(([name, c]) => [name, { ...c, evm: { bytecode: { object: '', linkReferences: {} } } }])),
      ]),
    ),
  } as unknown as OzSolcOutput;
  const ozInput = input as unknown as OzSolcInput;
  const runData = validate(
    withCode,
    solcInputOutputDecoder(ozInput, withCode),
    releaseOnly(version),
    ozInput,
    namespaced as unknown as OzSolcOutput | undefined,
  );
  // A single file's record may name no source unit: the one contract of that name is it.
  const named = Object.keys(runData).filter((key) => key.endsWith(`:${contractName}`));
  const name = runData[`${sourcePath}:${contractName}`] ? `${sourcePath}:${contractName}` : named.length === 1 ? named[0]! : null;
  if (!name) throw new Error(`${sourcePath}:${contractName} is not in the compiled output`);
  return unfoldStorageLayout(runData, name);
}

/** One incompatibility of an upgrade, as upgrades-core found it. */
export interface LayoutIncompatibility {
  /** upgrades-core's operation: insert, delete, typechange, rename, replace, layoutchange, shrinkgap, finishgap, delete-namespace. */
  kind: string;
  /** The variable (or struct member, or namespace) it is about. */
  variable: string;
  /** The variable the inserted one now stands before, for an insertion. */
  before?: string;
  /** The variable's original name, for a rename or a replacement. */
  original?: string;
  /** The ERC-7201 namespace the variable lives in (`erc7201:…`), when it is namespaced. */
  namespace?: string;
  /** Where upgrades-core read it: the contract, or `file:line` of the declaration. */
  where: string;
  /** upgrades-core's own explanation, without colours. */
  explanation: string;
}

/** Whether `updated` may replace `original` behind a proxy, by upgrades-core's storage rules. */
export async function compareUpgradeLayouts(
  original: UpgradeLayout,
  updated: UpgradeLayout,
): Promise<{ compatible: boolean; incompatibilities: LayoutIncompatibility[] }> {
  const { getStorageUpgradeReport, withValidationDefaults, LayoutCompatibilityReport } = await upgradesCore();
  const report = getStorageUpgradeReport(original, updated, withValidationDefaults({}));
  const explain = (op: StorageOperation<StorageItem>) => new LayoutCompatibilityReport([op]).explain(false);
  const incompatibilities = report.ops.map((op, i) => describe(op, i, original, updated, explain)).filter((x): x is LayoutIncompatibility => x !== null);
  return { compatible: report.pass, incompatibilities };
}

function describe(
  op: StorageOperation<StorageItem>,
  index: number,
  original: UpgradeLayout,
  updated: UpgradeLayout,
  explain: (op: StorageOperation<StorageItem>) => string,
): LayoutIncompatibility | null {
  // upgrades-core explains a layout change only when it comes first: later ones follow from earlier operations.
  if (op.kind === 'layoutchange' && index !== 0) return null;
  const explanation = explain(op);
  if (op.kind === 'delete-namespace') return { kind: op.kind, variable: op.namespace, namespace: op.namespace, where: op.original.contract, explanation };
  if (op.kind === 'insert' || op.kind === 'append') {
    const place = placeIn(updated, op.updated);
    const before = place ? nextKnown(place.items, place.index, original, place.namespace) : undefined;
    return {
      kind: op.kind,
      variable: op.updated.label,
      ...(before ? { before } : {}),
      ...(place?.namespace ? { namespace: place.namespace } : {}),
      where: op.updated.src,
      explanation,
    };
  }
  if (op.kind === 'delete') {
    const namespace = placeIn(original, op.original)?.namespace;
    return { kind: op.kind, variable: op.original.label, ...(namespace ? { namespace } : {}), where: op.original.src ?? op.original.contract, explanation };
  }
  if (!('original' in op)) return null;
  const namespace = placeIn(updated, op.updated)?.namespace;
  return {
    kind: op.kind,
    variable: op.updated.label,
    ...(op.original.label !== op.updated.label ? { original: op.original.label } : {}),
    ...(namespace ? { namespace } : {}),
    where: op.updated.src,
    explanation,
  };
}

/** What names a layout's item. */
interface Labelled {
  label: string;
  src?: string | undefined;
}

/** Where an item of an operation lies in a layout: the main storage or a namespace, and its index. */
function placeIn(layout: UpgradeLayout, item: Labelled): { items: Labelled[]; index: number; namespace?: string } | null {
  const lists: [string | undefined, Labelled[]][] = [[undefined, layout.storage], ...Object.entries(layout.namespaces ?? {})];
  for (const [namespace, items] of lists) {
    const index = items.findIndex((x) => x.label === item.label && (item.src === undefined || x.src === item.src));
    if (index >= 0) return { items, index, ...(namespace ? { namespace } : {}) };
  }
  return null;
}

/** The first variable after `index` that the original layout (same namespace) also has. */
function nextKnown(items: Labelled[], index: number, original: UpgradeLayout, namespace: string | undefined): string | undefined {
  const originalItems = namespace ? (original.namespaces?.[namespace] ?? []) : original.storage;
  const known = new Set(originalItems.map((x) => x.label));
  return items.slice(index + 1).find((x) => known.has(x.label))?.label;
}

/** `0.8.28` of `0.8.28+commit.7893614a` (upgrades-core compares releases). */
function releaseOnly(version: string): string {
  return /^v?(\d+\.\d+\.\d+)/.exec(version)?.[1] ?? version;
}
