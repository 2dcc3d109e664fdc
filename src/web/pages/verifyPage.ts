import { EVM_VERSION_NAMES } from '../../core/evmVersions.js';
import { SPDX_TO_CODE } from '../../core/licenseFromSource.js';
import { LICENSES, licenseName } from '../../core/licenses.js';
import { type Html, type HtmlValue, html } from '../html.js';
import { layout } from '../layout.js';
import { FORM_LIBRARIES, type FormField, MAX_FORM_FILES, type VerifyFormValues } from '../verifyForm.js';

export interface VerifyPageData {
  chainId: number;
  values: VerifyFormValues;
  /** Long compiler versions (`v0.8.28+commit.7893614a`), newest release first. */
  compilers: string[];
  /** Contracts found in the sources sent last (offered for the name field). */
  contracts: string[];
  errors: Partial<Record<FormField, string>>;
  /** Said above the form (e.g. where its values came from). */
  notice?: string;
  /** The licence code the contract's file names in its SPDX line, when the sources were read. */
  sourceLicense?: number | null | undefined;
}

const FORMAT_LABELS = {
  single: 'Single file',
  files: 'Several files',
  json: 'Standard JSON input or build-info',
} as const;

/** A field's error, tied to its input by id (aria-describedby). */
function fieldError(data: VerifyPageData, field: FormField): Html {
  const message = data.errors[field];
  return message ? html`<p class="field-error" id="${field}-error" role="alert">${message}</p>` : html``;
}

function invalid(data: VerifyPageData, field: FormField): Html {
  return data.errors[field] ? html` aria-invalid="true" aria-describedby="${field}-error"` : html``;
}

function row(label: Html | string, control: HtmlValue, error: Html, hint?: string): Html {
  return html`<div class="field">${label}${control}${hint ? html`<p class="hint">${hint}</p>` : ''}${error}</div>`;
}

function keptCount(json: string): number {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.length : 0;
  } catch {
    return 0;
  }
}

/**
 * What the licence field will publish: the source's SPDX line wins over a choice (the sources
 * are what is proven); said so when the two differ.
 */
export function licenseNote(chosen: string, sourceLicense: number | null): string {
  const chosenCode = Number(chosen) || 0;
  if (sourceLicense === null) {
    return chosenCode
      ? `Published as ${licenseName(chosenCode)} (the source names no licence Etherscan lists).`
      : 'Published with the licence the contract file names in its SPDX-License-Identifier line (None without one).';
  }
  if (chosenCode && chosenCode !== sourceLicense) {
    return `The source's SPDX line names ${licenseName(sourceLicense)}, not ${licenseName(chosenCode)}: the contract is published as ${licenseName(sourceLicense)}.`;
  }
  return `The source's SPDX line names ${licenseName(sourceLicense)}: published as ${licenseName(sourceLicense)}.`;
}

/**
 * `/verify`: Etherscan's "Verify & Publish" form. A plain multipart POST to `/verify` does the
 * whole job without scripts (single file pasted or uploaded, several files, standard JSON);
 * the script only shows the chosen format's fields, lists the contracts in the chosen sources,
 * and remembers the API key when asked. The API key is the form's first field: browsers send
 * fields in the page's order, and the service reads sources past a form's first megabyte only
 * once it has checked the key.
 */
export function verifyPage(data: VerifyPageData): Html {
  const v = data.values;
  const check = (on: boolean): Html => (on ? html` checked` : html``);
  const selected = (on: boolean): Html => (on ? html` selected` : html``);
  const general = data.errors.form;
  return layout(
    { title: 'Verify & Publish', chainId: data.chainId },
    html`<h1>Verify &amp; Publish contract source code</h1>
<p class="muted">The same check as the API's <code>verifysourcecode</code>, with the same daily quota for your key. The sources you send are compiled and compared byte for byte with the code at the address.</p>
${data.notice ? html`<p class="notice info" id="form-notice">${data.notice}</p>` : ''}
${general ? html`<p class="notice err" role="alert" id="form-error">${general}</p>` : ''}
${Object.keys(data.errors).length && !general ? html`<p class="notice err" role="alert">Please correct the fields marked below.</p>` : ''}
<form class="verify-form card" method="post" action="/verify" enctype="multipart/form-data" data-verify-form>
<h2>Your API key</h2>
${row(
  html`<label for="apikey">API key</label>`,
  html`<input type="password" id="apikey" name="apikey" value="${v.apiKey}" autocomplete="off" spellcheck="false"${invalid(data, 'apiKey')}>`,
  fieldError(data, 'apiKey'),
  'Counts against its daily verification quota, as from Hardhat or Foundry.',
)}
<p class="muted" id="key-link">No key yet? <a href="/keys">How to get one</a>.</p>
<label class="inline js-only" hidden><input type="checkbox" id="remember-key"> Remember the key in this browser</label>
${row(html`<label for="address">Contract address</label>`, html`<input type="text" id="address" name="address" value="${v.address}" placeholder="0x…" autocomplete="off" spellcheck="false" maxlength="42" required${invalid(data, 'address')}>`, fieldError(data, 'address'))}
<fieldset class="formats">
<legend>How you give the sources</legend>
${(['single', 'files', 'json'] as const).map(
  (f) => html`<label class="inline"><input type="radio" name="format" value="${f}"${check(v.format === f)}> ${FORMAT_LABELS[f]}</label>`,
)}
</fieldset>
<section class="format-panel" data-format="single">
<h2>Single file</h2>
${row(html`<label for="source">Solidity or Vyper source (paste)</label>`, html`<textarea id="source" name="source" rows="14" spellcheck="false"${invalid(data, 'source')}>${v.source}</textarea>`, html``)}
${row(html`<label for="sourcefile">…or upload a .sol or .vy file</label>`, html`<input type="file" id="sourcefile" name="sourcefile" accept=".sol,.vy,text/plain">`, fieldError(data, 'source'), 'An uploaded file takes the place of the pasted text. A Vyper file is compiled with a Vyper compiler (vyper:0.4.3); its contract name is the file name without .vy.')}
</section>
<section class="format-panel" data-format="files">
<h2>Several files</h2>
${row(html`<label for="sourcefiles">Solidity files</label>`, html`<input type="file" id="sourcefiles" name="sourcefiles" accept=".sol" multiple${invalid(data, 'files')}>`, html``, `The file that declares the contract and every file it imports (up to ${MAX_FORM_FILES}); imports are resolved among them. The settings below are used.`)}
${v.keptFiles ? html`<input type="hidden" name="keptfiles" value="${v.keptFiles}"><p class="notice info" id="kept-files">${keptCount(v.keptFiles) === 1 ? 'The file you chose is kept' : `The ${keptCount(v.keptFiles)} files you chose are kept`}: send the form again as it is, or choose other files to replace them.</p>` : ''}
${row(html`<label for="sourcefolder">…or a whole folder</label>`, html`<input type="file" id="sourcefolder" name="sourcefiles" webkitdirectory multiple>`, fieldError(data, 'files'), 'Only its .sol files are sent.')}
</section>
<section class="format-panel" data-format="json">
<h2>Standard JSON input</h2>
${row(html`<label for="standardjson">Standard JSON input (paste)</label>`, html`<textarea id="standardjson" name="standardjson" rows="8" spellcheck="false"${invalid(data, 'standardJson')}>${v.standardJson}</textarea>`, html``)}
${row(html`<label for="jsonfile">…or upload a file</label>`, html`<input type="file" id="jsonfile" name="jsonfile" accept=".json,application/json">`, fieldError(data, 'standardJson'), 'A standard JSON input (Solidity\'s, or Vyper\'s with "language": "Vyper"), a Hardhat or Foundry build-info file (artifacts/build-info/*.json, out/build-info/*.json), or the output of forge verify-contract --show-standard-json-input. Its settings are used; the optimizer fields below are ignored.')}
</section>
<h2>Compiler and settings</h2>
<div class="grid">
${row(
  html`<label for="compiler">Compiler</label>`,
  html`<input type="text" id="compiler" name="compiler" list="compiler-list" value="${v.compiler}" placeholder="v0.8.28+commit.7893614a" autocomplete="off" spellcheck="false"${invalid(data, 'compiler')}>
<datalist id="compiler-list">${data.compilers.map((c) => html`<option value="${c}"></option>`)}</datalist>`,
  fieldError(data, 'compiler'),
  'Type to search; newest releases first, solc then Vyper (vyper:0.4.3). A build-info file fills it in.',
)}
${row(
  html`<label for="evmversion">EVM version</label>`,
  html`<select id="evmversion" name="evmversion"${invalid(data, 'evmVersion')}><option value="">compiler default</option>${EVM_VERSION_NAMES.map((n) => html`<option value="${n}"${selected(v.evmVersion === n)}>${n}</option>`)}</select>`,
  fieldError(data, 'evmVersion'),
)}
${row(html`<label class="inline"><input type="checkbox" name="optimization" value="1"${check(v.optimization)}> Optimization enabled</label>`, '', html``)}
${row(html`<label for="runs">Runs</label>`, html`<input type="text" id="runs" name="runs" value="${v.runs}" inputmode="numeric" maxlength="12"${invalid(data, 'runs')}>`, fieldError(data, 'runs'))}
${row(html`<label class="inline"><input type="checkbox" name="viair" value="1"${check(v.viaIR)}> viaIR (compiled through the IR pipeline)</label>`, '', fieldError(data, 'viaIR'))}
</div>
<h2>Contract</h2>
${row(
  html`<label for="contractname">Contract name</label>`,
  html`<input type="text" id="contractname" name="contractname" list="contract-list" value="${v.contractName}" placeholder="MyToken or contracts/MyToken.sol:MyToken" autocomplete="off" spellcheck="false"${invalid(data, 'contractName')}>
<datalist id="contract-list">${data.contracts.map((c) => html`<option value="${c}"></option>`)}</datalist>`,
  fieldError(data, 'contractName'),
  'Found in your sources as you choose them; with one contract it is picked for you.',
)}
${row(
  html`<label for="constructorarguments">Constructor arguments (ABI-encoded hex)</label>`,
  html`<input type="text" id="constructorarguments" name="constructorarguments" value="${v.constructorArguments}" placeholder="empty: read from the creation transaction" spellcheck="false" autocomplete="off"${invalid(data, 'constructorArguments')}>`,
  html``,
)}
<div class="grid">
${row(
  html`<label for="constructortypes">…or typed values: the constructor's types</label>`,
  html`<input type="text" id="constructortypes" name="constructortypes" value="${v.constructorTypes}" placeholder="uint256 supply, string name" spellcheck="false" autocomplete="off">`,
  html``,
  'Read from your sources when the script can.',
)}
${row(
  html`<label for="constructorvalues">values, as a JSON array</label>`,
  html`<input type="text" id="constructorvalues" name="constructorvalues" value="${v.constructorValues}" placeholder='[1000000, "My token"]' spellcheck="false" autocomplete="off">`,
  html``,
  'Encoded for you when the hex field is empty.',
)}
</div>
${fieldError(data, 'constructorArguments')}
<details${data.errors.libraries || v.libraries.length ? html` open` : ''}>
<summary>Libraries</summary>
<p class="hint">Libraries linked at deployment: the name (or path:Name) and the address it was linked at.</p>
${Array.from({ length: FORM_LIBRARIES }, (_, i) => {
  const lib = v.libraries[i] ?? { name: '', address: '' };
  return html`<div class="lib-row"><label>Library ${i + 1} name <input type="text" name="libraryname${i + 1}" value="${lib.name}" autocomplete="off" spellcheck="false"></label>
<label>address <input type="text" name="libraryaddress${i + 1}" value="${lib.address}" placeholder="0x…" autocomplete="off" spellcheck="false"></label></div>`;
})}
${fieldError(data, 'libraries')}
</details>
${row(
  html`<label for="license">Licence</label>`,
  html`<select id="license" name="license"${invalid(data, 'license')}><option value=""${selected(v.license === '')}>From the source's SPDX line</option>${Object.entries(LICENSES).map(([code, name]) => html`<option value="${code}"${selected(v.license === code)}>${code}) ${name}</option>`)}</select>
<p class="hint" id="license-note" data-license-names="${JSON.stringify(LICENSES)}" data-spdx-codes="${JSON.stringify(SPDX_TO_CODE)}">${licenseNote(v.license, data.sourceLicense ?? null)}</p>`,
  fieldError(data, 'license'),
)}
<p><button type="submit" id="verify-submit">Verify and publish</button></p>
</form>`,
  );
}
