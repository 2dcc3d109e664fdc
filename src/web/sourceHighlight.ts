/**
 * Syntax highlighting on the server, with Prism's grammars (prismjs): Solidity's, and for Vyper
 * Prism's Python grammar with Vyper's keywords, types and decorators. Prism escapes the text it
 * wraps (`&` and `<`), and its only markup is `<span class="token …">`; the result is split into
 * lines, each closing and reopening the spans that cross it, so every line can carry its number
 * and anchor.
 */
import { createRequire } from 'node:module';
import { escapeHtml, Html } from './html.js';

const require = createRequire(import.meta.url);
const Prism = require('prismjs') as typeof import('prismjs');
(require('prismjs/components/index.js') as (languages: string[]) => void)(['solidity', 'python']);

/** The languages a source file is highlighted in. */
export type SourceLanguage = 'solidity' | 'vyper';

Prism.languages['vyper'] = Prism.languages.extend('python', {
  keyword:
    /\b(?:and|as|assert|break|constant|continue|def|elif|else|event|exports|flag|enum|for|from|if|immutable|implements|import|in|indexed|initializes|interface|is|log|not|or|pass|public|raise|range|return|struct|transient|uses|extcall|staticcall)\b/,
  builtin:
    /\b(?:u?int(?:8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|address|bool|bytes(?:[1-9]|[12]\d|3[0-2])?|Bytes|String|DynArray|HashMap|decimal|self|msg|block|tx|chain|empty|len|min|max|convert|concat|slice|keccak256|sha256|raw_call|send|create_minimal_proxy_to|create_copy_of|create_from_blueprint|abi_encode|abi_decode|extract32|max_value|min_value)\b/,
});
Prism.languages.insertBefore('vyper', 'keyword', { decorator: { pattern: /^[ \t]*@\w+/m, alias: 'function' } });

/** The language of a source file by its path: `.vy` and `.vyi` are Vyper, anything else Solidity. */
export function languageOfPath(path: string): SourceLanguage {
  return /\.vyi?$/i.test(path) ? 'vyper' : 'solidity';
}

/** Files larger than this are shown as plain text (still with line numbers). */
export const MAX_HIGHLIGHT_BYTES = 256 * 1024;

const TAG = /<span class="[a-z -]+">|<\/span>/g;

/** One Html per line of `source`: highlighted when it is not too large, escaped text otherwise. */
export function highlightSolidityLines(source: string, language: SourceLanguage = 'solidity'): Html[] {
  if (source.length > MAX_HIGHLIGHT_BYTES) return source.split('\n').map((line) => new Html(escapeHtml(line)));
  return highlightedLines(source, language);
}

/** One Html per line of `source`, highlighted whatever its size (callers bound what they pass). */
export function highlightedLines(source: string, language: SourceLanguage = 'solidity'): Html[] {
  const highlighted = Prism.highlight(source, Prism.languages[language]!, language);
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
