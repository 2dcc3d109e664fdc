import { html, type Html } from '../html.js';
import { layout } from '../layout.js';

const ACTIONS: readonly { action: string; method: string; params: string; what: string }[] = [
  { action: 'verifysourcecode', method: 'POST', params: 'apikey, contractaddress, sourceCode, codeformat, contractname, compilerversion, optimizationUsed, runs, constructorArguements, evmversion, licenseType, libraryname1…10 / libraryaddress1…10', what: 'Queues a verification; the result is the receipt (GUID).' },
  { action: 'checkverifystatus', method: 'GET/POST', params: 'guid', what: 'Pending in queue, Pass - Verified, Fail - Unable to verify, Already Verified.' },
  { action: 'getabi', method: 'GET/POST', params: 'address', what: 'The ABI of a verified contract, as JSON text.' },
  { action: 'getsourcecode', method: 'GET/POST', params: 'address', what: "The source record: SourceCode, ABI, ContractName, CompilerVersion, settings, Proxy and Implementation." },
  { action: 'verifyproxycontract', method: 'POST', params: 'apikey, address, expectedimplementation (optional)', what: 'Queues detection of the implementation behind a proxy; the result is a receipt.' },
  { action: 'checkproxyverification', method: 'GET/POST', params: 'guid', what: 'The outcome of a proxy verification.' },
];

/** `/docs/api`: a short reference of the Etherscan-compatible endpoint. */
export function apiDocsPage(data: { chainId: number; baseUrl: string }): Html {
  const api = `${data.baseUrl}/api`;
  return layout(
    { title: 'API', chainId: data.chainId },
    html`<h1>API</h1>
<div class="card">
<p>One endpoint, <span class="mono">${api}</span>, answering Etherscan's <span class="mono">module=contract</span> actions with the usual envelope
<span class="mono">{"status":"1","message":"OK","result":…}</span> (status "0" and a text on any problem, always HTTP 200).
Parameters come in the query string or in the body (form, multipart or JSON). Submissions need an API key (<span class="mono">solproof keys create</span>);
reads without one are rate-limited.</p>
</div>
<div class="table-wrap"><table>
<thead><tr><th>action</th><th>method</th><th>parameters</th><th>answer</th></tr></thead>
<tbody>${ACTIONS.map((a) => html`<tr><td class="mono">${a.action}</td><td>${a.method}</td><td class="mono">${a.params}</td><td>${a.what}</td></tr>`)}</tbody>
</table></div>
<h2>Examples</h2>
<pre class="source">curl '${api}?module=contract&amp;action=getsourcecode&amp;address=0x…'
curl '${api}?module=contract&amp;action=checkverifystatus&amp;guid=RECEIPT&amp;apikey=YOUR_KEY'</pre>
<p>A receipt's progress is also shown at <span class="mono">${data.baseUrl}/receipt/RECEIPT</span>.
Open-source licensed verified contracts: <a href="/verified-contracts.csv">CSV</a>.</p>`,
  );
}
