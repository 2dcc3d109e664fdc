import { incompatibilityText, upgradeRefusalText, upgradeVerdictText } from '../../texts/index.js';
import type { UpgradeCheck, UpgradeCheckAnswer } from '../../useCases/index.js';
import { type Html, html } from '../html.js';
import { addressLink, layout } from '../layout.js';

export interface UpgradeCheckPageData {
  chainId: number;
  proxy: string;
  /** The candidate as typed (shown back in the form), '' when none was given. */
  given: string;
  /** The earlier implementation to compare with, as typed; '' for the current one. */
  against?: string;
  /** The check, or null when no candidate was given; a text when the candidate is not an address. */
  answer: UpgradeCheckAnswer | string | null;
}

/**
 * `/address/<proxy>/upgrade-check`: a form for a candidate implementation, then the verdict in
 * words, each incompatibility naming its variable, and the ABI and source differences.
 */
export function upgradeCheckPage(data: UpgradeCheckPageData): Html {
  const proxy = data.proxy.toLowerCase();
  return layout(
    { title: `Upgrade check of ${proxy}`, chainId: data.chainId, query: proxy },
    html`<h1>Upgrade check</h1>
<div class="card">
<p>Whether a verified implementation may replace the one the proxy ${addressLink(proxy)} delegates to now (read from the chain: EIP-1967 slots, or the beacon), by the storage layout rules of OpenZeppelin's upgrades-core (storage gaps, ERC-7201 namespaces, renames and retypes it allows).</p>
<form class="upgrade-check" action="/address/${proxy}/upgrade-check" method="get">
<label for="implementation">Candidate implementation (verified address)</label>
<input id="implementation" name="implementation" value="${data.given}" placeholder="0x…" maxlength="66" required>
<label for="against">Compare with (an earlier implementation of the proxy; empty for the current one)</label>
<input id="against" name="against" value="${data.against ?? ''}" placeholder="0x…" maxlength="66">
<button type="submit">Check</button>
</form>
</div>
${result(data.answer)}`,
  );
}

function result(answer: UpgradeCheckAnswer | string | null): Html | string {
  if (answer === null) return '';
  if (typeof answer === 'string') return html`<p class="notice err">${answer}</p>`;
  if (!answer.ok) return html`<p class="notice err">${upgradeRefusalText(answer.refusal)}</p>`;
  const c = answer.check;
  const contractRow = (label: string, x: typeof c.currentImplementation) =>
    html`<dt>${label}</dt><dd>${x.address ? addressLink(x.address) : 'the submitted input'} <span class="mono">${x.fullyQualifiedName}</span> <span class="muted">(${x.compilerVersion})</span></dd>`;
  return html`<div class="card" id="verdict">
<h2>Verdict <span class="badge ${c.compatible ? 'ok' : 'err'}">${c.compatible ? 'compatible' : 'not compatible'}</span></h2>
<p class="notice ${c.compatible ? 'ok' : 'err'}">${upgradeVerdictText(c.compatible, c.incompatibilities.length)}</p>
<dl class="facts">
${contractRow(c.against ? 'Compared with (earlier implementation)' : 'Current implementation', c.currentImplementation)}
${contractRow('Candidate', c.candidate)}
<dt>Proxy</dt><dd>${addressLink(c.proxy)} <span class="muted">(${c.pattern})</span></dd>
${c.beacon ? html`<dt>Beacon</dt><dd>${addressLink(c.beacon)}</dd>` : ''}
<dt>Read at block</dt><dd>${c.blockNumber}</dd>
<dt>Namespaces compared</dt><dd>${c.namespaces.length ? c.namespaces.map((n, i) => html`${i ? ', ' : ''}<span class="mono">${n}</span>`) : 'none'}</dd>
</dl>
${
  c.incompatibilities.length
    ? html`<h3>Incompatibilities</h3>
<ul class="incompatibilities">${c.incompatibilities.map(
        (i) => html`<li><span class="incompatibility">${incompatibilityText(i)}</span> <span class="muted mono">${i.where}</span>
<details><summary>upgrades-core's explanation</summary><pre class="source snippet">${i.explanation}</pre></details></li>`,
      )}</ul>`
    : ''
}
<p class="muted">Storage layouts only: upgrades-core's other checks (constructors, initializers, selfdestruct, delegatecall) are not run here.${
    c.candidate.address
      ? html` The same as JSON: <a href="/api?module=contract&amp;action=checkupgrade&amp;proxy=${c.proxy.toLowerCase()}&amp;implementation=${c.candidate.address.toLowerCase()}${c.against ? html`&amp;against=${c.against}` : ''}">checkupgrade</a>.`
      : ''
  }</p>
</div>
<div class="card" id="abi-diff">
<h2>ABI difference</h2>
${abiList('Added', c.abiDiff.added)}
${abiList('Removed', c.abiDiff.removed)}
${abiList('Changed', c.abiDiff.changed)}
${c.abiDiff.added.length + c.abiDiff.removed.length + c.abiDiff.changed.length === 0 ? html`<p class="muted">The ABIs are the same.</p>` : ''}
</div>
<div class="card" id="source-diff">
<h2>Source difference</h2>
<p>${c.sourceDiff.changed.length} changed, ${c.sourceDiff.added.length} added, ${c.sourceDiff.removed.length} removed, ${c.sourceDiff.unchanged} unchanged file${c.sourceDiff.unchanged === 1 ? '' : 's'}.</p>
${c.sourceDiff.added.length ? html`<p>Added: ${c.sourceDiff.added.map((p, i) => html`${i ? ', ' : ''}<span class="mono">${p}</span>`)}</p>` : ''}
${c.sourceDiff.removed.length ? html`<p>Removed: ${c.sourceDiff.removed.map((p, i) => html`${i ? ', ' : ''}<span class="mono">${p}</span>`)}</p>` : ''}
${c.sourceDiff.changed.map(
  (f) =>
    html`<details class="file-diff" open><summary class="mono">${f.path}</summary>${
      f.diff === null
        ? html`<p class="muted">Diff left out: the answer's diffs are bounded in size.</p>`
        : html`<pre class="source snippet diff">${f.diff}</pre>`
    }</details>`,
)}
${c.sourceDiff.truncated ? html`<p class="muted">Some diffs were cut or left out to keep this page small.</p>` : ''}
</div>
${historyTable(c)}`;
}

/** The proxy's implementations, oldest first, each linking to its page, its layout, and a check of the candidate against it. */
function historyTable(c: UpgradeCheck): Html {
  const proxy = c.proxy.toLowerCase();
  const compared = c.currentImplementation.address?.toLowerCase() ?? null;
  return html`<div class="card" id="history">
<h2>Implementation history</h2>
${
  c.history.length === 0
    ? html`<p class="muted">No upgrade event of this proxy was read from the chain (the service records them from the blocks it follows).</p>`
    : html`<table class="history">
<thead><tr><th>Block</th><th>Implementation</th><th>Contract</th><th>Storage layout</th><th>Check</th></tr></thead>
<tbody>${c.history.map(
        (h) => html`<tr${h.implementation === compared ? html` class="compared"` : ''}>
<td>${h.blockNumber} <span class="muted mono" title="${h.transactionHash}">${h.transactionHash.slice(0, 10)}…</span></td>
<td>${addressLink(h.implementation)}</td>
<td>${h.verified ? html`<span class="mono">${h.contractName ?? ''}</span>` : html`<span class="muted">not verified</span>`}</td>
<td>${h.hasLayout ? html`<a href="/address/${h.implementation}/storage-layout.json">storage-layout.json</a>` : html`<span class="muted">none</span>`}</td>
<td>${
          c.candidate.address
            ? html`<a class="check-against" href="/address/${proxy}/upgrade-check?implementation=${c.candidate.address.toLowerCase()}&amp;against=${h.implementation}">check against it</a>`
            : ''
        }</td>
</tr>`,
      )}</tbody>
</table>`
}
</div>`;
}

function abiList(title: string, entries: { kind: string; signature: string; changes?: string[] }[]): Html | string {
  if (!entries.length) return '';
  return html`<h3>${title}</h3><ul>${entries.map(
    (e) =>
      html`<li>${e.kind} <span class="mono">${e.signature}</span>${e.changes?.length ? html` <span class="muted">(${e.changes.join('; ')})</span>` : ''}</li>`,
  )}</ul>`;
}
