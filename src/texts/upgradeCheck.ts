/**
 * The upgrade check in words: why it gives no verdict, and each incompatibility upgrades-core
 * found, named by its variable ("inserted `x` before `owner`"). The API and the page say the same.
 */

import type { ErrorFacts } from '../core/errors.js';
import type { MissingLayout } from '../core/storageLayout.js';
import { errorSentence } from './errors.js';

type Side = 'current' | 'earlier' | 'candidate';

/** The facts of a refusal (useCases' UpgradeCheckRefusal; texts/ imports only core/, so its shape is repeated here). */
export type UpgradeRefusalFacts =
  | { code: 'no_code'; address: string }
  | { code: 'not_a_proxy'; address: string }
  | { code: 'not_upgradeable'; address: string; pattern: string }
  | { code: 'not_in_history'; proxy: string; address: string }
  | { code: 'not_verified'; side: Side; address: string }
  | { code: 'no_layout'; side: Side; address: string | null; missing: MissingLayout }
  | { code: 'compile_errors'; side: Side; address: string | null; errors: string[] }
  | { code: 'compile_failed'; side: Side; address: string | null; error: ErrorFacts }
  | { code: 'layout_unreadable'; side: Side; address: string | null; reason: string };

const SIDE = {
  current: "The proxy's current implementation",
  earlier: "The proxy's earlier implementation",
  candidate: 'The candidate implementation',
} as const;

/** A side and its address, or for a candidate compiled from a submitted input, that. */
function who(side: Side, address: string | null): string {
  return address ? `${SIDE[side]} ${address}` : `${SIDE[side]} (the submitted input)`;
}

function noLayoutWhy(missing: MissingLayout): string {
  switch (missing.reason) {
    case 'vyper':
      return 'it is Vyper, and only solc gives a storage layout';
    case 'not_solidity':
      return 'it is not Solidity, and only solc gives a storage layout';
    case 'compiler_too_old':
      return `it was compiled with a solc before ${missing.since}, which gives no storage layout`;
    case 'not_kept':
      return 'it has none';
  }
}

/** Why an upgrade check gives no verdict, in one sentence. */
export function upgradeRefusalText(r: UpgradeRefusalFacts): string {
  switch (r.code) {
    case 'no_code':
      return `Error! No contract at ${r.address}`;
    case 'not_a_proxy':
      return `Error! ${r.address} is not a proxy: no implementation found in its EIP-1967 slots, beacon or other proxy patterns`;
    case 'not_upgradeable':
      return `Error! ${r.address} is a ${r.pattern} proxy, whose implementation an upgrade does not replace: only upgradeable proxies (EIP-1967, UUPS, transparent, beacon) are checked`;
    case 'not_in_history':
      return `Error! ${r.address} is not an implementation of the proxy ${r.proxy}: against= takes one of the implementations its history lists (its upgrade events read from the chain), or none for the current one`;
    case 'not_verified':
      return `Error! ${who(r.side, r.address)} is not verified: verify it first`;
    case 'no_layout':
      return `Error! ${who(r.side, r.address)} has no storage layout to compare: ${noLayoutWhy(r.missing)}`;
    case 'compile_errors':
      return `Error! ${who(r.side, r.address)} did not compile for its layout: ${r.errors[0] ?? 'solc reported errors'}`;
    case 'compile_failed':
      return `Error! ${who(r.side, r.address)} could not be compiled for its layout: ${errorSentence(r.error)}`;
    case 'layout_unreadable':
      return `Error! The storage layout of ${who(r.side, r.address).replace(/^The/, 'the')} could not be read: ${r.reason}`;
  }
}

/** One incompatibility's facts, as upgrades-core found it (verify's LayoutIncompatibility). */
export interface IncompatibilityFacts {
  kind: string;
  variable: string;
  before?: string;
  original?: string;
  namespace?: string;
}

/** One incompatibility in a few words, naming the variable: "inserted `x` before `owner`". */
export function incompatibilityText(i: IncompatibilityFacts): string {
  const where = i.namespace ? ` in namespace ${i.namespace}` : '';
  const v = `\`${i.variable}\``;
  switch (i.kind) {
    case 'insert':
      return `inserted ${v}${i.before ? ` before \`${i.before}\`` : ''}${where}`;
    case 'append':
      return `added ${v}${where} where no variable may be added`;
    case 'delete':
      return `deleted ${v}${where}`;
    case 'delete-namespace':
      return `deleted namespace ${i.variable}`;
    case 'typechange':
      return `changed the type of ${v}${where} incompatibly`;
    case 'rename':
      return `renamed \`${i.original ?? '?'}\` to ${v}${where}`;
    case 'replace':
      return `replaced \`${i.original ?? '?'}\` with ${v}${where}, of an incompatible type`;
    case 'layoutchange':
      return `moved ${v}${where} to another slot or offset`;
    case 'shrinkgap':
      return `shrank the gap ${v}${where} by more than the variables added before it`;
    case 'finishgap':
      return `replaced the end of the gap ${v}${where} incompatibly`;
    default:
      return `${i.kind} ${v}${where}`;
  }
}

/** The verdict in one sentence. */
export function upgradeVerdictText(compatible: boolean, count: number): string {
  return compatible
    ? "Compatible: the candidate's storage layout keeps every variable of the current implementation where it was."
    : `Not compatible: ${count} storage layout ${count === 1 ? 'change breaks' : 'changes break'} the proxy's stored state.`;
}
