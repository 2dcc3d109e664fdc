import { licenseName } from '../../core/licenses.js';
import type { VerifiedContractSummary } from '../../store/verifiedContracts.js';
import { type Html, html } from '../html.js';
import { addressLink, timeTag } from '../layout.js';

/** A table of verified contracts (the list page and the home page's latest ones). */
export function contractTable(contracts: readonly VerifiedContractSummary[]): Html {
  if (contracts.length === 0) return html`<p class="muted">No verified contracts yet.</p>`;
  return html`<div class="table-wrap"><table class="contracts">
<thead><tr><th>Address</th><th>Contract name</th><th>Compiler</th><th>Licence</th><th>Match</th><th>Verified</th></tr></thead>
<tbody>
${contracts.map(
  (c) => html`<tr>
<td>${addressLink(c.address)}</td>
<td>${c.contractName}</td>
<td class="mono">${c.compilerVersion}</td>
<td>${licenseName(c.licenseType)}</td>
<td><span class="badge ${c.matchKind === 'full' ? 'ok' : 'warn'}">${c.matchKind}</span></td>
<td>${timeTag(c.verifiedAt)}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}
