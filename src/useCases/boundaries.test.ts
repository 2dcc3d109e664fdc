import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeScriptFiles } from '../../test/helpers/sourceTree.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

const sourceFiles = (dir: string) => typeScriptFiles(dir);

/** The folders of src/ a file imports from (types included), e.g. `store` for `../store/verifiedContracts.js`. */
function importedFolders(file: string): { folder: string; path: string }[] {
  return [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) => {
    const target = relative(SRC, join(dirname(file), m[1]!));
    return { folder: target.split('/')[0]!, path: m[1]! };
  });
}

const DOORS = ['api', 'sourcify', 'web'];
/** What only the use cases reach: records, jobs, the bytecode database, compilers and the chain. */
const BEHIND_THE_USE_CASES = ['store', 'jobs', 'bytecodeDatabase', 'compilers', 'chain'];

// A door parses a request, calls a use case and words the answer: every rule about records,
// admission, quotas and jobs is decided once, in useCases/, so no door can forget or bend one.
describe('the doors go through the use cases', () => {
  it.each(DOORS)('%s/ imports nothing from store/, jobs/, bytecodeDatabase/, compilers/ or chain/', (door) => {
    const files = sourceFiles(join(SRC, door));
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.flatMap((file) =>
      importedFolders(file)
        .filter((i) => BEHIND_THE_USE_CASES.includes(i.folder))
        .map((i) => `${relative(SRC, file)}: ${i.path}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the doors use the use cases through their facade, useCases/index.ts', () => {
    const offenders = DOORS.flatMap((door) =>
      sourceFiles(join(SRC, door)).flatMap((file) =>
        importedFolders(file)
          .filter((i) => i.folder === 'useCases' && !i.path.endsWith('useCases/index.js'))
          .map((i) => `${relative(SRC, file)}: ${i.path}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('a door imports no other door, and the use cases import none', () => {
    const offenders = [...DOORS, 'useCases'].flatMap((folder) =>
      sourceFiles(join(SRC, folder)).flatMap((file) =>
        importedFolders(file)
          .filter((i) => DOORS.includes(i.folder) && i.folder !== folder)
          .map((i) => `${relative(SRC, file)}: ${i.path}`),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
