import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript files below `dir` (tests included with `withTests`), node_modules left out. */
export function typeScriptFiles(dir: string, options: { withTests?: boolean } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(path, options);
    return entry.name.endsWith('.ts') && (options.withTests || !entry.name.endsWith('.test.ts')) ? [path] : [];
  });
}
