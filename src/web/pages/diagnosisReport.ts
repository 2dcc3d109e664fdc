import { isVyperDiagnosis, type StoredDiagnosis } from '../../core/diagnosis.js';
import { changeTexts, correctedCommand, type FixTarget, searchLimitText } from '../../texts/index.js';
import { type Html, html } from '../html.js';

/**
 * A failed receipt's diagnosis as a readable report: what the deployed code says, what was sent,
 * the change that makes it pass (with the corrected fields and options to copy), or where the
 * codes differ, instruction by instruction.
 */
export function diagnosisReport(d: StoredDiagnosis | undefined, target: FixTarget, resubmitHref?: string): Html | string {
  if (!d || isVyperDiagnosis(d)) return '';
  const sent = d.facts.sent;
  const command = correctedCommand(d, target);
  const c = d.comparison;
  return html`<section class="card diagnosis" id="diagnosis">
<h2>Diagnosis</h2>
<dl class="facts">
<dt>Deployed code</dt><dd>${d.facts.compilerRelease ? `compiled with solc ${d.facts.compilerRelease} (from its metadata)` : 'its metadata names no compiler'}; metadata hash: ${d.facts.hashKind}</dd>
<dt>You sent</dt><dd class="mono">${sent.compilerVersion} · optimizer ${sent.optimizer ? `enabled, ${sent.runs} runs` : 'disabled'} · EVM ${sent.evmVersion || 'default'}${sent.viaIR ? ' · viaIR' : ''} · ${sent.contractName}</dd>
${d.facts.onchainConstructorArguments !== undefined ? html`<dt>Constructor arguments on chain</dt><dd class="mono">0x${d.facts.onchainConstructorArguments}</dd>` : ''}
${d.facts.library ? html`<dt>Library</dt><dd>${d.facts.library.name} is called at <span class="mono">${d.facts.library.onchain}</span>; you linked <span class="mono">${d.facts.library.submitted || 'no address'}</span></dd>` : ''}
<dt>Searched</dt><dd>${d.tried} setting${d.tried === 1 ? '' : 's'} tried, ${d.compiles} compile${d.compiles === 1 ? '' : 's'}${searchLimitText(d) ? ` (${searchLimitText(d)})` : ''}</dd>
</dl>
${
  d.fix && command
    ? html`<h3>What makes it pass (${d.fix.matchKind} match, checked by compiling)</h3>
<ul>${changeTexts(d.fix.changes, sent).map((text) => html`<li>${text}</li>`)}</ul>
${resubmitHref ? html`<p><a class="button" id="resubmit" href="${resubmitHref}">Resubmit with this change</a> <span class="muted">(the form, filled in with your sources and the change; enter your API key)</span></p>` : ''}
<div class="commands">
<p><strong>Foundry</strong> (in the project: build with the setting, then verify; forge sends the settings of its build) <button type="button" class="secondary small js-only" data-copy="#fix-forge" hidden>Copy</button></p>
<pre class="source" id="fix-forge">${command.forge.join('\n')}</pre>
<p><strong>Hardhat</strong> (hardhat.config, then verify; add the constructor arguments after the address as you deployed them) <button type="button" class="secondary small js-only" data-copy="#fix-hardhat" hidden>Copy</button></p>
<pre class="source" id="fix-hardhat">${command.hardhat.join('\n')}</pre>
<p><strong>API fields</strong> to send instead (curl <code>-d</code>) <button type="button" class="secondary small js-only" data-copy="#fix-curl" hidden>Copy</button></p>
<pre class="source" id="fix-curl">${command.curl.map((f) => `-d ${f}`).join(' ')}</pre>
</div>`
    : html`<p>No setting within the search made these sources compile to the deployed code.</p>`
}
${
  c
    ? html`<h3>Where the codes differ</h3>
<p>Deployed runtime code ${c.deployedLength} bytes, compiled ${c.compiledLength} bytes${c.firstDifference !== null ? html`; first difference at byte ${c.firstDifference}` : ''}.${c.onlyMetadata ? ' Only the metadata hash differs: the sources differ in something that does not change the instructions (comments, file names, settings recorded in the metadata).' : ''}</p>
<div class="compare"><div><h4>Deployed</h4><pre class="source">${c.deployedAround.map((i) => `${i.offset.toString().padStart(6)}  ${i.text}\n`)}</pre></div>
<div><h4>Compiled from your sources</h4><pre class="source">${c.compiledAround.map((i) => `${i.offset.toString().padStart(6)}  ${i.text}\n`)}</pre></div></div>`
    : ''
}
</section>`;
}
