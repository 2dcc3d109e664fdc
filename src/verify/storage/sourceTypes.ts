/**
 * The types a storage read needs from Solidity sources, read without compiling: enums (to
 * name a value), structs marked `@custom:storage-location erc7201:<id>` (ERC-7201 namespaces,
 * which solc's storage layout does not list), the structs and user-defined value types their
 * members use, and the names of contracts and interfaces (stored as addresses).
 *
 * Comments and strings are blanked in one pass (as solc's scanner skips them) before
 * declarations are looked for, so a keyword inside either is not taken; what stands between
 * braces is read with patterns that cannot backtrack over more than one declaration.
 */

export interface SourceStruct {
  name: string;
  /** Each member's type as written (`mapping(address => uint256)`, `uint64`) and name. */
  members: { type: string; name: string }[];
}

export interface SourceTypes {
  enums: Map<string, string[]>;
  structs: Map<string, SourceStruct>;
  /** User-defined value types and the elementary type under each. */
  valueTypes: Map<string, string>;
  /** Contracts, interfaces and libraries by name. */
  contracts: Set<string>;
  /** Each contract's, interface's and library's direct bases, as its header names them. */
  bases: Map<string, string[]>;
  /**
   * The structs an ERC-7201 annotation marks, in the sources' order: the namespace id, the
   * struct, and the contract declaring it (null for a struct at file level).
   */
  namespaces: { id: string; struct: string; container: string | null; members: SourceStruct['members'] }[];
}

const MARKER = '@custom:storage-location';
/** At most this many characters of sources are read (beyond, the rest is not looked at). */
const MAX_SOURCE_CHARS = 4_000_000;

/** The code of a source with comments and strings turned to spaces (offsets kept), and the annotated comments' texts with their end offsets. */
function blank(text: string): { code: string; comments: { text: string; end: number }[] } {
  const parts: string[] = [];
  const comments: { text: string; end: number }[] = [];
  let copied = 0;
  let i = 0;
  const blankTo = (from: number, end: number): void => {
    parts.push(text.slice(copied, from), ' '.repeat(end - from));
    copied = end;
  };
  while (i < text.length) {
    // Only a slash or a quote starts what is blanked: the text between is copied whole.
    const next = nextSpecial(text, i);
    if (next < 0) break;
    i = next;
    const c = text.charCodeAt(i);
    if (c === SLASH) {
      const after = text.charCodeAt(i + 1);
      if (after !== SLASH && after !== STAR) {
        i++;
        continue;
      }
      const block = after === STAR;
      const close = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i + 2);
      const end = close < 0 ? text.length : block ? close + 2 : close;
      const comment = text.slice(i, end);
      if (comment.includes(MARKER)) comments.push({ text: comment, end });
      blankTo(i, end);
      i = end;
      continue;
    }
    let j = i + 1;
    while (j < text.length && text.charCodeAt(j) !== c && text.charCodeAt(j) !== LF) j += text.charCodeAt(j) === BACKSLASH ? 2 : 1;
    const end = Math.min(j + 1, text.length);
    blankTo(i, end);
    i = end;
  }
  parts.push(text.slice(copied));
  return { code: parts.join(''), comments };
}

const SLASH = 0x2f;
const STAR = 0x2a;
const LF = 0x0a;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const SPECIAL = /[/"']/g;

/** The offset of the next slash or quote from `from`, or -1. */
function nextSpecial(text: string, from: number): number {
  SPECIAL.lastIndex = from;
  return SPECIAL.exec(text)?.index ?? -1;
}

/** The declarations of `sources` a storage read uses. */
export function sourceTypes(sources: readonly { content: string }[]): SourceTypes {
  const found: SourceTypes = { enums: new Map(), structs: new Map(), valueTypes: new Map(), contracts: new Set(), bases: new Map(), namespaces: [] };
  const ambiguousEnums = new Set<string>();
  let budget = MAX_SOURCE_CHARS;
  for (const source of sources) {
    if (source.content.length > budget) break;
    budget -= source.content.length;
    const { code, comments } = blank(source.content);
    for (const m of code.matchAll(/\benum\s+([A-Za-z_$][\w$]*)\s*\{([^{}]*)\}/g)) {
      const names = m[2]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const known = found.enums.get(m[1]!);
      if (known && known.join(',') !== names.join(',')) ambiguousEnums.add(m[1]!);
      found.enums.set(m[1]!, names);
    }
    const structsAt = new Map<number, SourceStruct>();
    for (const m of code.matchAll(/\bstruct\s+([A-Za-z_$][\w$]*)\s*\{([^{}]*)\}/g)) {
      const struct = { name: m[1]!, members: structMembers(m[2]!) };
      structsAt.set(m.index, struct);
      if (!found.structs.has(m[1]!)) found.structs.set(m[1]!, struct);
    }
    const declarations = topLevelDeclarations(code);
    for (const d of declarations) if (!found.bases.has(d.name)) found.bases.set(d.name, d.bases);
    for (const m of code.matchAll(/\btype\s+([A-Za-z_$][\w$]*)\s+is\s+([A-Za-z_$][\w$]*)\s*;/g)) found.valueTypes.set(m[1]!, m[2]!);
    for (const m of code.matchAll(/\b(?:contract|interface|library)\s+([A-Za-z_$][\w$]*)/g)) found.contracts.add(m[1]!);
    for (const comment of comments) {
      const id = /@custom:storage-location\s+erc7201:([^\s*]+)/.exec(comment.text)?.[1];
      if (!id) continue;
      // The struct the comment documents: the next declaration after it, with only blanks between.
      const after = /^\s*struct\b/.exec(code.slice(comment.end, comment.end + 4096));
      const struct = after ? structsAt.get(comment.end + after[0].length - 6) : undefined;
      if (!struct) continue;
      const container = declarations.find((d) => d.start < comment.end && comment.end < d.end)?.name ?? null;
      found.namespaces.push({ id, struct: struct.name, container, members: struct.members });
    }
  }
  for (const name of ambiguousEnums) found.enums.delete(name);
  return found;
}

/** A struct's members from what stands between its braces. */
function structMembers(body: string): SourceStruct['members'] {
  return body
    .split(';')
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .map((member) => {
      const at = /^(.*?)\s*\b([A-Za-z_$][\w$]*)$/.exec(member);
      return at ? { type: at[1]!.trim(), name: at[2]! } : { type: member, name: '?' };
    });
}

/** The contracts, interfaces and libraries declared at file level: name, bases, and where the declaration starts and its body ends. */
function topLevelDeclarations(code: string): { name: string; bases: string[]; start: number; end: number }[] {
  const headers = [...code.matchAll(/\b(?:contract|interface|library)\s+([A-Za-z_$][\w$]*)([^{;]*)\{/g)];
  const out: { name: string; bases: string[]; start: number; end: number }[] = [];
  let open: { name: string; bases: string[]; start: number } | null = null;
  let depth = 0;
  let next = 0;
  for (let i = 0; i < code.length; i++) {
    const header = headers[next];
    if (header && i === header.index) {
      next++;
      if (depth === 0) {
        open = { name: header[1]!, bases: baseNames(header[2]!), start: i };
        i += header[0].length - 2; // to just before the body's brace
        continue;
      }
    }
    while (headers[next] && headers[next]!.index < i) next++;
    const c = code.charCodeAt(i);
    if (c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACE && depth > 0) {
      depth--;
      if (depth === 0 && open) {
        out.push({ ...open, end: i });
        open = null;
      }
    }
  }
  return out;
}

/** The names after `is` in a declaration's header (`is A, B(1, 2), lib.C`), each without its path. */
function baseNames(header: string): string[] {
  const at = /^\s*is\b/.exec(header);
  if (!at) return [];
  let text = header.slice(at[0].length);
  // Arguments given to a base's constructor are not names.
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/\([^()]*\)/g, '');
  }
  return text
    .split(',')
    .map((part) => /([A-Za-z_$][\w$]*)\s*$/.exec(part.trim())?.[1])
    .filter((name): name is string => name !== undefined);
}
