import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { installedLongVersion } from '../../helpers/compilerCache.js';
import { SOLC_PACKAGES } from '../../helpers/solc.js';

const require = createRequire(import.meta.url);
// Found from the repository's root (its installed packages' parent): the bench runs this file from dist-bench/.
const here = join(dirname(dirname(dirname(require.resolve('solc/package.json')))), 'test', 'clients', 'foundry');
const shellWord = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Puts the npm solc-js build of `version` where forge looks for its solc (`<home>/.svm`), as a
 * native-looking executable, with the directory named by the long version that tells forge the
 * commit: forge runs offline that way (see docs/clients.md, Forge without internet).
 */
export async function installSolcForForge(home: string, version: string): Promise<void> {
  const long = await installedLongVersion(version);
  const svm = join(home, '.svm');
  mkdirSync(join(svm, version), { recursive: true });
  mkdirSync(join(svm, long), { recursive: true });
  const solcjs = dirname(require.resolve(`${SOLC_PACKAGES[version]!}/package.json`));
  const solcPath = join(svm, version, `solc-${version}`);
  writeFileSync(
    solcPath,
    `#!/bin/sh\nSOLCJS_MODULE=${shellWord(solcjs)} exec ${shellWord(process.execPath)} ${shellWord(join(here, 'solcjs-as-solc.cjs'))} "$@"\n`,
  );
  chmodSync(solcPath, 0o755);
}
