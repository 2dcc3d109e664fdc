/**
 * Compile errors that flattening a project into one file causes, and the lines whose removal
 * fixes them without changing the code: a second SPDX licence line (solc 3716), a second
 * `pragma abicoder` (3845), and an import of a file the flattened source no longer needs
 * (6275, the file is not supplied). The lines are blanked, not deleted, so line numbers stay.
 */
import type { FlatteningRepairFact } from '../core/errors.js';
import type { SolcError } from './solcTypes.js';

/** A line blanked so the flattened file compiles: its number, its text, and which kind of line it was. */
export type FlatteningRepair = FlatteningRepairFact;

/** The error codes this module knows how to repair. */
export const REPAIRABLE_ERRORS: ReadonlySet<string> = new Set(['3716', '3845', '6275']);

const SPDX = /SPDX-License-Identifier:/;
const ABICODER = /^\s*pragma\s+(abicoder\s+v[12]|experimental\s+ABIEncoderV2)\s*;\s*$/;
const IMPORT = /^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']\s*;\s*$|^\s*import\s+["']([^"']+)["']\s+as\s+\w+\s*;\s*$/;

/**
 * The lines to drop for the repairable errors among `errors` (already-dropped lines stay
 * dropped); null when none of the errors is one of them or nothing is left to drop.
 */
export function flatteningRepairs(source: string, errors: readonly SolcError[]): FlatteningRepair[] | null {
  const codes = new Set(errors.filter((e) => e.severity === 'error').map((e) => String(e.errorCode ?? '')));
  if (![...codes].some((c) => REPAIRABLE_ERRORS.has(c))) return null;
  const lines = source.split('\n');
  const repairs: FlatteningRepair[] = [];
  let seenSpdx = false;
  let seenAbicoder = false;
  lines.forEach((text, i) => {
    if (codes.has('3716') && SPDX.test(text)) {
      if (seenSpdx) repairs.push({ line: i + 1, text, why: 'second_spdx_line' });
      seenSpdx = true;
    } else if (codes.has('3845') && ABICODER.test(text)) {
      if (seenAbicoder) repairs.push({ line: i + 1, text, why: 'second_abicoder_pragma' });
      seenAbicoder = true;
    } else if (codes.has('6275') && IMPORT.test(text)) {
      repairs.push({ line: i + 1, text, why: 'missing_import' });
    }
  });
  return repairs.length > 0 ? repairs : null;
}

/** The source with the repaired lines blanked. */
export function applyRepairs(source: string, repairs: readonly FlatteningRepair[]): string {
  const drop = new Set(repairs.map((r) => r.line));
  return source
    .split('\n')
    .map((text, i) => (drop.has(i + 1) ? '' : text))
    .join('\n');
}

