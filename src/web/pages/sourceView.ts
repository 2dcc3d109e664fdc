/**
 * The contract page's code: a file tree, each file highlighted with numbered, linkable lines
 * (`#f<file>-L<line>`), copy and download buttons; and the compiled creation and runtime code
 * with the regions the chain fills in marked (immutables, libraries, call protection, the
 * metadata hash, constructor arguments). A contract with many or large files shows one file at
 * a time (`?file=N`), so its page stays small.
 */
import type { Transformation, TransformationValues } from '../../verify/index.js';
import { type Html, html } from '../html.js';
import { highlightSolidityLines } from '../solidityHighlight.js';

/** Up to this many files and bytes, every file is on the page; beyond, one at a time. */
export const ALL_FILES_MAX = 30;
export const ALL_FILES_MAX_BYTES = 256 * 1024;

export interface SourceFile {
  path: string;
  content: string;
}

/** Whether every file is rendered on the page, or only the chosen one. */
export function showsAllFiles(files: SourceFile[]): boolean {
  return files.length <= ALL_FILES_MAX && files.reduce((n, f) => n + f.content.length, 0) <= ALL_FILES_MAX_BYTES;
}

interface TreeNode {
  dirs: Map<string, TreeNode>;
  files: { name: string; index: number }[];
}

function buildTree(files: SourceFile[]): TreeNode {
  const root: TreeNode = { dirs: new Map(), files: [] };
  files.forEach((f, index) => {
    const parts = f.path.split('/');
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

/** One file: open, or (`folded`) a summary line that opens it. */
function fileBlock(address: string, file: SourceFile, index: number, count: number, folded: 'open' | 'folded' | 'plain'): Html {
  const id = `f${index + 1}`;
  const lines = highlightSolidityLines(file.content);
  // A file that ends with a newline has no empty last line to show: its newline ends the line before.
  const trailingNewline = lines.length > 1 && file.content.endsWith('\n');
  if (trailingNewline) lines.pop();
  const head = html`<div class="file-head"><span class="mono">${file.path}</span><span class="file-actions"><span class="muted">File ${index + 1} of ${count} · ${lines.length} lines</span>
<button type="button" class="secondary small js-only" data-copy="#${id}-code" hidden>Copy</button>
<a class="small" href="/address/${address}/source/${index + 1}" download>Download</a></span></div>`;
  return html`${
    folded === 'plain'
      ? html`<div class="file" id="${id}">
${head}`
      : html`<details class="file" id="${id}"${folded === 'open' ? html` open` : ''}><summary>${head}</summary>`
  }
<pre class="source numbered"><code id="${id}-code" class="language-solidity">${lines.map(
    // Each line is a block that ends with its own newline (a trailing newline in a block adds no
    // second line), so the code's text is the file's and every line takes one line's height.
    (line, n) =>
      html`<span class="line" id="${id}-L${n + 1}"><a class="ln" href="#${id}-L${n + 1}" data-n="${n + 1}" aria-label="line ${n + 1}"></a>${line}${n < lines.length - 1 || trailingNewline ? '\n' : ''}</span>`,
  )}</code></pre>
${folded === 'plain' ? html`</div>` : html`</details>`}`;
}

/** The file tree and the files (all of them, or the one chosen by `?file=`, 1-based). */
export function sourceView(address: string, files: SourceFile[], chosen: number | null): Html {
  const all = showsAllFiles(files);
  const current = all ? null : chosen !== null && chosen >= 1 && chosen <= files.length ? chosen - 1 : 0;
  const link = (i: number) => (all ? `#f${i + 1}` : `?file=${i + 1}#f${i + 1}`);
  const shown = current === null ? files.map((f, i) => ({ f, i })) : [{ f: files[current]!, i: current }];
  // Many files on the page: the contract's own file open, the others folded (a link or `?file=N` opens one).
  const fold = current === null && files.length > OPEN_FILES_MAX;
  const opened = chosen !== null && chosen >= 1 && chosen <= files.length ? chosen - 1 : 0;
  return html`<div class="source-layout${files.length > 1 ? ' with-tree' : ''}">
${files.length > 1 ? html`<nav class="file-tree" aria-label="Files">${renderTree(buildTree(files), link, current)}</nav>` : ''}
<div class="files">
${current !== null ? html`<p class="muted">${files.length} files: one is shown at a time; choose another in the tree.</p>` : ''}
${fold ? html`<p class="muted">${files.length} files: the contract's own file is open; open the others below or in the tree.</p>` : ''}
${shown.map(({ f, i }) => fileBlock(address, f, i, files.length, !fold ? 'plain' : i === 0 || i === opened ? 'open' : 'folded'))}
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
