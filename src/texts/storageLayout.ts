/** Why a verified contract has no storage layout of a kind, in a reader's words. */
import type { MissingLayout } from '../core/storageLayout.js';

export function missingLayoutText(missing: MissingLayout): string {
  switch (missing.reason) {
    case 'vyper':
      return 'Vyper: not available';
    case 'not_solidity':
      return 'not available: only Solidity sources have one';
    case 'compiler_too_old':
      return `not available: solc before ${missing.since}`;
    case 'not_kept':
      return 'not kept: verified before storage layouts were kept (an operator can add it with solproof store layouts)';
  }
}
