import type { VerifiedContractSummary } from '../../store/verifiedContracts.js';
import { html, type Html } from '../html.js';
import { layout } from '../layout.js';
import { contractTable } from './contractTable.js';

/** `/contracts?page=N`: the public list, newest first. */
export function contractListPage(data: {
  chainId: number;
  contracts: readonly VerifiedContractSummary[];
  page: number;
  pageSize: number;
  total: number;
}): Html {
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const first = data.total === 0 ? 0 : Math.min(data.total, (data.page - 1) * data.pageSize + 1);
  const last = Math.min(data.total, data.page * data.pageSize);
  const pager = html`<div class="pager">
${data.page > 1 ? html`<a href="/contracts?page=${data.page - 1}">← Newer</a>` : html`<span class="muted">← Newer</span>`}
<span>Page ${data.page} of ${pages}</span>
${data.page < pages ? html`<a href="/contracts?page=${data.page + 1}">Older →</a>` : html`<span class="muted">Older →</span>`}
</div>`;
  return layout(
    { title: 'Verified contracts', chainId: data.chainId },
    html`<h1>Verified contracts</h1>
<p class="muted">${first > last ? 'No contracts on this page.' : `Showing ${first} to ${last} of ${data.total}.`} <a href="/verified-contracts.csv">Download the open-source licensed ones as CSV</a>.</p>
${pager}
${contractTable(data.contracts)}
${pager}`,
  );
}
