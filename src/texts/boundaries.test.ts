import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeScriptFiles } from '../../test/helpers/sourceTree.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

const sourceFiles = (dir: string) => typeScriptFiles(dir);

// Texts are worded at the edge (api/, sourcify/, web/, cli/, and the use cases' field parser)
// when they are read: the domain and the jobs keep codes and facts, so one wording serves every
// client and old receipts alike.
describe('where texts are worded', () => {
  it.each(['core', 'verify', 'compilers', 'chain', 'jobs', 'store', 'bytecodeDatabase', 'limits'])('%s/ imports nothing from texts/', (folder) => {
    const offenders = sourceFiles(join(SRC, folder)).filter((file) => /from '(\.\.\/)+texts\//.test(readFileSync(file, 'utf8')));
    expect(offenders.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('texts/ imports only core/', () => {
    const imports = sourceFiles(join(SRC, 'texts')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map((m) => m[1]!));
    expect(imports.filter((path) => !path.startsWith('../core/'))).toEqual([]);
  });
});
