/**
 * What a Solidity source declares and imports, read in one pass without parsing: the
 * contracts, libraries and interfaces it declares, its imports, its pragmas, and the SPDX
 * licence comments. Comments and string literals are skipped as solc's scanner skips them
 * (comments do not nest; a line comment ends at a line feed; a string ends at its quote, and
 * one left open ends at the end of its line), so a keyword inside either is not taken.
 *
 * Every scan of submitted sources goes through here: it costs one pass over the text whatever
 * the text is (an unterminated comment, megabytes of `/*`, quotes that never close), where
 * a regular expression that strips comments first can take time quadratic in the length.
 */

export type DeclarationKeyword = 'contract' | 'library' | 'interface';

/** An item of a source, with its offsets in the text (`end` is past its last character). */
export type OutlineItem =
  | {
      kind: 'declaration';
      keyword: DeclarationKeyword;
      name: string;
      /** `abstract contract`; `start` is then the offset of `abstract`. */
      abstract: boolean;
      start: number;
      end: number;
    }
  /** An import statement and the path it names (its only string literal); `end` is past its `;`. */
  | { kind: 'import'; path: string; start: number; end: number }
  /** A pragma statement; `body` is what stands between `pragma` and `;`, trimmed. */
  | { kind: 'pragma'; body: string; start: number; end: number }
  /**
   * A comment naming a licence: `expression` is what follows `SPDX-License-Identifier:` to the
   * end of its line or comment, trimmed (at most 200 characters); the offsets are the comment's.
   */
  | { kind: 'license'; expression: string; start: number; end: number }
  /**
   * Code that puts another contract's code into this one: `new` followed by a name that is not
   * an elementary type (`new Token(...)`, not `new bytes(n)`), or `creationCode` /
   * `runtimeCode` (of `type(C)`). The offsets are the name's.
   */
  | { kind: 'creation'; start: number; end: number };

const SPDX_MARKER = 'SPDX-License-Identifier:';
/** What `new` may be followed by without creating a contract: arrays, bytes and strings. */
const ELEMENTARY_TYPE = /^(?:bytes\d*|string|u?int\d*|address|bool|u?fixed[0-9x]*)$/;
const MAX_EXPRESSION = 200;

const SLASH = 0x2f;
const STAR = 0x2a;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const CR = 0x0d;
const SEMICOLON = 0x3b;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === LF || c === CR || c === 0x0b || c === 0x0c;
}

function licenseIn(source: string, start: number, end: number): OutlineItem | null {
  // Searched within the comment only: a search from `start` to the end of the text would make
  // many comments cost the text's length each.
  const text = source.slice(start, end);
  const at = text.indexOf(SPDX_MARKER);
  if (at < 0) return null;
  const from = at + SPDX_MARKER.length;
  let to = from;
  while (to < text.length && to - from < MAX_EXPRESSION * 2 && text.charCodeAt(to) !== LF && text.charCodeAt(to) !== CR) to++;
  let expression = text.slice(from, to).trim();
  if (expression.endsWith('*/')) expression = expression.slice(0, -2).trimEnd();
  return { kind: 'license', expression: expression.slice(0, MAX_EXPRESSION), start, end };
}

/**
 * The items of `source` in the order they appear: declarations (`contract`, `library`,
 * `interface`, each followed by its name), imports, pragmas and licence comments. Lazy: a
 * caller that has what it needs stops the pass. A statement without its `;` is not an item, and
 * a declaration keyword ends any statement it appears in.
 */
export function* solidityOutline(source: string): Generator<OutlineItem, void, undefined> {
  const n = source.length;
  // A declaration keyword just read (its name comes next), and where its item starts.
  let keyword: DeclarationKeyword | null = null;
  let keywordStart = 0;
  let isAbstract = false;
  // `abstract` as the last token read: its offset, else -1.
  let abstractAt = -1;
  // An import or pragma statement being read: where it starts, and an import's path so far.
  let statement: 'import' | 'pragma' | null = null;
  let statementStart = 0;
  let bodyStart = 0;
  let path: string | null = null;
  // `new` as the last token read.
  let afterNew = false;
  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === SLASH && source.charCodeAt(i + 1) === SLASH) {
      const newline = source.indexOf('\n', i + 2);
      const end = newline < 0 ? n : newline;
      const license = licenseIn(source, i, end);
      if (license) yield license;
      i = end;
      continue;
    }
    if (c === SLASH && source.charCodeAt(i + 1) === STAR) {
      const close = source.indexOf('*/', i + 2);
      const end = close < 0 ? n : close + 2;
      const license = licenseIn(source, i, end);
      if (license) yield license;
      i = end;
      continue;
    }
    // Any other token: a pending declaration keyword wants a name, `abstract` wants `contract`.
    const wasAbstract = abstractAt;
    abstractAt = -1;
    const wasNew = afterNew;
    afterNew = false;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      keyword = null;
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = source.charCodeAt(j);
        if (d === c) {
          closed = true;
          break;
        }
        if (d === LF || d === CR) break;
        j += d === BACKSLASH ? 2 : 1;
      }
      if (statement === 'import' && path === null && closed) path = source.slice(i + 1, j);
      i = closed ? j + 1 : Math.min(j, n);
      continue;
    }
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(source.charCodeAt(j))) j++;
      // Only a name, or a word as long as one of the keywords, is worth a string.
      const length = j - i;
      if (length === 3 && source.startsWith('new', i)) {
        afterNew = true;
      } else if (wasNew && !isDigit(c) && !ELEMENTARY_TYPE.test(source.slice(i, Math.min(j, i + 16)))) {
        yield { kind: 'creation', start: i, end: j };
      } else if ((length === 12 || length === 11) && (source.startsWith('creationCode', i) || source.startsWith('runtimeCode', i))) {
        yield { kind: 'creation', start: i, end: j };
      }
      const word: string = isDigit(c) || (keyword === null && (length < 6 || length > 9)) ? '' : source.slice(i, j);
      if (word === 'contract' || word === 'library' || word === 'interface') {
        keyword = word;
        isAbstract = word === 'contract' && wasAbstract >= 0;
        keywordStart = isAbstract ? wasAbstract : i;
        statement = null;
      } else if (keyword !== null && word !== '') {
        yield { kind: 'declaration', keyword, name: word, abstract: isAbstract, start: keywordStart, end: j };
        keyword = null;
      } else {
        keyword = null;
        if (word === 'abstract') abstractAt = i;
        else if (statement === null && (word === 'import' || word === 'pragma')) {
          statement = word;
          statementStart = i;
          bodyStart = j;
          path = null;
        }
      }
      i = j;
      continue;
    }
    keyword = null;
    if (c === SEMICOLON && statement !== null) {
      if (statement === 'pragma') yield { kind: 'pragma', body: source.slice(bodyStart, i).trim(), start: statementStart, end: i + 1 };
      else if (path !== null) yield { kind: 'import', path, start: statementStart, end: i + 1 };
      statement = null;
    }
    i++;
  }
}
