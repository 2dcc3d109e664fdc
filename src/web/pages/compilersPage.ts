import type { CompilerBuild, CompilerListing, CompilerListSourceName, CompilerListSourceState, VyperBuild, VyperListing } from '../../core/compilerListing.js';
import { type Html, html } from '../html.js';
import { layout, timeTag } from '../layout.js';

/** Rows shown at most; the search narrows a longer list (solc-bin lists thousands of nightlies). */
export const MAX_COMPILER_ROWS = 500;

const SOURCE_NAMES: Readonly<Record<CompilerListSourceName, string>> = { mirror: 'solc-bin mirror', npm: 'npm registry' };

export interface CompilersPageData {
  chainId: number;
  listing: CompilerListing;
  /** The search text (`?q=`), already trimmed and bounded. */
  query: string;
  /** Whether nightlies are shown (`?nightlies=1`). */
  nightlies: boolean;
}

/**
 * The builds the page shows: those whose version, long version or npm package contains the
 * query (ignoring case), nightlies only when asked for or searched by name.
 */
export function filterBuilds(builds: readonly CompilerBuild[], query: string, nightlies: boolean): CompilerBuild[] {
  const q = query.toLowerCase();
  const withNightlies = nightlies || q.includes('nightly');
  return builds.filter(
    (b) => (withNightlies || !b.nightly) && (q === '' || [b.version, b.longVersion ?? '', b.npmPackage ?? ''].some((text) => text.toLowerCase().includes(q))),
  );
}

/** `/compilers`: the compilers the service can use, searchable on the server (`?q=`). */
export function compilersPage(data: CompilersPageData): Html {
  const matching = filterBuilds(data.listing.builds, data.query, data.nightlies);
  const shown = matching.slice(0, MAX_COMPILER_ROWS);
  return layout(
    { title: 'Compilers', chainId: data.chainId },
    html`<h1>Compilers</h1>
<div class="card">
<p>Every solc version from v0.4.11 this service can verify with: those in its compiler cache, and those its sources offer
(it downloads them on first use). Send the <em>compilerversion</em> column as <span class="mono">compilerversion</span>.
The same list as JSON: <a href="/compilers.json">/compilers.json</a>.</p>
${sourcesFacts(data.listing)}
</div>
<form class="compiler-search" action="/compilers" method="get" role="search">
<input type="search" name="q" value="${data.query}" placeholder="Version, e.g. 0.8.2" aria-label="Search compilers" maxlength="80">
<label><input type="checkbox" name="nightlies" value="1"${data.nightlies ? html` checked` : ''}> nightlies</label>
<button type="submit">Search</button>
</form>
<p class="muted">${countText(matching.length, shown.length, data.listing.builds.length)}</p>
${shown.length ? buildTable(shown) : ''}
${data.listing.vyper ? vyperSection(data.listing.vyper, data.query, Date.parse(data.listing.generatedAt)) : ''}`,
  );
}

/** The Vyper releases (send vyper-json or a .vy file with the compilerversion shown), narrowed by the same search. */
function vyperSection(vyper: VyperListing, query: string, now: number): Html {
  const q = query.toLowerCase();
  const builds = vyper.builds.filter((b) => q === '' || [b.version, b.longVersion ?? '', b.compilerVersion].some((text) => text.toLowerCase().includes(q)));
  return html`<h2 id="vyper">Vyper</h2>
<div class="card">
<p>Vyper releases from 0.2.5 (the first that reads a standard JSON input): send the sources as <span class="mono">vyper-json</span>
or one <span class="mono">.vy</span> file, with the <em>compilerversion</em> column as <span class="mono">compilerversion</span>.</p>
<dl class="facts"><dt>release list</dt><dd>${vyper.mirror ? sourceState(vyper.mirror, now) : html`<span class="muted">not configured (installed compilers only)</span>`}</dd></dl>
</div>
<p class="muted">${builds.length} of ${vyper.builds.length} Vyper releases.</p>
${builds.length ? vyperTable(builds) : ''}`;
}

function vyperTable(builds: readonly VyperBuild[]): Html {
  return html`<div class="table-wrap"><table class="compilers">
<thead><tr><th>Version</th><th>compilerversion</th><th>Commit</th><th>Cached here</th><th>Sources</th></tr></thead>
<tbody>
${builds.map(
  (b) => html`<tr>
<td>${b.version}${b.prerelease ? html` <span class="badge info">prerelease</span>` : ''}</td>
<td class="mono">${b.compilerVersion}</td>
<td class="mono">${b.longVersion ?? html`<span class="muted">not known yet</span>`}</td>
<td>${b.cached ? html`<span class="badge ok">installed</span>` : b.sources.length ? html`<span class="muted">downloaded on first use</span>` : html`<span class="badge warn">no source has it now</span>`}</td>
<td>${b.sources.length ? b.sources.join(', ') : html`<span class="muted">none</span>`}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}

function countText(matching: number, shown: number, total: number): string {
  if (matching === 0) return `No compiler matches (of ${total}).`;
  if (shown < matching) return `Showing the newest ${shown} of ${matching} matching; narrow the search to see others.`;
  return `${matching} of ${total} builds.`;
}

function sourcesFacts(listing: CompilerListing): Html {
  const rows = (['mirror', 'npm'] as const).map((name) => {
    const state = listing.sources[name];
    return html`<dt>${SOURCE_NAMES[name]}</dt><dd>${state ? sourceState(state, Date.parse(listing.generatedAt)) : html`<span class="muted">not configured</span>`}</dd>`;
  });
  return html`<dl class="facts">${rows}</dl>`;
}

function sourceState(state: CompilerListSourceState, now: number): Html {
  const fetched =
    state.fetchedAt === null
      ? html`<span class="muted">never reached yet</span>`
      : html`${state.builds} builds, list fetched ${timeTag(Date.parse(state.fetchedAt))} (${ageText(state.ageSeconds ?? Math.max(0, (now - Date.parse(state.fetchedAt)) / 1000))})`;
  const failed = state.error
    ? html`<div class="notice warn">The last refresh failed${state.failedAt ? html` at ${timeTag(Date.parse(state.failedAt))}` : ''}: ${state.error}</div>`
    : '';
  return html`<span class="mono">${state.url}</span>: ${fetched}${failed}`;
}

/** `3 minutes ago`, `2 hours ago`. */
export function ageText(seconds: number): string {
  const units: readonly [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'less than a minute ago';
}

function buildTable(builds: readonly CompilerBuild[]): Html {
  return html`<div class="table-wrap"><table class="compilers">
<thead><tr><th>Version</th><th>compilerversion</th><th>Cached here</th><th>Sources</th><th>npm package</th></tr></thead>
<tbody>
${builds.map(
  (b) => html`<tr>
<td>${b.version}${b.nightly ? html` <span class="badge info">nightly</span>` : ''}${b.known ? '' : html` <span class="badge warn" title="not in the release table: its commit comes from the sources">new</span>`}</td>
<td class="mono">${b.compilerVersion ?? html`<span class="muted">commit not known yet</span>`}</td>
<td>${b.cached ? html`<span class="badge ok">cached</span>` : b.sources.length ? html`<span class="muted">downloaded on first use</span>` : html`<span class="badge warn">no source has it now</span>`}</td>
<td>${b.sources.length ? b.sources.join(', ') : html`<span class="muted">none</span>`}</td>
<td class="mono">${b.npmPackage ?? html`<span class="muted">none</span>`}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}
