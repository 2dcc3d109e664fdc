import type { VerifiedContractSummary } from '../../store/verifiedContracts.js';
import { html, type Html } from '../html.js';
import { layout } from '../layout.js';
import { contractTable } from './contractTable.js';

/** `/contracts` (newest first) and `/contracts?after=<cursor>` (the rows after a position). */
export function contractListPage(data: {
  chainId: number;
  contracts: readonly VerifiedContractSummary[];
  /** True on the first page. */
  newest: boolean;
  /** The Older link's position, or null on the last page. */
  older: string | null;
  total: number;
}): Html {
  const pager = html`<div class="pager">
${data.newest ? html`<span class="muted">← Newest</span>` : html`<a href="/contracts">← Newest</a>`}
${data.older ? html`<a href="/contracts?after=${data.older}">Older →</a>` : html`<span class="muted">Older →</span>`}
</div>`;
  const shown =
    data.contracts.length === 0
      ? 'No contracts on this page.'
      : data.newest
        ? `The newest ${data.contracts.length} of ${data.total} verified contracts.`
        : `${data.contracts.length} of ${data.total} verified contracts, verified before those on the pages above.`;
  return layout(
    { title: 'Verified contracts', chainId: data.chainId },
    html`<h1>Verified contracts</h1>
<p class="muted">${shown} <a href="/verified-contracts.csv">Download the open-source licensed ones as CSV</a>.</p>
${pager}
${contractTable(data.contracts)}
${pager}`,
  );
}
