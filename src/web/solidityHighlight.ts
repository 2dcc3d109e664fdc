/**
 * Solidity syntax highlighting on the server, with Prism's Solidity grammar (prismjs). Prism
 * escapes the text it wraps (`&` and `<`), and its only markup is `<span class="token …">`;
 * the result is split into lines, each closing and reopening the spans that cross it, so every
 * line can carry its number and anchor.
 */
import { createRequire } from 'node:module';
import { escapeHtml, Html } from './html.js';

const require = createRequire(import.meta.url);
const Prism = require('prismjs') as typeof import('prismjs');
(require('prismjs/components/index.js') as (languages: string[]) => void)(['solidity']);

/** Files larger than this are shown as plain text (still with line numbers). */
export const MAX_HIGHLIGHT_BYTES = 256 * 1024;

const TAG = /<span class="[a-z -]+">|<\/span>/g;

/** One Html per line of `source`: highlighted when it is not too large, escaped text otherwise. */
export function highlightSolidityLines(source: string): Html[] {
  if (source.length > MAX_HIGHLIGHT_BYTES) return source.split('\n').map((line) => new Html(escapeHtml(line)));
  return highlightedLines(source);
}

/** One Html per line of `source`, highlighted whatever its size (callers bound what they pass). */
export function highlightedLines(source: string): Html[] {
  const highlighted = Prism.highlight(source, Prism.languages['solidity']!, 'solidity');
  const lines: Html[] = [];
  const open: string[] = [];
  let current = '';
  let last = 0;
  const text = (chunk: string): void => {
    const parts = chunk.split('\n');
    current += parts[0];
    for (let i = 1; i < parts.length; i++) {
      lines.push(new Html(current + '</span>'.repeat(open.length)));
      current = open.join('') + parts[i];
    }
  };
  for (const m of highlighted.matchAll(TAG)) {
    text(highlighted.slice(last, m.index));
    if (m[0] === '</span>') open.pop();
    else open.push(m[0]);
    current += m[0];
    last = m.index + m[0].length;
  }
  text(highlighted.slice(last));
  lines.push(new Html(current));
  return lines;
}
