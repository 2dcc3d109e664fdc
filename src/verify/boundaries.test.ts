import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeScriptFiles } from '../../test/helpers/sourceTree.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const allFiles = (dir: string) => typeScriptFiles(dir, { withTests: true });

/** The imports of verify/ a file makes that do not go through its facade, verify/index.ts. */
function throughTheSide(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/)+(?:src\/)?verify\/[^']+)'/g)]
    .map((m) => m[1]!)
    .filter((path) => !path.endsWith('verify/index.js'));
}

// verify/ is the pure domain behind one facade: its files can move and change inside without
// anyone outside noticing. Only its own tests (beside the code, and test/verify, test/proxy) reach in.
describe('verify/ is used through its facade', () => {
  it.each(['src', 'test', 'bench'])('%s/ imports verify/ only through verify/index.ts', (folder) => {
    const files = allFiles(join(ROOT, folder)).filter((file) => {
      const path = relative(ROOT, file);
      return !path.startsWith('src/verify/') && !path.startsWith('test/verify/') && !path.startsWith('test/proxy/');
    });
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.flatMap((file) => throughTheSide(file).map((path) => `${relative(ROOT, file)}: ${path}`));
    expect(offenders).toEqual([]);
  });
});

describe('verify/ is pure domain', () => {
  it('imports nothing of the service but core/: no HTTP, storage, chain or compiler of its own', () => {
    const files = allFiles(join(ROOT, 'src', 'verify')).filter((file) => !file.endsWith('.test.ts'));
    const outside = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)]
        .map((m) => relative(join(ROOT, 'src'), join(dirname(file), m[1]!)))
        .filter((target) => !target.startsWith('verify/') && !target.startsWith('core/'))
        .map((target) => `${relative(ROOT, file)}: ${target}`),
    );
    expect(outside).toEqual([]);
  });
});
