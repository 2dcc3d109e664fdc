import { randomBytes } from 'node:crypto';
import { constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { access, chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompilerVersion } from '../core/compilerVersion.js';
import { type CompilerKind, compilerFileName } from './compilerFileName.js';

/** A compiler present in the local cache. */
export interface ResolvedCompiler {
  kind: CompilerKind;
  path: string;
  /** `0.8.26+commit.8a97fa7a` */
  longVersion: string;
}

/**
 * The directory of downloaded compilers, named as solc-bin names them. Files only ever appear
 * whole (written beside, then renamed), so a reader never sees half a compiler.
 */
export class CompilerCache {
  constructor(readonly dir: string) {
    // soljson builds are CommonJS scripts loaded with require(). A cache inside an ES-module
    // package (the default `./.data` of this very project) would make Node read them as ES
    // modules, so the cache declares its own module type.
    mkdirSync(dir, { recursive: true });
    const marker = join(dir, 'package.json');
    if (!existsSync(marker)) writeFileSync(marker, '{ "type": "commonjs" }\n');
  }

  pathOf(kind: CompilerKind, v: CompilerVersion): string {
    return join(this.dir, compilerFileName(kind, v));
  }

  /** The first of `kinds` that is cached for `v`, or null. */
  async find(v: CompilerVersion, kinds: readonly CompilerKind[]): Promise<ResolvedCompiler | null> {
    for (const kind of kinds) {
      const path = this.pathOf(kind, v);
      try {
        await access(path, kind === 'native' ? constants.X_OK : constants.R_OK);
        return { kind, path, longVersion: v.long };
      } catch {
        // not cached in this form
      }
    }
    return null;
  }

  /** Writes a checked build under its solc-bin name, atomically. */
  async store(kind: CompilerKind, v: CompilerVersion, bytes: Buffer): Promise<ResolvedCompiler> {
    const path = this.pathOf(kind, v);
    const temp = await this.writeTemp(bytes, kind === 'native' ? 0o755 : 0o644);
    try {
      if (kind === 'native') await chmod(temp, 0o755);
      await rename(temp, path);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return { kind, path, longVersion: v.long };
  }

  /** A file of `bytes` in the cache directory under a name no compiler has; the caller renames or removes it. */
  async writeTemp(bytes: Buffer, mode = 0o644): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const temp = join(this.dir, `.partial-${randomBytes(8).toString('hex')}.js`);
    try {
      await writeFile(temp, bytes, { mode });
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return temp;
  }
}
