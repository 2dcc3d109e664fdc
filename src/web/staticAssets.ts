import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The explorer's stylesheet and script live as files in src/web/static (the script checked by
 * `tsc -p tsconfig.static.json`); this module sits two folders below the package root both in
 * src/ and in dist/, so the files are found from either.
 */
const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'web', 'static');

/** The text of one static file, read once (at start). */
export function readStaticAsset(name: 'explorer.css' | 'explorer.js'): string {
  return readFileSync(join(STATIC_DIR, name), 'utf8');
}
