/** The sentences that say a compile went past one of its limits: one copy each. */

/** `60000` → `60`, `1500` → `1.5`: the texts use seconds. */
function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

export const timeLimitText = (timeoutMs: number): string => `Compilation exceeded the time limit of ${formatSeconds(timeoutMs)} s`;

export const memoryLimitText = (maxMemoryMb: number): string => `Compiler ran out of memory (limit ${maxMemoryMb} MB)`;

export const outputLimitText = (maxOutputBytes: number, size?: number): string =>
  size === undefined
    ? `The compiler output exceeds the limit of ${Math.round(maxOutputBytes / 1048576)} MB`
    : `The compiler output (${Math.ceil(size / 1048576)} MB) exceeds the limit of ${Math.round(maxOutputBytes / 1048576)} MB`;
