import { licenseName } from '../../core/licenses.js';
import type { VerifiedContractSummary } from '../../useCases/index.js';
import { type Html, html } from '../html.js';
import { addressLink, timeTag } from '../layout.js';

/** A table of verified contracts (the list page and the home page's latest ones). */
export function contractTable(contracts: readonly VerifiedContractSummary[], proxies: ReadonlySet<string> = new Set()): Html {
  if (contracts.length === 0) return html`<p class="muted">No verified contracts yet.</p>`;
  return html`<div class="table-wrap"><table class="contracts">
<thead><tr><th>Address</th><th>Contract name</th><th>Compiler</th><th>Licence</th><th>Match</th><th>Verified</th></tr></thead>
<tbody>
${contracts.map(
  (c) => html`<tr>
<td data-label="Address">${addressLink(c.address)}</td>
<td data-label="Contract name" class="ident-cell">${c.contractName}</td>
<td data-label="Compiler" class="mono">${c.compilerVersion}</td>
<td data-label="Licence">${licenseName(c.licenseType)}</td>
<td data-label="Match"><span class="badge ${c.matchKind === 'full' ? 'ok' : 'warn'}">${c.matchKind}</span>${c.method === 'similar' ? html`<span class="badge info" title="Verified as a copy of another verified contract (same compiled code)">similar</span>` : ''}${proxies.has(c.address.toLowerCase()) ? html`<span class="badge info" title="A proxy: Read/Write as Proxy on its page">proxy</span>` : ''}</td>
<td data-label="Verified">${timeTag(c.verifiedAt)}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}
