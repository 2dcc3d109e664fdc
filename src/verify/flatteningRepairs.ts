/**
 * Compile errors that flattening a project into one file causes, and the lines whose removal
 * fixes them without changing the code: a second SPDX licence line (solc 3716), a second
 * `pragma abicoder` (3845), and an import of a file the flattened source no longer needs
 * (6275, the file is not supplied). The lines are blanked, not deleted, so line numbers stay.
 */
import type { FlatteningRepairFact } from '../core/errors.js';
import { solidityOutline } from '../core/solidityOutline.js';
import type { SolcError } from './solcTypes.js';

/** A line blanked so the flattened file compiles: its number, its text, and which kind of line it was. */
export type FlatteningRepair = FlatteningRepairFact;

/** The error codes this module knows how to repair. */
export const REPAIRABLE_ERRORS: ReadonlySet<string> = new Set(['3716', '3845', '6275']);

const ABICODER = /^(abicoder\s+v[12]|experimental\s+ABIEncoderV2)$/;

/**
 * The lines to drop for the repairable errors among `errors` (already-dropped lines stay
 * dropped); null when none of the errors is one of them or nothing is left to drop. Only a
 * licence comment or a statement that has its lines to itself is dropped: blanking a line that
 * also holds code would change the code.
 */
export function flatteningRepairs(source: string, errors: readonly SolcError[]): FlatteningRepair[] | null {
  const codes = new Set(errors.filter((e) => e.severity === 'error').map((e) => String(e.errorCode ?? '')));
  if (![...codes].some((c) => REPAIRABLE_ERRORS.has(c))) return null;
  const lines = source.split('\n');
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const repairs: FlatteningRepair[] = [];
  let seenSpdx = false;
  let seenAbicoder = false;
  for (const item of solidityOutline(source)) {
    let why: FlatteningRepair['why'] | null = null;
    if (item.kind === 'license' && codes.has('3716')) {
      if (seenSpdx) why = 'second_spdx_line';
      seenSpdx = true;
    } else if (item.kind === 'pragma' && codes.has('3845') && ABICODER.test(item.body)) {
      if (seenAbicoder) why = 'second_abicoder_pragma';
      seenAbicoder = true;
    } else if (item.kind === 'import' && codes.has('6275')) {
      why = 'missing_import';
    }
    if (!why) continue;
    const first = lineOf(lineStarts, item.start);
    const last = lineOf(lineStarts, Math.max(item.start, item.end - 1));
    const alone = !source.slice(lineStarts[first], item.start).trim() && !source.slice(item.end, lineStarts[last]! + lines[last]!.length).trim();
    if (!alone) continue;
    for (let line = first; line <= last; line++) repairs.push({ line: line + 1, text: lines[line]!, why });
  }
  return repairs.length > 0 ? repairs : null;
}

/** The 0-based line holding `offset`, by binary search over the lines' start offsets. */
function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The source with the repaired lines blanked. */
export function applyRepairs(source: string, repairs: readonly FlatteningRepair[]): string {
  const drop = new Set(repairs.map((r) => r.line));
  return source
    .split('\n')
    .map((text, i) => (drop.has(i + 1) ? '' : text))
    .join('\n');
}
