/**
 * The contract page's code: a file tree, each file highlighted with numbered, linkable lines
 * (`#f<file>-L<line>`), copy and download buttons; and the compiled creation and runtime code
 * with the regions the chain fills in marked (immutables, libraries, call protection, the
 * metadata hash, constructor arguments).
 *
 * A page holds at most PAGE_LINES lines and PAGE_BYTES of source: a contract whose files fit
 * shows them all; a larger one shows one file at a time (`?file=N`), and a file past the bounds
 * a part at a time (`?file=N&from=L`, lines L to L + PAGE_LINES - 1). Its line numbers and
 * anchors stay those of the whole file; the download has all of it. Sources are keyless to
 * submit (through the Sourcify API) and pages keyless to read, so neither a source's size nor
 * its line count may decide what a page view costs. The lines are found and highlighted a
 * slice at a time, giving way to other requests between slices (`prepareSources`).
 */
import type { Transformation, TransformationValues } from '../../verify/index.js';
import { escapeHtml, Html, html } from '../html.js';
import { highlightedLines, languageOfPath, MAX_HIGHLIGHT_BYTES } from '../sourceHighlight.js';

/** Up to this many files and bytes (and PAGE_LINES lines), every file is on the page; beyond, one at a time. */
export const ALL_FILES_MAX = 30;
export const ALL_FILES_MAX_BYTES = 256 * 1024;
/** Lines and bytes of source one page shows at most. */
export const PAGE_LINES = 8000;
export const PAGE_BYTES = 256 * 1024;
/** A line longer than this is shown cut (the download has it whole). */
export const LINE_MAX_CHARS = 20_000;
/** Lines found, or lines highlighted, between two turns of the event loop. */
const FIND_LINES_PER_TURN = 50_000;
const HIGHLIGHT_LINES_PER_TURN = 1000;
const HIGHLIGHT_BYTES_PER_TURN = 32 * 1024;

export interface SourceFile {
  path: string;
  content: string;
}

/** The part of a file a page shows. */
export interface ShownFile {
  index: number;
  path: string;
  /** The file's lines (a final newline ends the last line, it starts none). */
  totalLines: number;
  /** The first line shown (1-based) and each line shown, numbered and linkable (`lineMarkup`). */
  first: number;
  lines: Html[];
}

/** What the source view shows, found and highlighted ahead (`prepareSources`). */
export interface PreparedSources {
  paths: string[];
  /** Every file on the page, or only `current` (0-based). */
  all: boolean;
  current: number | null;
  /** With many files on the page, the one open besides the contract's own (`?file=`, 0-based). */
  opened: number;
  shown: ShownFile[];
}

/** Whether every file is rendered on the page, or only the chosen one. */
export function showsAllFiles(files: SourceFile[]): boolean {
  if (files.length > ALL_FILES_MAX || files.reduce((n, f) => n + f.content.length, 0) > ALL_FILES_MAX_BYTES) return false;
  // At most ALL_FILES_MAX_BYTES to count in: cheap.
  let lines = 0;
  for (const f of files) for (let at = f.content.indexOf('\n'); at >= 0 && lines <= PAGE_LINES; at = f.content.indexOf('\n', at + 1)) lines++;
  return lines + files.length <= PAGE_LINES;
}

/** Where a file's lines start (`from` onwards, within the page's bounds) and how many lines it has; gives way every FIND_LINES_PER_TURN lines. */
function* findLines(content: string, from: number): Generator<void, { total: number; starts: number[]; end: number; trailingNewline: boolean }> {
  const starts: number[] = [];
  let line = 1;
  let at = 0;
  let end = -1;
  for (;;) {
    if (line >= from && end < 0) {
      if (starts.length < PAGE_LINES && (starts.length === 0 || at - starts[0]! <= PAGE_BYTES)) starts.push(at);
      else end = at;
    }
    const next = content.indexOf('\n', at);
    if (next < 0) break;
    at = next + 1;
    line++;
    if (line % FIND_LINES_PER_TURN === 0) yield;
  }
  const trailingNewline = line > 1 && at === content.length;
  const total = trailingNewline ? line - 1 : line;
  // A final newline starts no line.
  if (trailingNewline && starts[starts.length - 1] === content.length) starts.pop();
  return { total, starts, end: end < 0 ? content.length : end, trailingNewline };
}

/** Whether the text of `content` before `upTo` leaves a block comment open (strings and line comments skipped). */
function* openComment(content: string, from: number, upTo: number, state: { inComment: boolean }): Generator<void> {
  let i = from;
  while (i < upTo) {
    if (state.inComment) {
      const close = content.indexOf('*/', i);
      if (close < 0 || close + 2 > upTo) {
        i = upTo;
        break;
      }
      state.inComment = false;
      i = close + 2;
      continue;
    }
    const c = content.charCodeAt(i);
    if (c === 0x2f && content.charCodeAt(i + 1) === 0x2f) {
      const eol = content.indexOf('\n', i);
      i = eol < 0 ? upTo : eol + 1;
    } else if (c === 0x2f && content.charCodeAt(i + 1) === 0x2a) {
      state.inComment = true;
      i += 2;
    } else if (c === 0x22 || c === 0x27) {
      // Solidity strings end at their quote or (unterminated) at the line's end.
      let j = i + 1;
      while (j < upTo) {
        const d = content.charCodeAt(j);
        if (d === 0x5c) j += 2;
        else if (d === c || d === 0x0a) break;
        else j++;
      }
      i = j + 1;
    } else i++;
  }
  yield;
}

/** The text of lines `starts[a..b)` of `content`, each line cut at LINE_MAX_CHARS; with how much each cut line lost. */
function linesText(content: string, starts: number[], a: number, b: number, end: number): { text: string; cut: Map<number, number> } {
  const parts: string[] = [];
  const cut = new Map<number, number>();
  for (let k = a; k < b; k++) {
    const from = starts[k]!;
    const to = k + 1 < starts.length ? starts[k + 1]! - 1 : Math.min(end, content.length);
    const stop = content.indexOf('\n', from);
    const lineEnd = stop < 0 || stop > to ? to : stop;
    if (lineEnd - from > LINE_MAX_CHARS) {
      cut.set(k, lineEnd - from - LINE_MAX_CHARS);
      parts.push(content.slice(from, from + LINE_MAX_CHARS));
    } else parts.push(content.slice(from, lineEnd));
  }
  return { text: parts.join('\n'), cut };
}

/** The shown part of one file: found, then highlighted a slice at a time (plain escaped text for a file past MAX_HIGHLIGHT_BYTES). */
function* showFile(file: SourceFile, index: number, from: number): Generator<void, ShownFile> {
  const { content } = file;
  let first = from;
  let found = yield* findLines(content, first);
  if (found.starts.length === 0) {
    // Past the end: the file's last part.
    first = Math.max(1, found.total - PAGE_LINES + 1);
    found = yield* findLines(content, first);
  }
  const { starts } = found;
  const highlight = content.length <= MAX_HIGHLIGHT_BYTES;
  const language = languageOfPath(file.path);
  const lines: Html[] = [];
  const comment = { inComment: false };
  let scanned = 0;
  for (let a = 0; a < starts.length; ) {
    // A slice: at most HIGHLIGHT_LINES_PER_TURN lines and HIGHLIGHT_BYTES_PER_TURN bytes (at least one line).
    let b = a + 1;
    while (b < starts.length && b - a < HIGHLIGHT_LINES_PER_TURN && starts[b]! - starts[a]! < HIGHLIGHT_BYTES_PER_TURN) b++;
    const { text, cut } = linesText(content, starts, a, b, found.end);
    let slice: Html[];
    if (highlight) {
      if (language === 'vyper') slice = highlightedLines(text, 'vyper');
      else {
        // A slice that starts inside a block comment is highlighted as one.
        yield* openComment(content, scanned, starts[a]!, comment);
        scanned = starts[a]!;
        slice = comment.inComment ? highlightedLines(`/*\n${text}`).slice(1) : highlightedLines(text);
      }
    } else slice = text.split('\n').map((line) => new Html(escapeHtml(line)));
    for (const [k, lost] of cut) {
      const at = k - a;
      slice[at] = html`${slice[at]!}<span class="muted cut"> … ${lost} more characters: download the file for the whole line</span>`;
    }
    for (let k = a; k < b; k++) lines.push(lineMarkup(`f${index + 1}`, first + k, slice[k - a]!, first + k < found.total || found.trailingNewline));
    a = b;
    yield;
  }
  return { index, path: file.path, totalLines: found.total, first, lines };
}

/**
 * A line of code: a block that ends with its own newline (a trailing newline in a block adds no
 * second line), so the code's text is the file's and every line takes one line's height.
 */
function lineMarkup(id: string, n: number, line: Html, newline: boolean): Html {
  const lineId = `${id}-L${n}`;
  return html`<span class="line" id="${lineId}"><a class="ln" href="#${lineId}" data-n="${n}" aria-label="line ${n}"></a>${line}${newline ? '\n' : ''}</span>`;
}

function* prepareSteps(files: SourceFile[], chosen: number | null, from: number | null): Generator<void, PreparedSources> {
  const all = showsAllFiles(files);
  const current = all ? null : chosen !== null && chosen >= 1 && chosen <= files.length ? chosen - 1 : 0;
  const shown: ShownFile[] = [];
  if (current === null) for (const [i, f] of files.entries()) shown.push(yield* showFile(f, i, 1));
  else if (files[current]) shown.push(yield* showFile(files[current], current, Math.max(1, from ?? 1)));
  const opened = chosen !== null && chosen >= 1 && chosen <= files.length ? chosen - 1 : 0;
  return { paths: files.map((f) => f.path), all, current, opened, shown };
}

/**
 * What the source view shows of `files`: all of them, or the chosen one (`?file=`, 1-based)
 * from line `from` on. Lines are found and highlighted a slice at a time, with a turn of the
 * event loop between slices, so a large source delays other requests by a slice at most.
 */
export async function prepareSources(files: SourceFile[], chosen: number | null, from: number | null): Promise<PreparedSources> {
  const steps = prepareSteps(files, chosen, from);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** prepareSources without giving way (for pages built at once: tests, small sources). */
export function prepareSourcesNow(files: SourceFile[], chosen: number | null, from: number | null): PreparedSources {
  const steps = prepareSteps(files, chosen, from);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

interface TreeNode {
  dirs: Map<string, TreeNode>;
  files: { name: string; index: number }[];
}

function buildTree(paths: string[]): TreeNode {
  const root: TreeNode = { dirs: new Map(), files: [] };
  paths.forEach((path, index) => {
    const parts = path.split('/');
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      let next = node.dirs.get(dir);
      if (!next) node.dirs.set(dir, (next = { dirs: new Map(), files: [] }));
      node = next;
    }
    node.files.push({ name: parts[parts.length - 1]!, index });
  });
  return root;
}

function renderTree(node: TreeNode, link: (index: number) => string, current: number | null): Html {
  const dirs = [...node.dirs.entries()].sort(([a], [b]) => a.localeCompare(b));
  return html`<ul>${dirs.map(([name, child]) => html`<li class="dir"><span>${name}/</span>${renderTree(child, link, current)}</li>`)}${node.files.map(
    (f) => html`<li class="file-link"><a href="${link(f.index)}"${f.index === current ? html` aria-current="true"` : ''}>${f.name}</a></li>`,
  )}</ul>`;
}

/** Beyond this many files, only the contract's own file (and one asked for) is open; the others open on demand. */
export const OPEN_FILES_MAX = 3;

/** Links to the parts before and after the one shown, when the file does not fit on a page. */
function partLinks(file: ShownFile): Html | string {
  const last = file.first + file.lines.length - 1;
  if (file.first === 1 && last >= file.totalLines) return '';
  const id = `f${file.index + 1}`;
  const part = (from: number, text: Html) => html`<a href="?file=${file.index + 1}&amp;from=${from}#${id}-L${from}">${text}</a>`;
  const before = Math.max(1, file.first - PAGE_LINES);
  return html`<nav class="source-parts muted">${file.first > 1 ? html`${part(before, html`‹ lines ${before}–${file.first - 1}`)} · ` : ''}lines ${file.first}–${last} of ${file.totalLines}${last < file.totalLines ? html` · ${part(last + 1, html`lines ${last + 1}–${Math.min(file.totalLines, last + PAGE_LINES)} ›`)}` : ''}</nav>`;
}

/** One file: open, or (`folded`) a summary line that opens it. */
function fileBlock(address: string, file: ShownFile, count: number, folded: 'open' | 'folded' | 'plain'): Html {
  const { index, lines, first, totalLines } = file;
  const id = `f${index + 1}`;
  const partial = first > 1 || first + lines.length - 1 < totalLines;
  const head = html`<div class="file-head"><span class="mono">${file.path}</span><span class="file-actions"><span class="muted">File ${index + 1} of ${count} · ${totalLines} lines${partial ? html` (${first}–${first + lines.length - 1} shown)` : ''}</span>
<button type="button" class="secondary small js-only" data-copy="#${id}-code" hidden>Copy${partial ? ' these lines' : ''}</button>
<a class="small" href="/address/${address}/source/${index + 1}" download>Download</a></span></div>`;
  const parts = partLinks(file);
  return html`${
    folded === 'plain'
      ? html`<div class="file" id="${id}">
${head}`
      : html`<details class="file" id="${id}"${folded === 'open' ? html` open` : ''}><summary>${head}</summary>`
  }
${parts}<pre class="source numbered"><code id="${id}-code" class="language-${languageOfPath(file.path)}">${lines}</code></pre>${parts}
${folded === 'plain' ? html`</div>` : html`</details>`}`;
}

/** The file tree and the files prepared by `prepareSources` (all of them, or a part of the chosen one). */
export function sourceView(address: string, prepared: PreparedSources): Html {
  const { paths, all, current, opened, shown } = prepared;
  const count = paths.length;
  const link = (i: number) => (all ? `#f${i + 1}` : `?file=${i + 1}#f${i + 1}`);
  // Many files on the page: the contract's own file open, the others folded (a link or `?file=N` opens one).
  const fold = all && count > OPEN_FILES_MAX;
  return html`<div class="source-layout${count > 1 ? ' with-tree' : ''}">
${count > 1 ? html`<nav class="file-tree" aria-label="Files">${renderTree(buildTree(paths), link, current)}</nav>` : ''}
<div class="files">
${current !== null && count > 1 ? html`<p class="muted">${count} files: one is shown at a time; choose another in the tree.</p>` : ''}
${fold ? html`<p class="muted">${count} files: the contract's own file is open; open the others below or in the tree.</p>` : ''}
${shown.map((f) => fileBlock(address, f, count, !fold ? 'plain' : f.index === 0 || f.index === opened ? 'open' : 'folded'))}
</div>
</div>`;
}

const REGION_LENGTH: Readonly<Record<string, number>> = { immutable: 32, library: 20, callProtection: 20 };
const REGION_LABEL: Readonly<Record<string, string>> = {
  immutable: 'immutable value',
  library: 'library address',
  callProtection: 'library call protection (its own address)',
  cborAuxdata: 'metadata hash (CBOR auxdata)',
  constructorArguments: 'constructor arguments',
};

/** The value the chain holds where `t` applies: one of the part's values, or one of a group by the transformation's id. */
function regionValue(t: Transformation, values: TransformationValues): string {
  switch (t.reason) {
    case 'constructorArguments':
    case 'callProtection':
      return values[t.reason] ?? '';
    case 'cborAuxdata':
      return (t.id !== undefined ? values.cborAuxdata?.[t.id] : undefined) ?? '';
    case 'immutable':
      return (t.id !== undefined ? values.immutables?.[t.id] : undefined) ?? '';
    case 'library':
      return (t.id !== undefined ? values.libraries?.[t.id] : undefined) ?? '';
  }
}

/**
 * How many bytes a transformation covers: as stored, else by its kind, else (an auxdata replaced
 * in Sourcify's vocabulary names no length) the length of the value the chain holds there.
 */
function regionLength(t: Transformation, values: TransformationValues): number {
  if (t.length !== undefined) return t.length;
  const fixed = REGION_LENGTH[t.reason];
  if (fixed !== undefined) return fixed;
  const value = regionValue(t, values);
  return /^0x[0-9a-fA-F]*$/.test(value) ? (value.length - 2) / 2 : 0;
}

/**
 * Code as hex with the transformed regions marked; each mark says what the chain holds there.
 * `appended` is code the chain has after the compiled code (the constructor arguments).
 */
export function markedCode(code: string, transformations: readonly Transformation[], values: TransformationValues, appended = ''): Html {
  const regions = transformations
    .filter((t) => t.type !== 'insert' && t.reason !== 'constructorArguments')
    .map((t) => ({ t, from: t.offset * 2, to: (t.offset + regionLength(t, values)) * 2 }))
    .filter((r) => r.to > r.from && r.to <= code.length)
    .sort((a, b) => a.from - b.from);
  const parts: Html[] = [];
  let at = 0;
  for (const r of regions) {
    if (r.from < at) continue;
    parts.push(html`${code.slice(at, r.from)}`);
    const value = regionValue(r.t, values);
    const title = `${REGION_LABEL[r.t.reason] ?? r.t.reason}${r.t.id !== undefined ? ` ${r.t.id}` : ''} at byte ${r.t.offset}${value ? `; on chain: ${value}` : ''}`;
    parts.push(html`<mark class="t-${r.t.reason}" title="${title}">${code.slice(r.from, r.to)}</mark>`);
    at = r.to;
  }
  parts.push(html`${code.slice(at)}`);
  if (appended) parts.push(html`<mark class="t-constructorArguments" title="${REGION_LABEL['constructorArguments']!}">${appended}</mark>`);
  const legend = [...new Set(regions.map((r) => r.t.reason).concat(appended ? ['constructorArguments'] : []))];
  return html`<pre class="bytecode">${parts}</pre>${legend.length ? html`<p class="legend">${legend.map((reason) => html`<mark class="t-${reason}">${REGION_LABEL[reason] ?? reason}</mark> `)}</p>` : html`<p class="muted">Identical to the code on chain: nothing is filled in at deployment.</p>`}`;
}
