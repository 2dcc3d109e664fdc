/**
 * What an upgrade changes of a contract's interface: the functions, events and errors the
 * candidate adds, removes or changes, each named by its signature (`transfer(address,uint256)`).
 * A function whose signature stays but whose outputs or mutability differ is changed.
 */

interface AbiParameter {
  type?: string;
  name?: string;
  indexed?: boolean;
  components?: AbiParameter[];
}

interface AbiItem {
  type?: string;
  name?: string;
  inputs?: AbiParameter[];
  outputs?: AbiParameter[];
  stateMutability?: string;
  anonymous?: boolean;
}

/** One entry that differs: its kind (function, event, error, constructor, fallback, receive) and signature. */
export interface AbiChange {
  kind: string;
  signature: string;
  /** For a changed entry: what differs, in a few words per part. */
  changes?: string[];
}

export interface AbiDiff {
  added: AbiChange[];
  removed: AbiChange[];
  changed: AbiChange[];
}

/** The difference between two ABIs (JSON texts or arrays); an ABI that is not one reads as empty. */
export function abiDiff(current: string | unknown[], candidate: string | unknown[]): AbiDiff {
  const before = entries(current);
  const after = entries(candidate);
  const added: AbiChange[] = [];
  const removed: AbiChange[] = [];
  const changed: AbiChange[] = [];
  for (const [key, item] of after) {
    const old = before.get(key);
    if (!old) {
      added.push({ kind: item.type ?? 'function', signature: signature(item) });
      continue;
    }
    const changes = differences(old, item);
    if (changes.length) changed.push({ kind: item.type ?? 'function', signature: signature(item), changes });
  }
  for (const [key, item] of before) if (!after.has(key)) removed.push({ kind: item.type ?? 'function', signature: signature(item) });
  return { added, removed, changed };
}

/** The entries of an ABI by kind and signature. */
function entries(abi: string | unknown[]): Map<string, AbiItem> {
  let list: unknown = abi;
  if (typeof abi === 'string') {
    try {
      list = JSON.parse(abi);
    } catch {
      list = [];
    }
  }
  const map = new Map<string, AbiItem>();
  if (!Array.isArray(list)) return map;
  for (const raw of list) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as AbiItem;
    map.set(`${item.type ?? 'function'} ${signature(item)}`, item);
  }
  return map;
}

/** `name(type,type)`; a constructor, fallback or receive is named by its kind. */
export function signature(item: AbiItem): string {
  const kind = item.type ?? 'function';
  const name = kind === 'function' || kind === 'event' || kind === 'error' ? (item.name ?? '') : kind;
  return `${name}(${(item.inputs ?? []).map(typeOf).join(',')})`;
}

function typeOf(p: AbiParameter): string {
  const type = p.type ?? '';
  if (!type.startsWith('tuple')) return type;
  return `(${(p.components ?? []).map(typeOf).join(',')})${type.slice('tuple'.length)}`;
}

function differences(old: AbiItem, now: AbiItem): string[] {
  const out: string[] = [];
  const outputs = (i: AbiItem) => (i.outputs ?? []).map(typeOf).join(',');
  if (outputs(old) !== outputs(now)) out.push(`returns (${outputs(old)}) -> (${outputs(now)})`);
  if ((old.stateMutability ?? '') !== (now.stateMutability ?? ''))
    out.push(`${old.stateMutability ?? 'unspecified'} -> ${now.stateMutability ?? 'unspecified'}`);
  const indexed = (i: AbiItem) => (i.inputs ?? []).map((p) => (p.indexed ? 'indexed' : '-')).join(',');
  if (old.type === 'event' && indexed(old) !== indexed(now)) out.push('indexed parameters changed');
  if (Boolean(old.anonymous) !== Boolean(now.anonymous)) out.push(now.anonymous ? 'now anonymous' : 'no longer anonymous');
  const names = (i: AbiItem) => (i.inputs ?? []).map((p) => p.name ?? '').join(',');
  if (names(old) !== names(now)) out.push(`parameter names (${names(old)}) -> (${names(now)})`);
  return out;
}
