/**
 * What an upgrade changes of a contract's sources: which files were added, removed or changed,
 * and a unified diff of each changed file. The diffs are bounded: past `maxBytes` in all, the
 * remaining changed files are named without their diff, so an answer stays small whatever the
 * sources weigh.
 */
import { createTwoFilesPatch } from 'diff';

export interface SourceFile {
  path: string;
  content: string;
}

export interface ChangedFile {
  path: string;
  /** The unified diff, or null when it was left out to keep the answer within its bound. */
  diff: string | null;
}

export interface SourceDiff {
  added: string[];
  removed: string[];
  changed: ChangedFile[];
  unchanged: number;
  /** Whether some changed file's diff was left out (or cut) for the bound. */
  truncated: boolean;
}

/** The bound of all diffs of one answer together. */
export const SOURCE_DIFF_MAX_BYTES = 200_000;
/** One file's diff is cut past this. */
const FILE_DIFF_MAX_BYTES = 64_000;
/** Files longer than this are named as changed without a diff (diffing them costs too much). */
const FILE_MAX_BYTES = 1_000_000;

/** The difference between the current implementation's sources and the candidate's. */
export function sourceDiff(current: SourceFile[], candidate: SourceFile[], maxBytes = SOURCE_DIFF_MAX_BYTES): SourceDiff {
  const before = new Map(current.map((f) => [f.path, f.content]));
  const after = new Map(candidate.map((f) => [f.path, f.content]));
  const added = [...after.keys()].filter((p) => !before.has(p)).sort();
  const removed = [...before.keys()].filter((p) => !after.has(p)).sort();
  const changed: ChangedFile[] = [];
  let unchanged = 0;
  let budget = maxBytes;
  let truncated = false;
  for (const path of [...after.keys()].filter((p) => before.has(p)).sort()) {
    const old = before.get(path)!;
    const now = after.get(path)!;
    if (old === now) {
      unchanged++;
      continue;
    }
    if (budget <= 0 || old.length > FILE_MAX_BYTES || now.length > FILE_MAX_BYTES) {
      truncated = true;
      changed.push({ path, diff: null });
      continue;
    }
    let diff = createTwoFilesPatch(`a/${path}`, `b/${path}`, old, now, undefined, undefined, { context: 3 });
    const limit = Math.min(budget, FILE_DIFF_MAX_BYTES);
    if (diff.length > limit) {
      diff = `${diff.slice(0, limit)}\n… (diff cut)\n`;
      truncated = true;
    }
    budget -= diff.length;
    changed.push({ path, diff });
  }
  return { added, removed, changed, unchanged, truncated };
}
