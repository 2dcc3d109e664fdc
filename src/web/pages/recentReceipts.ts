import { isVyperDiagnosis } from '../../core/diagnosis.js';
import { changeTexts, receiptOutcomeText, vyperChangeText } from '../../texts/index.js';
import type { JobStatus } from '../../useCases/index.js';
import { type Html, html } from '../html.js';
import { timeTag } from '../layout.js';

/** Characters of an outcome shown in the list (the receipt page has all of it). */
const OUTCOME_CHARS = 300;

function badge(job: JobStatus): Html {
  switch (job.state) {
    case 'queued':
    case 'running':
      return html`<span class="badge info">Pending</span>`;
    // What the attempt ended in, then: the page's heading says whether the address is verified now
    // (a record whose code is gone is not, though its attempt passed).
    case 'pass':
      // A dry run published nothing: it must not read as verified.
      if (job.result?.outcome === 'source_pass' && job.result.document.dryRun === true) return html`<span class="badge info">Dry run: would verify</span>`;
      return html`<span class="badge ok">${job.kind === 'proxy' ? 'Proxy found' : 'Passed'}</span>`;
    case 'already_verified':
      return html`<span class="badge ok">Already verified</span>`;
    case 'fail':
      return html`<span class="badge err">Failed</span>`;
  }
}

/** A failure's diagnosis in one line: the change that makes it pass, when one was found. */
function diagnosisLine(job: JobStatus): Html | string {
  if (job.result?.outcome !== 'failure') return '';
  const d = job.result.document.diagnosis;
  if (!d) return '';
  if (!d.fix) return html`<div class="muted">Diagnosis: no setting within the search made these sources match.</div>`;
  const changes = isVyperDiagnosis(d) ? (d.fix?.changes ?? []).map(vyperChangeText) : changeTexts(d.fix?.changes ?? [], d.facts.sent);
  return html`<div>Diagnosis: passes with ${changes.join('; ')}.</div>`;
}

/**
 * A passed receipt links its page. A failed or pending one is shown by its first characters
 * only: its receipt is its submitter's secret (it opens the submitted sources again in the
 * Verify & Publish form), and a public page must not hand it to anyone.
 */
function receiptCell(job: JobStatus): Html {
  const short = `${job.receipt.slice(0, 10)}…`;
  return job.state === 'pass' || job.state === 'already_verified'
    ? html`<a class="mono receipt-link" href="/receipt/${job.receipt}" title="${job.receipt}">${short}</a>`
    : html`<span class="mono muted" title="The receipt was given to its submitter">${short}</span>`;
}

/**
 * The address's recent verification attempts, passes and failures, each with its outcome and
 * diagnosis (what hardhat-verify 2 users, shown only a bare text, need); passes link their receipt.
 */
export function recentReceipts(jobs: readonly JobStatus[] | undefined): Html | string {
  if (!jobs || jobs.length === 0) return '';
  return html`<div class="card" id="receipts">
<h2>Recent verifications</h2>
<div class="table-wrap"><table class="receipts">
<thead><tr><th>Receipt</th><th>Submitted</th><th>Outcome</th></tr></thead>
<tbody>${jobs.map((job) => {
    const pending = job.state === 'queued' || job.state === 'running';
    const text = pending ? '' : receiptOutcomeText(job);
    return html`<tr>
<td class="labelled" data-label="Receipt">${receiptCell(job)}</td>
<td class="labelled" data-label="Submitted">${timeTag(job.createdAt)}</td>
<td>${badge(job)} ${text.length > OUTCOME_CHARS ? `${text.slice(0, OUTCOME_CHARS)}…` : text}${diagnosisLine(job)}</td>
</tr>`;
  })}</tbody>
</table></div>
</div>`;
}
