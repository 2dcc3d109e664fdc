import { LICENSES } from '../../core/licenses.js';
import type { ListFilter, VerifiedContractSummary } from '../../useCases/index.js';
import { type Html, html } from '../html.js';
import { layout } from '../layout.js';
import { contractTable } from './contractTable.js';

/** The query string of a filter (with `after` when given), for links that keep it. */
function listQuery(filter: ListFilter, after?: string): string {
  const q = new URLSearchParams();
  if (filter.name) q.set('q', filter.name);
  if (filter.compiler) q.set('compiler', filter.compiler);
  if (filter.license !== undefined) q.set('license', String(filter.license));
  if (filter.matchKind) q.set('match', filter.matchKind);
  if (after) q.set('after', after);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** `/contracts` (newest first), `?after=<cursor>` (the rows after a position), searched by name and filtered. */
export function contractListPage(data: {
  chainId: number;
  contracts: readonly VerifiedContractSummary[];
  /** True on the first page. */
  newest: boolean;
  /** The Older link's position, or null on the last page. */
  older: string | null;
  /** Every verified contract (null for a filtered list, which is not counted). */
  total: number | null;
  filter?: ListFilter;
  /** Long compiler versions offered in the filter. */
  compilers?: string[];
  /** The listed addresses that are proxies (marked in the list). */
  proxies?: ReadonlySet<string>;
}): Html {
  const filter = data.filter ?? {};
  const filtered = Object.keys(filter).length > 0;
  const pager = html`<div class="pager">
${data.newest ? html`<span class="muted">← Newest</span>` : html`<a href="/contracts${listQuery(filter)}">← Newest</a>`}
${data.older ? html`<a href="/contracts${listQuery(filter, data.older)}">Older →</a>` : html`<span class="muted">Older →</span>`}
</div>`;
  const shown =
    data.contracts.length === 0
      ? filtered
        ? 'No verified contract matches.'
        : 'No contracts on this page.'
      : filtered
        ? `${data.contracts.length} matching contract${data.contracts.length === 1 ? '' : 's'}${data.newest ? ', newest first' : ', verified before those on the pages above'}.`
        : data.newest
          ? `The newest ${data.contracts.length} of ${data.total ?? 0} verified contracts.`
          : `${data.contracts.length} of ${data.total ?? 0} verified contracts, verified before those on the pages above.`;
  const selected = (on: boolean): Html => (on ? html` selected` : html``);
  return layout(
    { title: filtered ? `Verified contracts: ${filter.name ?? 'filtered'}` : 'Verified contracts', chainId: data.chainId },
    html`<h1>Verified contracts</h1>
<form class="list-filter" method="get" action="/contracts" role="search">
<label>Name <input type="search" name="q" value="${filter.name ?? ''}" placeholder="e.g. MyToken" maxlength="256" spellcheck="false"></label>
<label>Compiler <input type="text" name="compiler" list="filter-compilers" value="${filter.compiler ?? ''}" placeholder="any" spellcheck="false" autocomplete="off">
<datalist id="filter-compilers">${(data.compilers ?? []).map((c) => html`<option value="${c}"></option>`)}</datalist></label>
<label>Licence <select name="license"><option value="">any</option>${Object.entries(LICENSES).map(([code, name]) => html`<option value="${code}"${selected(filter.license === Number(code))}>${name}</option>`)}</select></label>
<label>Match <select name="match"><option value="">any</option><option value="full"${selected(filter.matchKind === 'full')}>full</option><option value="partial"${selected(filter.matchKind === 'partial')}>partial</option></select></label>
<button type="submit">Filter</button>${filtered ? html` <a href="/contracts">Clear</a>` : ''}
</form>
<p class="muted">${shown} <a href="/verified-contracts.csv">Download the open-source licensed ones as CSV</a>.</p>
${pager}
${contractTable(data.contracts, data.proxies)}
${pager}`,
  );
}
