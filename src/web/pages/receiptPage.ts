import { licenseName } from '../../core/licenses.js';
import { flatteningWhyText, lastErrorText, metadataSettingsText, PARTIAL_SINGLE_FILE_ADVICE, receiptOutcomeText } from '../../texts/index.js';
import type { JobStatus } from '../../useCases/index.js';
import { type Html, html } from '../html.js';
import { addressLink, layout, timeTag } from '../layout.js';
import { diagnosisReport } from './diagnosisReport.js';

/** Seconds between reloads of a pending receipt page. */
export const RECEIPT_REFRESH_SECONDS = 2;

type StepState = 'done' | 'current' | 'failed' | '';

/**
 * `/receipt/:guid`: where a verification or proxy job stands. While pending, the script follows
 * the receipt's event stream and shows each new state (without scripts the page reloads itself).
 */
export function receiptPage(data: { chainId: number; job: JobStatus; now?: number }): Html {
  const job = data.job;
  const proxy = job.kind === 'proxy';
  const pending = job.state === 'queued' || job.state === 'running';
  const passed = job.result?.outcome === 'source_pass' ? job.result.document : null;
  const repairs = (passed?.flatteningRepairs ?? []).slice(0, 50);
  const dryRun = passed?.dryRun === true;
  const overruled = passed?.licenseOverruled;
  const fromCode = (passed?.metadataSettingsFromCode ?? []).slice(0, 2);
  const labels = proxy ? ['Queued', 'Reading the proxy', 'Implementation found'] : ['Queued', 'Compiling and comparing', 'Verified'];
  let steps: StepState[];
  let status: Html;
  switch (job.state) {
    case 'queued':
      steps = ['current', '', ''];
      status = html`<span class="badge info">Queued</span>`;
      break;
    case 'running':
      steps = ['done', 'current', ''];
      status = html`<span class="badge info">${proxy ? 'Reading the proxy' : 'Compiling'}</span>`;
      break;
    case 'pass':
      steps = ['done', 'done', 'done'];
      status = html`<span class="badge ok">${proxy ? 'Implementation found' : dryRun ? 'Would verify' : 'Verified'}</span>`;
      if (dryRun) labels[2] = 'Would verify (dry run)';
      break;
    case 'already_verified':
      steps = ['done', 'done', 'done'];
      status = html`<span class="badge ok">Already verified</span>`;
      break;
    case 'fail':
      steps = ['done', 'done', 'failed'];
      status = html`<span class="badge err">Failed</span>`;
      labels[2] = proxy ? 'Not found' : 'Not verified';
      break;
  }
  const elapsed = Math.max(0, Math.round(((job.finishedAt ?? data.now ?? Date.now()) - job.createdAt) / 1000));
  let outcome: Html | string = '';
  if (job.state === 'pass' || job.state === 'already_verified') {
    const reused = passed?.reusedCompilation === true;
    const reusedNote = reused
      ? html`<p class="muted">These sources were compiled before: the stored compilation was matched, nothing was compiled again.</p>`
      : '';
    outcome = dryRun
      ? html`<p class="notice ok">${receiptOutcomeText(job)} These sources and settings verify this address: submit them without <code>dryrun=1</code> to publish.</p>
${reusedNote}`
      : html`<p class="notice ok">${receiptOutcomeText(job)} <a href="/address/${job.address}">Open the contract page →</a></p>
${reusedNote}
${passed?.singleFile && passed.matchKind === 'partial' ? html`<p class="notice info" id="partial-advice">${PARTIAL_SINGLE_FILE_ADVICE}</p>` : ''}
${overruled ? html`<p class="notice warn" id="license-differs">Licence: ${licenseName(overruled.chosen)} was chosen, but the source's SPDX line names ${licenseName(overruled.published)}; the contract ${dryRun ? 'would be' : 'is'} published as ${licenseName(overruled.published)}.</p>` : ''}
${fromCode.length ? html`<p class="muted">The deployed code carries no metadata hash; it was compiled with the metadata settings the code shows, ${metadataSettingsText(fromCode)}, and its creation code matched too (so the constructor arguments are proven). The contract's sources are published as the standard JSON input with these settings.</p>` : ''}
${repairs.length ? html`<div class="notice warn"><p>The flattened file did not compile as sent; it was verified with these lines removed (a flattened file is a partial match at best):</p><ul>${repairs.map((r) => html`<li>line ${r.line}: <code>${r.text}</code> (${flatteningWhyText(r.why)})</li>`)}</ul></div>` : ''}`;
  } else if (job.state === 'fail') {
    const diagnosis = job.result?.outcome === 'failure' ? job.result.document.diagnosis : undefined;
    const resubmit = job.kind === 'source' && job.payloadPrunedAt === null ? `/verify?from=${job.receipt}` : undefined;
    outcome = html`<p class="notice err">${receiptOutcomeText(job)}</p>${diagnosisReport(diagnosis, { address: job.address, chainId: data.chainId }, resubmit)}<p><a href="/address/${job.address}">Open the address page →</a></p>`;
  } else {
    outcome = html`<p class="notice info" data-receipt-events="/receipt/${job.receipt}/events" data-receipt-state="${job.state}">${proxy ? 'Looking for the implementation' : 'Working'}… this page updates by itself.</p>
${job.lastError ? html`<p class="notice warn">The last attempt will be retried: ${lastErrorText(job.lastError)}</p>` : ''}`;
  }
  return layout(
    { title: `Receipt ${job.receipt}`, chainId: data.chainId, refreshSeconds: pending ? RECEIPT_REFRESH_SECONDS : undefined },
    html`<h1>${proxy ? 'Proxy verification' : 'Verification'} ${status}</h1>
<div class="card">
<ol class="steps">${labels.map((label, i) => html`<li class="${steps[i]!}">${label}</li>`)}</ol>
${outcome}
<dl class="facts">
<dt>Address</dt><dd>${addressLink(job.address)}</dd>
<dt>Receipt</dt><dd class="mono">${job.receipt}</dd>
<dt>Submitted</dt><dd>${timeTag(job.createdAt)}</dd>
<dt>${pending ? 'Waiting for' : 'Took'}</dt><dd>${elapsed} s${job.attempts > 1 ? ` (${job.attempts} attempts)` : ''}</dd>
</dl>
</div>`,
  );
}
