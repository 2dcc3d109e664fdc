import { COMPILER_LISTING_FIELDS } from '../../core/compilerListing.js';
import { type Html, html } from '../html.js';
import { layout } from '../layout.js';

const ACTIONS: readonly { action: string; method: string; params: string; what: string }[] = [
  {
    action: 'verifysourcecode',
    method: 'POST',
    params:
      'apikey, contractaddress, sourceCode, codeformat, contractname, compilerversion, optimizationUsed, runs, constructorArguements, evmversion, licenseType, libraryname1…10 / libraryaddress1…10, dryrun',
    what: "Queues a verification; the result is the receipt (GUID). With dryrun=1 it verifies and diagnoses but publishes nothing; it counts against the key's daily dry runs instead of its verifications.",
  },
  { action: 'checkverifystatus', method: 'GET/POST', params: 'guid', what: 'Pending in queue, Pass - Verified, Fail - Unable to verify, Already Verified.' },
  { action: 'getabi', method: 'GET/POST', params: 'address', what: 'The ABI of a verified contract, as JSON text.' },
  {
    action: 'getsourcecode',
    method: 'GET/POST',
    params: 'address',
    what: 'The source record: SourceCode, ABI, ContractName, CompilerVersion, settings, Proxy and Implementation.',
  },
  {
    action: 'getcontractcreation',
    method: 'GET/POST',
    params: 'contractaddresses (up to 5, comma-separated)',
    what: 'For each contract, in the order asked: contractAddress, contractCreator (the account that sent the creation transaction, also for a factory\'s contract), txHash, blockNumber, timestamp (seconds), contractFactory (the factory contract, or ""), creationBytecode (the init code with the constructor arguments). Addresses without a contract are left out; when none has one: status "0", message "No data found", result null.',
  },
  {
    action: 'verifyproxycontract',
    method: 'POST',
    params: 'apikey, address, expectedimplementation (optional)',
    what: 'Queues detection of the implementation behind a proxy; the result is a receipt.',
  },
  { action: 'checkproxyverification', method: 'GET/POST', params: 'guid', what: 'The outcome of a proxy verification.' },
  {
    action: 'verifybuild',
    method: 'POST',
    params: 'apikey, sourceCode (a standard JSON input, a Hardhat build-info file or Foundry build-info), compilerversion (required for a standard JSON input)',
    what: 'Verifies a whole build in one call, for one unit of the daily quota: compiled once, every deployed contract of it (and those deployed later) verified. The result is a receipt.',
  },
  {
    action: 'checkupgrade',
    method: 'GET/POST',
    params: 'proxy (or address), implementation; or, with apikey, sourceCode (a standard JSON input), contractname (path:Name), compilerversion',
    what: "Whether the candidate implementation (verified) may replace the proxy's current one, by OpenZeppelin upgrades-core's storage layout rules (gaps, ERC-7201 namespaces): compatible, errors naming each variable, the ABI and source differences. Also as a page: /address/<proxy>/upgrade-check.",
  },
  {
    action: 'checkbuildstatus',
    method: 'GET/POST',
    params: 'guid',
    what: 'The outcome of a whole-build verification: the contracts of the build and the addresses verified.',
  },
];

const COMPILERS_EXAMPLE = `{
  "builds": [
    { "version": "0.8.26", "longVersion": "0.8.26+commit.8a97fa7a", "compilerVersion": "v0.8.26+commit.8a97fa7a",
      "nightly": false, "known": true, "cached": true, "sources": ["cache", "mirror", "npm"], "npmPackage": "0.8.26" },
    …
  ],
  "sources": {
    "mirror": { "url": "https://binaries.soliditylang.org", "fetchedAt": "2025-01-31T12:00:00.000Z", "ageSeconds": 240, "builds": 3120 },
    "npm": { "url": "https://registry.npmjs.org", "fetchedAt": "2025-01-31T11:00:00.000Z", "ageSeconds": 3840, "builds": 92,
             "error": "GET https://registry.npmjs.org/solc failed: ENOTFOUND", "failedAt": "2025-01-31T12:03:00.000Z" }
  },
  "generatedAt": "2025-01-31T12:04:00.000Z",
  "fields": { "builds[].version": "…", … }
}`;

/** Sourcify's v2 routes under /sourcify (docs/api.md has the details). */
const SOURCIFY_ROUTES: readonly { route: string; what: string }[] = [
  {
    route: 'POST /sourcify/v2/verify/{chainId}/{address}',
    what: 'Body {stdJsonInput, compilerVersion, contractIdentifier ("path:Name"), creationTransactionHash?}: 202 {verificationId}; 409 already_verified when the address has a full match of its runtime code (no submission can better it; partial and similar matches stay open); 429 duplicate_verification_request while a verification of the address by the same client is waiting or running (another client’s never holds it back).',
  },
  {
    route: 'POST /sourcify/v2/verify/metadata/{chainId}/{address}',
    what: 'Body {sources, metadata, creationTransactionHash?}: the same job from metadata.json and the files it names.',
  },
  {
    route: 'POST /sourcify/v2/verify/similarity/{chainId}/{address}',
    what: 'Matches the deployed code against the stored compilations, nothing submitted; answered at once: 200 with the contract, or 404 no_similar_match_found.',
  },
  {
    route: 'GET /sourcify/v2/verify/{verificationId}',
    what: 'The job: isJobCompleted, jobStartTime, jobFinishTime, compilationTime, contract {match, creationMatch, runtimeMatch, chainId, address, verifiedAt, matchId}, and error {customCode, message, errorId, errorData} on a failure (200 for every job; 404 job_not_found).',
  },
  {
    route: 'GET /sourcify/v2/contract/{chainId}/{address}',
    what: 'The verified contract (whichever API verified it): fields=abi,sources,compilation,deployment,creationBytecode,runtimeBytecode,metadata,stdJsonInput,signatures,userdoc,devdoc,proxyResolution or all; omit= for all but those. 404 with null matches when not verified.',
  },
  { route: 'GET /sourcify/v2/contracts/{chainId}', what: 'The verified contracts, sort=desc|asc, limit (at most 200), afterMatchId.' },
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
Parameters come in the query string or in the body (form, multipart or JSON). Submissions need an API key (<a href="/keys">how to get one</a>);
reads without one are rate-limited.</p>
</div>
<div class="table-wrap"><table>
<thead><tr><th>action</th><th>method</th><th>parameters</th><th>answer</th></tr></thead>
<tbody>${ACTIONS.map((a) => html`<tr><td class="mono">${a.action}</td><td>${a.method}</td><td class="mono">${a.params}</td><td>${a.what}</td></tr>`)}</tbody>
</table></div>
<h2>Examples</h2>
<pre class="source">curl '${api}?module=contract&amp;action=getsourcecode&amp;address=0x…'
curl '${api}?module=contract&amp;action=checkverifystatus&amp;guid=RECEIPT&amp;apikey=YOUR_KEY'
curl '${api}?module=contract&amp;action=getcontractcreation&amp;contractaddresses=0x…,0x…'</pre>
<p>A contract's creation is found on the chain the first time it is asked for (without Otterscan's <span class="mono">ots_</span> methods that is a search
through the chain's history) and kept: later answers come from the store.</p>
<p>A receipt's progress is also shown at <span class="mono">${data.baseUrl}/receipt/RECEIPT</span>.
Open-source licensed verified contracts: <a href="/verified-contracts.csv">CSV</a>.</p>
<h2>Compilers</h2>
<p><span class="mono">GET ${data.baseUrl}/compilers.json</span> lists the solc versions the service can verify with (also as a page: <a href="/compilers">Compilers</a>).
It answers at once from the last list each source gave, kept across restarts; lists older than 10 minutes are refreshed in the background,
and a source that cannot be reached keeps its older list, with the error. With no source ever reached, the releases the service ships knowledge of are still listed, with whether each is cached.</p>
<pre class="source">${COMPILERS_EXAMPLE}</pre>
<div class="table-wrap"><table>
<thead><tr><th>field</th><th>meaning</th></tr></thead>
<tbody>${Object.entries(COMPILER_LISTING_FIELDS).map(([field, meaning]) => html`<tr><td class="mono">${field}</td><td>${meaning}</td></tr>`)}</tbody>
</table></div>
<h2 id="sourcify">Sourcify's API</h2>
<p>Sourcify's v2 API is served too, keyless, under <span class="mono">${data.baseUrl}/sourcify/</span>, from the same store: what one API verified the other serves.
Matches are <span class="mono">exact_match</span> (full), <span class="mono">match</span> (partial) or null; errors are <span class="mono">{customCode, message, errorId}</span> with Sourcify's codes.</p>
<div class="table-wrap"><table>
<thead><tr><th>route</th><th>answer</th></tr></thead>
<tbody>${SOURCIFY_ROUTES.map((r) => html`<tr><td class="mono">${r.route}</td><td>${r.what}</td></tr>`)}</tbody>
</table></div>
<pre class="source">forge verify-contract 0x… src/Token.sol:Token --chain ${String(data.chainId)} --verifier sourcify --verifier-url ${data.baseUrl}/sourcify/
forge verify-check ID --chain ${String(data.chainId)} --verifier sourcify --verifier-url ${data.baseUrl}/sourcify/
forge create src/Token.sol:Token --rpc-url … --private-key … --broadcast --verify --verifier sourcify --verifier-url ${data.baseUrl}/sourcify/

// hardhat.config.ts (hardhat-verify 3)
verify: { sourcify: { enabled: true, apiUrl: '${data.baseUrl}/sourcify' } },</pre>
<p>The <span class="mono">--verifier-url</span> must end in <span class="mono">/</span>. With an Etherscan key configured for the chain
(an <span class="mono">[etherscan]</span> entry in foundry.toml, or <span class="mono">ETHERSCAN_API_KEY</span>), forge uses the Etherscan verifier even with
<span class="mono">--verifier sourcify</span>. Limits per client address: <span class="mono">--sourcify-rate</span> requests a second and
<span class="mono">--sourcify-daily-quota</span> verifications a day (429 <span class="mono">too_many_requests</span>).</p>`,
  );
}
