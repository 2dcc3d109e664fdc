import { type AbiParameter, decodeAbiParameters } from 'viem';
import { isAddress } from '../../core/hex.js';
import { licenseName } from '../../core/licenses.js';
import { isReceipt } from '../../core/receipt.js';
import type { StorageLayout } from '../../core/storageLayout.js';
import type { Address } from '../../core/types.js';
import { missingLayoutText } from '../../texts/index.js';
import {
  type ContractLayout,
  type ContractLayouts,
  isUpgradeableProxy,
  type JobStatus,
  MAX_SLOTS,
  type MappingLookup,
  type NamespaceValues,
  type ProxyRecord,
  publishedFiles,
  type ReplacedVerification,
  type StorageValues,
  type VerifiedContract,
} from '../../useCases/index.js';
import { type ProxyPattern, provenMatch, type StorageRow, slotHex, unprovenImmutableValues } from '../../verify/index.js';
import { abiFunctions, type ContractFunction, toJsonValue } from '../contractCalls.js';
import { type Html, html } from '../html.js';
import { addressLink, layout, timeTag } from '../layout.js';
import { recentReceipts } from './recentReceipts.js';
import { markedCode, type PreparedSources, prepareSourcesNow, sourceView } from './sourceView.js';

/** Everything the contract page shows, gathered by the route. */
export interface ContractPageData {
  address: Address;
  chainId: number;
  /** Where the API is reached from outside, for the how-to-verify hint. */
  baseUrl: string;
  /** The chain's JSON-RPC URL as users reach it (the local devnet's), for the snippets; absent when not public. */
  rpcUrl?: string | undefined;
  contract: VerifiedContract | null;
  proxy: ProxyRecord | null;
  /** The verified contract at the proxy's final implementation, when there is one. */
  implementation: VerifiedContract | null;
  /** Whether the address holds code; null when the node could not be asked. */
  hasCode: boolean | null;
  /** Earlier records of this address that a better match replaced, newest first. */
  history?: ReplacedVerification[];
  /** The file asked for with `?file=N` (1-based), for contracts shown one file at a time. */
  chosenFile?: number | null;
  /** The sources as the page shows them, prepared ahead (`prepareSources`); else prepared at once from `chosenFile`. */
  sources?: PreparedSources | null;
  /** The compiled code the record was matched with (hex without 0x), when stored. */
  compiledCode?: { creation: string; runtime: string } | null;
  /** The address's recent verification attempts (passes and failures), newest first. */
  receipts?: JobStatus[];
  /** The verified contract's storage layouts (the Storage tab); absent: no tab. */
  layouts?: ContractLayouts | null;
  /** What the storage holds now (the Storage tab's values); absent: the layout alone. */
  storageValues?: StorageValues | null;
  /** The mapping key the Storage tab was asked to look up (`?map=…&key=…`). */
  lookup?: MappingLookup | null;
}

/** A label for every pattern: a new pattern does not compile until it has one. */
const PATTERN_NAMES: Readonly<Record<ProxyPattern, string>> = {
  eip1167: 'EIP-1167 minimal proxy',
  clone44: '44-byte clone',
  push0_clone: 'EIP-1167 clone (PUSH0)',
  vyper_forwarder: 'Vyper forwarder',
  sequence_wallet: 'Sequence wallet proxy',
  eip1967: 'EIP-1967 proxy',
  eip1967_beacon: 'EIP-1967 beacon proxy',
  oz_legacy: 'OpenZeppelin legacy (ZeppelinOS) proxy',
  eip1822: 'EIP-1822 (UUPS) proxy',
  safe: 'Safe proxy (masterCopy)',
  eip897: 'EIP-897 delegate proxy',
  get_implementation: 'getImplementation() proxy',
  compound_unitroller: 'Compound Unitroller',
  eip2535_diamond: 'EIP-2535 Diamond',
  eip7702: 'EIP-7702 delegated account',
};

function patternName(pattern: ProxyPattern): string {
  return PATTERN_NAMES[pattern] ?? pattern;
}

const FULL_MATCH_TEXT = 'Full match: the deployed code is byte for byte what these exact sources compile to, metadata hash included.';

/**
 * Why a match is partial, in words, from what the record proves: a metadata hash that differs
 * or is absent, and immutable values that no matched creation code proves (listed with the
 * values the chain holds).
 */
function matchExplanation(contract: VerifiedContract): Html {
  if (contract.matchKind === 'full') return html`${FULL_MATCH_TEXT}`;
  const { applied, values } = contract.transformations;
  const auxdata = [...applied.runtime, ...applied.creation].filter((x) => x.reason === 'cborAuxdata');
  const unproven = Object.entries(unprovenImmutableValues(values.runtime, contract.creationMatch));
  const reasons: Html[] = [];
  if (auxdata.some((x) => x.type === 'replace')) {
    reasons.push(
      html`the metadata hash on chain differs from the compiled one (marked in the bytecode below), so the sources compile to the same instructions but differ in something that does not change them: comments, whitespace, file names or settings recorded in the metadata.`,
    );
  }
  if (auxdata.some((x) => x.type === 'delete') || (auxdata.length === 0 && unproven.length === 0)) {
    reasons.push(
      html`the deployed code carries no metadata hash, so nothing proves the sources' comments, file names or metadata settings; the instructions are what these sources compile to.`,
    );
  }
  if (unproven.length > 0) {
    const why = contract.creationCompared ? 'the creation code was found but did not match' : 'the creation code was not found';
    reasons.push(
      html`${unproven.length === 1 ? 'one immutable value was' : `${unproven.length} immutable values were`} taken from the chain and nothing proves ${unproven.length === 1 ? 'it' : 'them'} (${why}, so no constructor is known to have written ${unproven.length === 1 ? 'it' : 'them'}): these are values the chain holds, not values these sources give.
<ul class="mono unproven-immutables">${unproven.map(([id, value]) => html`<li>immutable ${id}: ${value}${wordReading(value)}</li>`)}</ul>`,
    );
  }
  return html`Partial match: ${reasons.map((r, i) => html`${i ? html`<br>Also: ` : ''}${r}`)}`;
}

/** A 32-byte word as an address or a number, when it reads as one (for people, beside the hex). */
function wordReading(value: string): Html | string {
  const hex = value.replace(/^0x/, '');
  if (hex.length !== 64) return '';
  if (/^0{24}/.test(hex) && !/^0{64}$/.test(hex)) {
    const asNumber = BigInt(`0x${hex}`);
    return asNumber < 2n ** 64n ? html` <span class="muted">(${asNumber.toString()})</span>` : html` <span class="muted">(address 0x${hex.slice(24)})</span>`;
  }
  return html` <span class="muted">(${BigInt(`0x${hex}`).toString()})</span>`;
}

function constructorArguments(contract: VerifiedContract): Html {
  if (contract.constructorArguments === null) {
    return html`<p class="muted">Unknown: the creation code was ${contract.creationCompared ? 'found but did not match' : 'not found'}, so nothing proves which arguments the contract was deployed with.</p>`;
  }
  if (!contract.constructorArguments) return html`<p class="muted">None.</p>`;
  let decoded: Html | string = '';
  try {
    const abi = JSON.parse(contract.abi) as { type?: string; inputs?: AbiParameter[] }[];
    const inputs = abi.find((item) => item.type === 'constructor')?.inputs ?? [];
    if (inputs.length > 0) {
      const values = decodeAbiParameters(inputs, `0x${contract.constructorArguments}`);
      decoded = html`<ol class="mono">${inputs.map(
        (input, i) => html`<li>${input.name || `#${i}`} <span class="muted">(${input.type})</span>: ${formatValue(values[i])}</li>`,
      )}</ol>`;
    }
  } catch {
    decoded = '';
  }
  return html`<pre class="source">${contract.constructorArguments}</pre>${decoded}`;
}

/** How each part of the code was compared, in words. */
/** By submission, as a copy of another verified contract, or with a whole build. */
function howVerified(contract: VerifiedContract): Html {
  if (contract.method === 'similar') {
    return html`Similar match, verified through ${contract.similarTo && isAddress(contract.similarTo) ? addressLink(contract.similarTo) : 'another contract'} (same compiled code; nothing was submitted for this address) ·`;
  }
  if (contract.method === 'build') return html`With a whole build ·`;
  return html`By submission ·`;
}

/** The metadata settings compiled, when they are not solc's defaults (a CBOR with an ipfs hash). */
function metadataSettings(contract: VerifiedContract): Html | string {
  const metadata = contract.settings['metadata'];
  if (typeof metadata !== 'object' || metadata === null) return '';
  const { bytecodeHash, appendCBOR } = metadata as { bytecodeHash?: unknown; appendCBOR?: unknown };
  const shown: string[] = [];
  if (appendCBOR === false) shown.push('no CBOR (appendCBOR false)');
  else if (typeof bytecodeHash === 'string' && bytecodeHash !== 'ipfs') shown.push(`bytecodeHash ${bytecodeHash}`);
  return shown.length ? html`<dt>Metadata</dt><dd>${shown.join(' · ')}</dd>` : '';
}

function partsMatched(contract: VerifiedContract): Html {
  const proven = provenMatch(contract);
  const creation =
    proven.creation ??
    (contract.creationCompared === true ? 'compared, did not match' : contract.creationCompared === false ? 'not found on chain' : 'not compared');
  const runtime = contract.runtimeMatch === null ? 'not compared' : (proven.runtime ?? 'not compared');
  return html` <span class="muted">(creation code: ${creation}, runtime code: ${runtime})</span>`;
}

/** Who created the contract, in which transaction and block (when the service has seen its creation). */
function creationFacts(contract: VerifiedContract): Html | string {
  const d = contract.deployment;
  if (!d || (!d.creator && !d.transactionHash)) return '';
  return html`${d.creator && isAddress(d.creator) ? html`<dt>Creator</dt><dd>${addressLink(d.creator)}${d.factory && isAddress(d.factory) ? html` <span class="muted">through factory</span> ${addressLink(d.factory)}` : ''}</dd>` : ''}
${d.transactionHash ? html`<dt>Creation transaction</dt><dd class="mono">${d.transactionHash}${d.blockNumber !== null ? html` <span class="muted">in block ${d.blockNumber}</span>` : ''}</dd>` : ''}`;
}

/** The compiled creation and runtime code, with what the chain fills in marked. */
function compiledCodeSection(contract: VerifiedContract, code: { creation: string; runtime: string } | null): Html | string {
  if (!code) return '';
  const { applied, values } = contract.transformations;
  return html`<h2>Bytecode</h2>
<p class="muted">The compiled code these sources give; marked regions are filled in at deployment (hover for what the chain holds there).</p>
<details class="code-details"><summary>Runtime code (${code.runtime.length / 2} bytes)</summary>${markedCode(code.runtime, applied.runtime, values.runtime)}</details>
${code.creation ? html`<details class="code-details"><summary>Creation code (${code.creation.length / 2} bytes${contract.constructorArguments ? ' + constructor arguments' : ''})</summary>${markedCode(code.creation, applied.creation, values.creation, contract.constructorArguments ?? '')}</details>` : ''}`;
}

function history(entries: ReplacedVerification[] | undefined): Html | string {
  if (!entries || entries.length === 0) return '';
  return html`<dt>Earlier</dt><dd>${entries.map(
    (e) =>
      html`<div>${e.matchKind} match of ${timeTag(e.verifiedAt)}${e.receipt && isReceipt(e.receipt) ? html` (<a href="/receipt/${e.receipt}">receipt</a>)` : ''}, ${TAKEN_OFF[e.reason]} ${timeTag(e.replacedAt)}</div>`,
  )}</dd>`;
}

/** Why an earlier record is no longer served, as the history says it. */
const TAKEN_OFF: Record<ReplacedVerification['reason'], string> = {
  replaced: 'replaced by a better match',
  chain_reset: 'taken off when the chain restarted from genesis',
  rolled_back: 'taken off when the chain was rolled back past its deployment',
  code_changed: 'taken off when the code at this address changed',
};

function formatValue(value: unknown): string {
  const json = toJsonValue(value);
  return typeof json === 'string' ? json : JSON.stringify(json);
}

function prettyAbi(abiText: string): string {
  try {
    return JSON.stringify(JSON.parse(abiText), null, 2);
  } catch {
    return abiText;
  }
}

function functionForm(fn: ContractFunction, position: number, kind: 'read' | 'write', asProxy: boolean): Html {
  const inputs = fn.abi.inputs;
  return html`<form class="fn" data-kind="${kind}" data-proxy="${asProxy ? '1' : '0'}" data-signature="${fn.signature}">
<h3>${position}. ${fn.abi.name} <span class="muted mono">${fn.signature}</span>${fn.payable ? html` <span class="badge warn">payable</span>` : ''}</h3>
${inputs.map(
  (input, i) =>
    html`<label>${input.name || `#${i + 1}`} (${input.type})<input type="text" data-arg="${i}" data-type="${input.type}" placeholder="${placeholderFor(input.type)}" autocomplete="off" spellcheck="false"></label>`,
)}
${fn.payable ? html`<label>value (wei)<input type="text" data-value="1" placeholder="0" autocomplete="off"></label>` : ''}
<button type="submit">${kind === 'read' ? 'Query' : 'Write'}</button>
<output class="fn-result" aria-live="polite"></output>
</form>`;
}

function placeholderFor(type: string): string {
  if (type.endsWith(']')) return 'JSON array, e.g. ["…"]';
  if (type.startsWith('tuple')) return 'JSON array of fields';
  if (type === 'address') return '0x…';
  if (type === 'bool') return 'true or false';
  if (type.startsWith('bytes')) return '0x…';
  if (/int/.test(type)) return 'integer';
  return type;
}

function functionPanels(functions: ContractFunction[], ids: { read: string; write: string }, asProxy: boolean, note: Html | string): Html {
  const reads = functions.filter((f) => f.readOnly);
  const writes = functions.filter((f) => !f.readOnly);
  return html`<section class="tab-panel" id="${ids.read}">
${note}
${reads.length ? reads.map((f, i) => functionForm(f, i + 1, 'read', asProxy)) : html`<p class="muted">No read functions.</p>`}
</section>
<section class="tab-panel" id="${ids.write}">
${note}
<p class="muted">Writing sends a transaction from your browser wallet; without one, the page shows the call data to send yourself.</p>
${writes.length ? writes.map((f, i) => functionForm(f, i + 1, 'write', asProxy)) : html`<p class="muted">No write functions.</p>`}
</section>`;
}

function proxyDetails(data: ContractPageData): Html | string {
  const record = data.proxy;
  if (!record) return '';
  const { chain: hops, beacon, admin, facets = [], conflicts, isDelegatedAccount } = record.detection;
  return html`<div class="card" id="proxy">
<h2>Proxy <span class="badge info">${patternName(record.pattern)}</span></h2>
${isDelegatedAccount === true ? html`<p class="notice info">This address is an account delegating to code (EIP-7702), not a contract proxy.</p>` : ''}
<dl class="facts">
<dt>Implementation</dt><dd>${addressLink(record.implementation)}</dd>
${record.finalImplementation.toLowerCase() !== record.implementation.toLowerCase() ? html`<dt>Final implementation</dt><dd>${addressLink(record.finalImplementation)}</dd>` : ''}
${hops.length > 1 ? html`<dt>Chain</dt><dd>${hops.map((h, i) => html`${i ? ' → ' : ''}${addressLink(h.address)} <span class="muted">(${patternName(h.pattern)})</span>`)} → ${addressLink(hops[hops.length - 1]!.implementation)}</dd>` : ''}
${beacon ? html`<dt>Beacon</dt><dd>${addressLink(beacon)}</dd>` : ''}
${admin ? html`<dt>Admin</dt><dd class="addr">${admin.toLowerCase()}</dd>` : ''}
${facets.length ? html`<dt>Facets</dt><dd>${facets.map((f, i) => html`${i ? ', ' : ''}${addressLink(f)}`)}</dd>` : ''}
${conflicts.length ? html`<dt>Other candidates</dt><dd>${conflicts.map((c, i) => html`${i ? ', ' : ''}${addressLink(c.implementation)} <span class="muted">(${patternName(c.pattern)})</span>`)}</dd>` : ''}
<dt>Read at block</dt><dd>${record.blockNumber}</dd>
<dt>Checked</dt><dd>${timeTag(record.checkedAt)}</dd>
</dl>
${isUpgradeableProxy(record.pattern) ? html`<p><a class="upgrade-check" href="/address/${data.address.toLowerCase()}/upgrade-check">Check an upgrade</a> <span class="muted">whether a new implementation's storage layout is compatible with this one's</span></p>` : ''}
${data.implementation ? '' : html`<p class="notice warn">The implementation ${record.finalImplementation.toLowerCase()} is not verified here, so this page cannot offer Read/Write as Proxy. Verify it, then reload.</p>`}
</div>`;
}

/** A name for this chain in the tools' configurations. */
const NETWORK_NAME = 'solproof';

function verifyHint(data: ContractPageData): Html {
  const api = `${data.baseUrl}/api`;
  const rpc = data.rpcUrl ?? 'YOUR_RPC_URL';
  const curl = `curl -X POST '${api}' \\
  -d module=contract -d action=verifysourcecode -d apikey=YOUR_KEY \\
  -d contractaddress=${data.address} \\
  -d codeformat=solidity-standard-json-input \\
  -d contractname='contracts/MyContract.sol:MyContract' \\
  -d compilerversion=v0.8.28+commit.7893614a \\
  --data-urlencode sourceCode@standard-input.json`;
  const hardhat = `// hardhat.config.js (hardhat-verify 2)
module.exports = {
  networks: {
    ${NETWORK_NAME}: { url: '${rpc}', chainId: ${data.chainId} },
  },
  etherscan: {
    apiKey: { ${NETWORK_NAME}: 'YOUR_KEY' },
    customChains: [{
      network: '${NETWORK_NAME}',
      chainId: ${data.chainId},
      urls: { apiURL: '${api}', browserURL: '${data.baseUrl}' },
    }],
  },
};
// then:
npx hardhat verify --network ${NETWORK_NAME} ${data.address} [constructor args]`;
  const foundryToml = `# foundry.toml
[etherscan]
${NETWORK_NAME} = { key = "\${SOLPROOF_API_KEY}", chain = ${data.chainId}, url = "${api}" }`;
  const forge = `export SOLPROOF_API_KEY=YOUR_KEY
forge verify-contract ${data.address} src/MyContract.sol:MyContract \\
  --chain ${data.chainId} --rpc-url ${rpc} --watch`;
  return html`<div class="card verify-hint">
<h2>How to verify</h2>
<p>Submit the sources with an API key (<a href="/keys">how to get one</a>), then follow the receipt it returns at <span class="mono">/receipt/&lt;guid&gt;</span>. With curl:</p>
<pre class="source snippet" id="hint-curl">${curl}</pre>
<p>With Hardhat (<span class="mono">@nomicfoundation/hardhat-verify</span> 2): <button type="button" class="secondary small js-only" data-copy="#hint-hardhat" hidden>Copy</button></p>
<pre class="source snippet" id="hint-hardhat">${hardhat}</pre>
<p>With Foundry: the chain's entry in <span class="mono">foundry.toml</span> (forge takes the key and URL from it), then <span class="mono">forge verify-contract</span>. <button type="button" class="secondary small js-only" data-copy="#hint-foundry-toml" hidden>Copy</button></p>
<pre class="source snippet" id="hint-foundry-toml">${foundryToml}</pre>
<pre class="source snippet" id="hint-forge">${forge}</pre>
</div>`;
}

function proxyNote(data: ContractPageData): Html | string {
  return data.implementation
    ? html`<p class="notice info">Calls go to the proxy ${data.address} with the ABI of its implementation ${addressLink(data.implementation.address)} (${data.implementation.contractName}).</p>`
    : '';
}

function unverifiedPage(data: ContractPageData): Html {
  const codeNote =
    data.hasCode === false
      ? html`<p class="notice warn">There is no contract code at this address (an account, or nothing deployed yet).</p>`
      : data.hasCode === true
        ? html`<p class="notice info">Contract code is deployed here, but its source code is not verified.</p>`
        : html`<p class="notice warn">The source code is not verified. (The network node could not be asked whether code is deployed here.)</p>`;
  const proxyPanels = data.implementation
    ? functionPanels(abiFunctions(data.implementation.abi), { read: 'read-proxy', write: 'write-proxy' }, true, proxyNote(data))
    : null;
  return layout(
    { title: `Address ${data.address}`, chainId: data.chainId, query: data.address },
    html`<div data-address="${data.address}">
<h1>Address <span class="addr" title="${data.address}">${data.address}</span> <span class="badge warn">Not verified</span></h1>
${codeNote}
${data.hasCode !== false ? html`<p><a class="button" href="/verify?address=${data.address}">Verify &amp; Publish this contract's source code</a></p>` : ''}
${data.history && data.history.length > 0 ? html`<div class="card"><dl class="facts">${history(data.history)}</dl></div>` : ''}
${proxyDetails(data)}
${proxyPanels ? html`<nav class="tabs"><a href="#read-proxy" aria-selected="false">Read as Proxy</a><a href="#write-proxy" aria-selected="false">Write as Proxy</a>${data.storageValues?.asProxy ? html`<a href="#storage" aria-selected="false">Storage as Proxy</a>` : ''}</nav>${proxyPanels}` : ''}
${proxyPanels && data.storageValues?.asProxy ? html`<section class="tab-panel" id="storage">${valuesNote(data.storageValues)}${proxyStorage(storageView(data, data.storageValues), data.storageValues.asProxy)}</section>` : ''}
${recentReceipts(data.receipts)}
${data.hasCode !== false ? verifyHint(data) : ''}
</div>`,
  );
}

/** The Storage tab: where each state variable lives, as solc laid it out, or why that is not known; with values when read. */
function storagePanel(data: ContractPageData, layouts: ContractLayouts): Html {
  const values = data.storageValues ?? null;
  return html`<section class="tab-panel" id="storage">
<h2>Storage layout <a class="small" href="/address/${data.address}/storage-layout.json" download>Download as JSON</a></h2>
${values ? valuesNote(values) : ''}
${values && layouts.storageLayout.layout ? rowsTable(values.own.rows ?? [], storageView(data, values), 'No state variable in storage.') : layoutTable(layouts.storageLayout, 'No state variable in storage.')}
${values ? namespacesSection(values.own.namespaces, storageView(data, values)) : ''}
${layouts.transientStorageLayout.layout?.storage.length ? html`<h2>Transient storage layout</h2>${values ? html`<p class="muted">Transient storage is cleared at the end of every transaction, so between transactions it holds nothing to show.</p>` : ''}${layoutTable(layouts.transientStorageLayout, '')}` : ''}
${values?.asProxy ? proxyStorage(storageView(data, values), values.asProxy) : ''}
</section>`;
}

/** At which block the values were read, or why none are shown. */
function valuesNote(values: StorageValues): Html {
  if (values.problem === 'timed_out') {
    return html`<p class="notice warn storage-note">The network node did not answer within ${(values.timeoutMs / 1000).toString()} s, so the layout is shown without values. Reload to try again.</p>`;
  }
  if (values.problem === 'chain_unavailable')
    return html`<p class="notice warn storage-note">The network node could not be asked, so the layout is shown without values.</p>`;
  if (values.blockNumber === null) return html``;
  return html`<p class="muted storage-note">Values read at block <span class="mono" id="storage-block">${values.blockNumber.toString()}</span>${values.unreadSlots > 0 ? html`; ${values.unreadSlots} more slot${values.unreadSlots === 1 ? ' was' : 's were'} not read (at most ${MAX_SLOTS} a page)` : ''}.</p>`;
}

/** A slot as people read it: decimal while short, else its 32-byte hex. */
function slotText(slot: bigint): string {
  return slot < 2n ** 64n ? slot.toString() : slotHex(slot);
}

/** What the storage tables are drawn from: the values read, and where a mapping lookup goes. */
interface StorageView {
  values: StorageValues;
  address: string;
  lookup: MappingLookup | null;
}

function storageView(data: ContractPageData, values: StorageValues): StorageView {
  return { values, address: data.address, lookup: data.lookup ?? null };
}

function valueCell(row: StorageRow, view: StorageView): Html {
  if (row.value === 'mapping' && row.type.startsWith('mapping(')) return html`<td class="mono storage-value">mapping ${lookupForm(row, view)}</td>`;
  if (row.value !== null) return html`<td class="mono storage-value">${row.value}</td>`;
  return html`<td class="muted storage-value">${view.values.problem ? '' : 'not read'}</td>`;
}

/** A mapping's key lookup: a plain GET form (no script), the key's row then shown under the mapping. */
function lookupForm(row: StorageRow, view: StorageView): Html {
  const asked = view.lookup?.name === row.name ? view.lookup.keys.join(', ') : '';
  const keyType = /^mapping\((.+?) =>/.exec(row.type)?.[1] ?? 'key';
  return html`<form class="lookup" method="get" action="/address/${view.address}#storage"><input type="hidden" name="map" value="${row.name}"><input type="text" name="key" value="${asked}" placeholder="${keyType}" aria-label="Key of ${row.name}" maxlength="1000" spellcheck="false" autocomplete="off"><button type="submit" class="secondary small">Look up</button></form>`;
}

function rowsTable(rows: StorageRow[], view: StorageView, empty: string): Html {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap"><table class="storage-layout storage-values">
<thead><tr><th>Slot</th><th>Offset</th><th>Type</th><th>Name</th><th>Value</th></tr></thead>
<tbody>${rows.map(
    (row) =>
      html`<tr data-name="${row.name}"><td class="mono">${slotText(row.slot)}</td><td class="mono">${row.offset}</td><td class="mono">${row.type}</td><td class="mono depth-${Math.min(row.depth, 4).toString()}">${row.name}</td>${valueCell(row, view)}</tr>`,
  )}</tbody>
</table></div>`;
}

/** The ERC-7201 namespaces the sources mark (solc's layout does not list them). */
function namespacesSection(namespaces: NamespaceValues[], view: StorageView): Html | string {
  if (namespaces.length === 0) return '';
  return html`<h3>Namespaced storage (ERC-7201)</h3>
<p class="muted">Structs the sources mark <span class="mono">@custom:storage-location erc7201:…</span>, laid out here from their sources (solc's layout does not list them).</p>
${namespaces.map(
  (
    n,
  ) => html`<h4 class="namespace" data-namespace="${n.id}"><span class="mono">${n.struct}</span> at <span class="mono">erc7201:${n.id}</span> <span class="muted mono small">(slot ${slotHex(n.slot)})</span></h4>
${n.rows ? rowsTable(n.rows, view, 'No member.') : html`<p class="notice info">Not shown: the member type <span class="mono">${n.unknownType ?? ''}</span> cannot be laid out from the sources without compiling them.</p>`}`,
)}`;
}

/** The proxy's own storage read with its implementation's layout. */
function proxyStorage(view: StorageView, asProxy: NonNullable<StorageValues['asProxy']>): Html {
  return html`<h2 id="storage-as-proxy">Storage as proxy</h2>
<p class="muted">This proxy's storage, read with the layout of its implementation ${addressLink(asProxy.implementation)} (${asProxy.contractName}).</p>
${asProxy.section.rows ? rowsTable(asProxy.section.rows, view, 'The implementation has no state variable in storage.') : html`<p class="notice info">The implementation's storage layout is not kept.</p>`}
${namespacesSection(asProxy.section.namespaces, view)}`;
}

function layoutTable(kept: ContractLayout, empty: string): Html {
  if (!kept.layout) return html`<p class="notice info">No storage layout (${missingLayoutText(kept.missing)}).</p>`;
  const layout: StorageLayout = kept.layout;
  if (layout.storage.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap"><table class="storage-layout">
<thead><tr><th>Slot</th><th>Offset</th><th>Type</th><th>Name</th></tr></thead>
<tbody>${layout.storage.map(
    (entry) =>
      html`<tr><td class="mono">${entry.slot}</td><td class="mono">${entry.offset}</td><td class="mono">${layout.types?.[entry.type]?.label ?? entry.type}</td><td class="mono">${entry.label}</td></tr>`,
  )}</tbody>
</table></div>`;
}

/** The contract page: verified details, sources, ABI, Read/Write (and as Proxy); or how to verify. */
export function contractPage(data: ContractPageData): Html {
  const contract = data.contract;
  if (!contract) return unverifiedPage(data);
  const files = publishedFiles(contract);
  const functions = abiFunctions(contract.abi);
  const implementationFunctions = data.implementation ? abiFunctions(data.implementation.abi) : null;
  const reads = functions.filter((f) => f.readOnly).length;
  const writes = functions.length - reads;
  const tabs: { id: string; label: string }[] = [
    { id: 'code', label: 'Code' },
    { id: 'read', label: `Read Contract (${reads})` },
    { id: 'write', label: `Write Contract (${writes})` },
  ];
  if (implementationFunctions) {
    tabs.push({ id: 'read-proxy', label: 'Read as Proxy' }, { id: 'write-proxy', label: 'Write as Proxy' });
  }
  if (data.layouts) tabs.push({ id: 'storage', label: 'Storage' });
  const matchKind = contract.matchKind === 'full' ? 'full' : 'partial';
  return layout(
    { title: `${contract.contractName} ${data.address}`, chainId: data.chainId, query: data.address },
    html`<div data-address="${data.address}">
<h1><span class="ident" title="${contract.contractName}">${contract.contractName}</span> <span class="badge ok">Verified</span> <span class="badge ${matchKind === 'full' ? 'ok' : 'warn'}">${matchKind} match</span>${data.proxy ? html` <span class="badge info">Proxy</span>` : ''}</h1>
<p class="address-line"><span class="addr" id="contract-address">${data.address}</span> <button type="button" class="secondary small js-only" data-copy="#contract-address" hidden>Copy address</button></p>
<div class="card">
<dl class="facts">
<dt>Contract name</dt><dd>${contract.contractName}</dd>
<dt>Compiler</dt><dd class="mono">${contract.compilerVersion}</dd>
<dt>Optimizer</dt><dd>${contract.optimizationUsed ? `enabled, ${contract.runs} runs` : 'disabled'}${contract.viaIR ? ' · via IR' : ''}</dd>
<dt>EVM version</dt><dd>${contract.evmVersion || 'default'}</dd>
${metadataSettings(contract)}
<dt>Licence</dt><dd>${licenseName(contract.licenseType)}</dd>
<dt>Match</dt><dd>${matchExplanation(contract)}${partsMatched(contract)}</dd>
<dt>Verified</dt><dd>${howVerified(contract)} ${timeTag(contract.verifiedAt)}${contract.receipt && isReceipt(contract.receipt) ? html` · <a href="/receipt/${contract.receipt}">receipt</a>` : ''}</dd>
${creationFacts(contract)}
${history(data.history)}
${contract.libraries.length ? html`<dt>Libraries</dt><dd>${contract.libraries.map((l) => html`<div>${l.name}: ${isAddress(l.address) ? addressLink(l.address) : l.address}</div>`)}</dd>` : ''}
</dl>
${contract.runtimeMatch === null ? html`<p class="notice warn">This record was verified from the creation code alone: the code deployed at the address was never compared with these sources. A new submission that matches the deployed code replaces it.</p>` : ''}
</div>
${proxyDetails(data)}
<nav class="tabs">${tabs.map((t) => html`<a href="#${t.id}" aria-selected="false">${t.label}</a>`)}</nav>
<section class="tab-panel" id="code">
<h2>Source code <span class="muted">(${files.length} file${files.length === 1 ? '' : 's'})</span> <a class="small" href="/address/${data.address}/standard-input.json" download>Download the standard JSON input</a></h2>
${contract.unpublishedSources > 0 ? html`<p class="notice info">The submitted input also carried ${contract.unpublishedSources === 1 ? 'one file' : `${contract.unpublishedSources} files`} that this contract does not use: its metadata does not list ${contract.unpublishedSources === 1 ? 'it' : 'them'}, so nothing proves ${contract.unpublishedSources === 1 ? 'it' : 'them'}, and ${contract.unpublishedSources === 1 ? 'it is' : 'they are'} not published.</p>` : ''}
${sourceView(data.address, data.sources ?? prepareSourcesNow(files, data.chosenFile ?? null, null))}
<h2>Constructor arguments</h2>
${constructorArguments(contract)}
<h2>Contract ABI <button type="button" class="secondary small js-only" data-copy="#abi-json" hidden>Copy ABI</button></h2>
<pre class="source abi" id="abi-json">${prettyAbi(contract.abi)}</pre>
${compiledCodeSection(contract, data.compiledCode ?? null)}
</section>
${functionPanels(functions, { read: 'read', write: 'write' }, false, '')}
${implementationFunctions ? functionPanels(implementationFunctions, { read: 'read-proxy', write: 'write-proxy' }, true, proxyNote(data)) : ''}
${data.layouts ? storagePanel(data, data.layouts) : ''}
${recentReceipts(data.receipts)}
</div>`,
  );
}
