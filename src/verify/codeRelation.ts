import { keccakOfText } from '../core/keccak.js';

/** How a submission's compiled contract relates to the code at the address, read without compiling. */
export interface CodeRelation {
  /** External functions the contract's ABI declares. */
  functions: number;
  /** How many of their selectors the deployed code pushes (its dispatcher compares calls with them). */
  functionsInCode: number;
}

interface AbiParam {
  type: string;
  components?: AbiParam[];
}

/** A parameter's canonical type: tuples spelled out, array suffixes kept (`(uint256,address)[]`). */
function canonicalType(p: AbiParam): string {
  if (!p.type.startsWith('tuple')) return p.type;
  return `(${(p.components ?? []).map(canonicalType).join(',')})${p.type.slice('tuple'.length)}`;
}

/** The 4-byte selectors of the ABI's functions, as hex. */
export function functionSelectors(abi: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const item of abi) {
    const f = item as { type?: string; name?: string; inputs?: AbiParam[] };
    if (f.type !== 'function' || typeof f.name !== 'string') continue;
    out.push(keccakOfText(`${f.name}(${(f.inputs ?? []).map(canonicalType).join(',')})`).slice(2, 10));
  }
  return out;
}

/**
 * Which of the contract's function selectors the deployed code pushes. solc's dispatcher
 * compares the call's selector with each one, pushed whole (PUSH4) or without its leading zero
 * bytes: every compiler version, optimizer setting and pipeline keeps them, so code that pushes
 * none of them is not this contract's, whatever its settings.
 */
export function codeRelation(abi: readonly unknown[], onchainRuntime: string): CodeRelation {
  const code = onchainRuntime.toLowerCase().replace(/^0x/, '');
  const selectors = functionSelectors(abi);
  let found = 0;
  for (const selector of selectors) {
    const trimmed = selector.replace(/^(00)+/, '');
    const push = trimmed === '' ? '5f' : `${(0x5f + trimmed.length / 2).toString(16)}${trimmed}`;
    if (code.includes(push)) found++;
  }
  return { functions: selectors.length, functionsInCode: found };
}
