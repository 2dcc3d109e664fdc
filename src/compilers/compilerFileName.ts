import type { CompilerVersion } from '../core/compilerVersion.js';

export type CompilerKind = 'soljson' | 'native';

/** The solc-bin file name of a build, which is also its name in the local cache. */
export function compilerFileName(kind: CompilerKind, v: CompilerVersion): string {
  return kind === 'native' ? `solc-linux-amd64-v${v.long}` : `soljson-v${v.long}.js`;
}
