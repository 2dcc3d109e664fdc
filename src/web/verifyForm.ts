/**
 * The Verify & Publish form (`/verify`): what the browser sent, read into the fields of the
 * API's `verifysourcecode`. Three ways to give the sources: one file (pasted or uploaded),
 * several files (imports resolved among them), or a standard JSON input (pasted or uploaded;
 * a Hardhat or Foundry build-info file, or Foundry's `--show-standard-json-input` output).
 * Pure: no HTTP, no store. Problems are named per field so the page can show each next to it.
 */

import { posix } from 'node:path';
import { type AbiParameter, encodeAbiParameters, parseAbiParameters } from 'viem';
import { withV } from '../core/compilerVersion.js';
import { isSolproofError } from '../core/errors.js';
import { isAddress } from '../core/hex.js';
import { spdxLicense } from '../core/licenseFromSource.js';
import type { SolcInput } from '../core/solcInput.js';
import { solidityOutline } from '../core/solidityOutline.js';
import { errorSentence } from '../texts/index.js';
import { looksLikeVyperSource, readBuildFile } from '../verify/index.js';

export type SourceFormat = 'single' | 'files' | 'json';
export const SOURCE_FORMATS: readonly SourceFormat[] = ['single', 'files', 'json'];

/** A form entry: a text field, or an uploaded file with its name and text. */
export type FormEntry = { name: string; value: string } | { name: string; file: { filename: string; text: string } };

/** The fields the page shows again after a refusal (never the uploaded files, never the key unless asked). */
export interface VerifyFormValues {
  address: string;
  format: SourceFormat;
  compiler: string;
  optimization: boolean;
  runs: string;
  evmVersion: string;
  viaIR: boolean;
  contractName: string;
  constructorArguments: string;
  /** The constructor's parameter types (`uint256,string`), for typed values. */
  constructorTypes: string;
  /** The constructor's values as a JSON array (`[100, "Token"]`), encoded with constructorTypes. */
  constructorValues: string;
  license: string;
  apiKey: string;
  source: string;
  standardJson: string;
  /**
   * The files sent in the several-files format, kept as JSON (`[{filename, text}]`) so a form sent
   * back after a refusal still has them (a file input cannot be filled in again); '' for none.
   */
  keptFiles: string;
  libraries: { name: string; address: string }[];
}

/** The field a problem concerns ('form' for the whole form). */
export type FormField = keyof VerifyFormValues | 'files' | 'form';

/**
 * `sourceLicense`: the licence code the contract's own file names in its SPDX line (null when
 * none or unknown). The published licence is that one whatever the form chose.
 */
export type ReadForm =
  | { ok: true; values: VerifyFormValues; params: Record<string, string>; contracts: string[]; sourceLicense: number | null }
  | { ok: false; values: VerifyFormValues; errors: Partial<Record<FormField, string>>; contracts: string[]; sourceLicense: number | null };

/** Library rows on the form. */
export const FORM_LIBRARIES = 5;
/** Files accepted in the several-files format. */
export const MAX_FORM_FILES = 300;
/** Paths imports may add for uploaded files found by name, and how many times the uploaded text the sources may then hold. */
const MAX_IMPORTED_PATHS = MAX_FORM_FILES;
const MAX_IMPORTED_TEXT_FACTOR = 4;
/** An uploaded file's text is sent back in the page after a refusal up to this size (beyond, it is chosen again). */
export const MAX_KEPT_CHARS = 8 * 1024 * 1024;
/** Contracts offered for the name field, at most. */
const MAX_OFFERED_CONTRACTS = 500;

export function emptyFormValues(address = ''): VerifyFormValues {
  return {
    address,
    format: 'single',
    compiler: '',
    optimization: false,
    runs: '200',
    evmVersion: '',
    viaIR: false,
    contractName: '',
    constructorArguments: '',
    constructorTypes: '',
    constructorValues: '',
    license: '',
    apiKey: '',
    source: '',
    standardJson: '',
    keptFiles: '',
    libraries: [],
  };
}

/** The contracts and libraries declared in a set of sources, as `path:Name` (or `Name` for one unnamed file). */
export function declaredContracts(sources: Record<string, string>, qualified: boolean): string[] {
  const out = new Set<string>();
  for (const [path, text] of Object.entries(sources)) {
    for (const item of solidityOutline(text)) {
      if (item.kind !== 'declaration' || item.keyword === 'interface') continue;
      out.add(qualified ? `${path}:${item.name}` : item.name);
      if (out.size >= MAX_OFFERED_CONTRACTS) return [...out];
    }
  }
  return [...out];
}

/** A file name from an upload as a source path: forward slashes, no leading slash, no `..`. */
function sourcePath(filename: string): string | null {
  const path = posix
    .normalize(filename.replace(/\\/g, '/'))
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
  if (!path || path === '.' || path.startsWith('../') || path.length > 512) return null;
  return path;
}

/**
 * Several uploaded files as one standard JSON input. An import that names no uploaded path
 * (a folder uploaded without its parents, `@openzeppelin/...` copied next to the contract) is
 * given the one uploaded file of that name, under the path the import asks for.
 */
export function sourcesFromFiles(files: { filename: string; text: string }[]): { sources: Record<string, string> } | { error: string } {
  const sources: Record<string, string> = {};
  for (const f of files) {
    if (!/\.sol$/i.test(f.filename)) continue;
    const path = sourcePath(f.filename);
    if (!path) return { error: `"${f.filename.slice(0, 80)}" is not a usable file name` };
    sources[path] = f.text;
  }
  if (Object.keys(sources).length === 0) return { error: 'Choose the .sol files of the contract (the file that declares it and every file it imports)' };
  const byName = new Map<string, string[]>();
  for (const path of Object.keys(sources)) byName.set(posix.basename(path), [...(byName.get(posix.basename(path)) ?? []), path]);
  // Each path an import adds repeats a file's text: a file that imports itself under a longer
  // path (A.sol: `import "./sub/A.sol"`) would add paths without end.
  let uploaded = 0;
  for (const text of Object.values(sources)) uploaded += text.length;
  let total = uploaded;
  let added = 0;
  const pending = Object.keys(sources);
  while (pending.length) {
    const path = pending.pop()!;
    for (const item of solidityOutline(sources[path]!)) {
      if (item.kind !== 'import') continue;
      const target = item.path.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), item.path)) : item.path;
      if (target in sources) continue;
      const candidates = byName.get(posix.basename(target)) ?? [];
      if (candidates.length !== 1) {
        return {
          error: `${path} imports "${item.path.slice(0, 200)}", which is not among the files${candidates.length > 1 ? ` (several files are named ${posix.basename(target).slice(0, 200)})` : ''}`,
        };
      }
      const text = sources[candidates[0]!]!;
      total += text.length;
      if (++added > MAX_IMPORTED_PATHS || target.length > 512 || total > MAX_IMPORTED_TEXT_FACTOR * uploaded) {
        return {
          error: `The imports name the files under too many other paths (at most ${MAX_IMPORTED_PATHS}); choose the files from the folders the imports name`,
        };
      }
      sources[target] = text;
      pending.push(target);
    }
  }
  return { sources };
}

/** Files kept from the form's last sending (the `keptfiles` field); none when it does not read. */
function keptFiles(json: string): { filename: string; text: string }[] {
  if (!json) return [];
  try {
    const list: unknown = JSON.parse(json);
    if (!Array.isArray(list)) return [];
    return list.flatMap((f: { filename?: unknown; text?: unknown }) =>
      typeof f?.filename === 'string' && typeof f.text === 'string' ? [{ filename: f.filename, text: f.text }] : [],
    );
  } catch {
    return [];
  }
}

function text(entries: FormEntry[], name: string): string {
  let value = '';
  for (const e of entries) if (e.name === name && 'value' in e) value = e.value;
  return value;
}

function files(entries: FormEntry[], name: string): { filename: string; text: string }[] {
  return entries.flatMap((e) => (e.name === name && 'file' in e && e.file.filename ? [e.file] : []));
}

/**
 * Reads the form. On success `params` are verifysourcecode's fields (with `apikey`), ready for
 * the API; `contracts` lists the contracts found in the sources (the page offers them).
 */
export function readVerifyForm(entries: FormEntry[]): ReadForm {
  const errors: Partial<Record<FormField, string>> = {};
  const formatText = text(entries, 'format');
  const values: VerifyFormValues = {
    address: text(entries, 'address').trim(),
    format: SOURCE_FORMATS.find((f) => f === formatText) ?? 'single',
    compiler: text(entries, 'compiler').trim(),
    optimization: text(entries, 'optimization') === '1',
    runs: text(entries, 'runs').trim() || '200',
    evmVersion: text(entries, 'evmversion').trim(),
    viaIR: text(entries, 'viair') === '1',
    contractName: text(entries, 'contractname').trim(),
    constructorArguments: text(entries, 'constructorarguments').trim(),
    constructorTypes: text(entries, 'constructortypes').trim(),
    constructorValues: text(entries, 'constructorvalues').trim(),
    // Empty: none chosen, the source's SPDX line decides (as the API does without licenseType).
    license: text(entries, 'license').trim(),
    apiKey: text(entries, 'apikey').trim(),
    source: text(entries, 'source'),
    standardJson: text(entries, 'standardjson'),
    keptFiles: '',
    libraries: [],
  };
  for (let i = 1; i <= FORM_LIBRARIES; i++) {
    const name = text(entries, `libraryname${i}`).trim();
    const address = text(entries, `libraryaddress${i}`).trim();
    if (name || address) values.libraries.push({ name, address });
  }
  if (!values.address) errors.address = 'Enter the contract address';
  else if (!isAddress(values.address)) errors.address = 'Not an address: 0x followed by 40 hex digits';
  if (!values.apiKey) errors.apiKey = 'Enter your API key (the same daily quota applies as for the API)';

  const params: Record<string, string> = {
    module: 'contract',
    action: 'verifysourcecode',
    contractaddress: values.address,
    compilerversion: values.compiler,
    optimizationUsed: values.optimization ? '1' : '0',
    runs: values.runs,
    evmversion: values.evmVersion,
    viaIR: values.viaIR ? '1' : '0',
    constructorArguements: values.constructorArguments.replace(/^0x/i, ''),
    licenseType: values.license,
    apikey: values.apiKey,
  };
  // Typed values instead of hex: encoded here with the constructor's types.
  if (!values.constructorArguments && values.constructorValues) {
    const encoded = encodeConstructorValues(values.constructorTypes, values.constructorValues);
    if ('error' in encoded) errors.constructorArguments = encoded.error;
    else params['constructorArguements'] = encoded.hex.slice(2);
  }
  values.libraries.forEach((l, i) => {
    params[`libraryname${i + 1}`] = l.name;
    params[`libraryaddress${i + 1}`] = l.address;
  });

  let contracts: string[] = [];
  let contractName = values.contractName;
  let sourceLicense: number | null = null;
  if (values.format === 'single') {
    const upload = files(entries, 'sourcefile')[0];
    if (upload) values.source = upload.text;
    if (!values.source.trim()) errors.source = 'Paste the Solidity or Vyper source, or choose a .sol or .vy file';
    params['sourceCode'] = values.source;
    sourceLicense = spdxLicense(values.source);
    if (isVyperChoice(values.compiler, upload?.filename, values.source)) {
      // One Vyper file: its contract is the file, named by the file's name without .vy.
      params['codeformat'] = 'vyper-single-file';
      const stem = upload ? vyperStem(upload.filename) : '';
      if (!contractName && stem) contractName = stem;
      if (!values.compiler.startsWith('vyper:') && !errors.source && values.compiler) {
        errors.compiler = 'This is a Vyper source: choose a Vyper compiler (vyper:0.4.3)';
      }
    } else {
      contracts = declaredContracts({ 'source.sol': values.source }, false);
      params['codeformat'] = 'solidity-single-file';
      if (!contractName && contracts.length === 1) contractName = contracts[0]!;
    }
  } else if (values.format === 'json' && isVyperJsonText(jsonTextOf(entries, values))) {
    // Vyper's standard JSON input: passed on as it is; its contracts are its .vy files.
    const jsonText = jsonTextOf(entries, values);
    values.standardJson = jsonText.length <= MAX_KEPT_CHARS ? jsonText : '';
    const paths = vyperJsonPaths(jsonText);
    contracts = paths.filter((p) => p.endsWith('.vy')).map((p) => `${p}:${vyperStem(p)}`);
    if (contractName && !contractName.includes(':')) {
      const matches = contracts.filter((c) => c.endsWith(`:${contractName}`));
      if (matches.length === 1) contractName = matches[0]!;
      else
        errors.contractName = matches.length
          ? `Several files are named ${contractName}: choose one of ${matches.join(', ')}`
          : `No file ${contractName}.vy among the sources`;
    }
    if (!contractName && contracts.length === 1) contractName = contracts[0]!;
    if (values.compiler && !values.compiler.startsWith('vyper:'))
      errors.compiler = "This is Vyper's standard JSON input: choose a Vyper compiler (vyper:0.4.3)";
    params['codeformat'] = 'vyper-json';
    params['sourceCode'] = jsonText;
  } else {
    let input: SolcInput | null = null;
    if (values.format === 'files') {
      // Files chosen now, else the ones kept from the form's last sending.
      let chosen = files(entries, 'sourcefiles');
      if (chosen.length === 0) chosen = keptFiles(text(entries, 'keptfiles'));
      const read = sourcesFromFiles(chosen.slice(0, MAX_FORM_FILES + 1));
      const keptText = JSON.stringify(chosen.slice(0, MAX_FORM_FILES).map((f) => ({ filename: f.filename, text: f.text })));
      if (keptText.length <= MAX_KEPT_CHARS) values.keptFiles = keptText;
      if (chosen.length > MAX_FORM_FILES) errors.files = `At most ${MAX_FORM_FILES} files`;
      else if ('error' in read) errors.files = read.error;
      else {
        const settings: Record<string, unknown> = { optimizer: { enabled: values.optimization, runs: Number(values.runs) || 200 } };
        if (values.evmVersion && values.evmVersion !== 'default') settings['evmVersion'] = values.evmVersion;
        if (values.viaIR) settings['viaIR'] = true;
        input = { language: 'Solidity', sources: Object.fromEntries(Object.entries(read.sources).map(([p, t]) => [p, { content: t }])), settings };
      }
    } else {
      const jsonText = jsonTextOf(entries, values);
      // An uploaded file is kept in the text field: a form sent back after a refusal still has it.
      values.standardJson = jsonText.length <= MAX_KEPT_CHARS ? jsonText : '';
      if (!jsonText.trim()) errors.standardJson = 'Paste the standard JSON input, or choose a build-info or standard JSON file';
      else {
        try {
          const build = readBuildFile(jsonText);
          input = build.input;
          // A build-info file names its compiler: used when the field was left empty.
          if (!values.compiler && build.compilerVersion) values.compiler = withV(build.compilerVersion);
        } catch (e) {
          errors.standardJson = isSolproofError(e) ? errorSentence(e) : (e as Error).message;
        }
      }
    }
    if (input) {
      const sources = Object.fromEntries(Object.entries(input.sources).map(([p, s]) => [p, s.content ?? '']));
      contracts = declaredContracts(sources, true);
      // A bare name is qualified with the one file that declares it.
      if (contractName && !contractName.includes(':')) {
        const matches = contracts.filter((c) => c.endsWith(`:${contractName}`));
        if (matches.length === 1) contractName = matches[0]!;
        else
          errors.contractName = matches.length
            ? `Several files declare ${contractName}: choose one of ${matches.join(', ')}`
            : `No file declares ${contractName}`;
      }
      if (!contractName && contracts.length === 1) contractName = contracts[0]!;
      params['codeformat'] = 'solidity-standard-json-input';
      params['sourceCode'] = JSON.stringify(input);
      const path = contractName.includes(':') ? contractName.slice(0, contractName.lastIndexOf(':')) : '';
      sourceLicense = spdxLicense(sources[path] ?? '');
    }
  }
  params['compilerversion'] = values.compiler;
  if (!values.compiler) errors.compiler = 'Choose the compiler version the contract was compiled with';
  if (!contractName && !errors.contractName)
    errors.contractName = contracts.length ? `Choose the contract: ${contracts.slice(0, 10).join(', ')}` : 'Enter the contract name';
  values.contractName = contractName;
  params['contractname'] = contractName;
  if (Object.keys(errors).length) return { ok: false, values, errors, contracts, sourceLicense };
  return { ok: true, values, params, contracts, sourceLicense };
}

/** The standard JSON input sent: the uploaded file, else the pasted text. */
function jsonTextOf(entries: FormEntry[], values: VerifyFormValues): string {
  const upload = files(entries, 'jsonfile')[0];
  return upload ? upload.text : values.standardJson;
}

/** Whether a standard JSON text is Vyper's (`"language": "Vyper"`), read only as far as that. */
function isVyperJsonText(text: string): boolean {
  if (!/"language"\s*:\s*"Vyper"/.test(text.slice(0, 200_000))) return false;
  try {
    const value = JSON.parse(text) as { language?: unknown };
    return value !== null && typeof value === 'object' && value.language === 'Vyper';
  } catch {
    return false;
  }
}

/** The source paths of a Vyper standard JSON input (checked to parse by isVyperJsonText). */
function vyperJsonPaths(text: string): string[] {
  const sources = (JSON.parse(text) as { sources?: unknown }).sources;
  return sources && typeof sources === 'object' ? Object.keys(sources).slice(0, MAX_OFFERED_CONTRACTS) : [];
}

/** A Vyper file's contract name: its file name without the folder and `.vy`. */
function vyperStem(path: string): string {
  return posix.basename(path.replace(/\\/g, '/')).replace(/\.vyi?$/, '');
}

/** A single file is Vyper when a Vyper compiler is chosen, the upload is a .vy file, or nothing is chosen and the text reads as Vyper. */
function isVyperChoice(compiler: string, filename: string | undefined, source: string): boolean {
  if (compiler.startsWith('vyper:')) return true;
  if (filename?.endsWith('.vy')) return true;
  return looksLikeVyperSource(source);
}

/**
 * The field an API refusal concerns, from its text (the API names the parameter it refuses;
 * the texts live in api/texts.ts). 'form' when it names none.
 */
export function fieldOfApiError(message: string, format: SourceFormat): FormField {
  const m = message.toLowerCase();
  if (/api ?key|apikey/.test(m)) return 'apiKey';
  if (/contractaddress|invalid address|address .*(code|contract)|no contract|not a contract|already verified/.test(m)) return 'address';
  if (/compilerversion|compiler version|did you mean|\bcompiler\b/.test(m)) return 'compiler';
  if (/contractname|contract name/.test(m)) return 'contractName';
  if (/constructorarguements|constructorarguments|constructor argument/.test(m)) return 'constructorArguments';
  if (/evmversion|evm version/.test(m)) return 'evmVersion';
  if (/\bruns\b|optimizationused/.test(m)) return 'runs';
  if (/licensetype|licence|license/.test(m)) return 'license';
  if (/library/.test(m)) return 'libraries';
  if (/viair/.test(m)) return 'viaIR';
  if (/sourcecode|standard json|source/.test(m)) return format === 'single' ? 'source' : format === 'files' ? 'files' : 'standardJson';
  return 'form';
}

/** A value from JSON for an ABI parameter: integers as bigint (from numbers or decimal/hex strings), arrays and tuples element by element. */
function abiValue(param: AbiParameter, value: unknown): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(param.type);
  if (array) {
    if (!Array.isArray(value)) throw new Error(`${param.name || param.type}: expected a JSON array`);
    const inner = { ...param, type: array[1]! } as AbiParameter;
    return value.map((v) => abiValue(inner, v));
  }
  if (param.type === 'tuple') {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
    if (!Array.isArray(value) || value.length !== components.length)
      throw new Error(`${param.name || 'tuple'}: expected a JSON array of ${components.length} fields`);
    return components.map((c, i) => abiValue(c, value[i]));
  }
  if (/^u?int\d*$/.test(param.type)) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(value.trim())) return BigInt(value.trim());
    throw new Error(`${param.name || param.type}: expected an integer (a number, or a decimal or 0x string for large ones)`);
  }
  if (param.type === 'bool') {
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    throw new Error(`${param.name || 'bool'}: expected true or false`);
  }
  return value;
}

/**
 * Constructor values typed by the user, ABI-encoded: `types` is the parameter list
 * (`uint256 supply, string name` or `constructor(uint256,string)`), `json` a JSON array of
 * the values in order.
 */
export function encodeConstructorValues(types: string, json: string): { hex: `0x${string}` } | { error: string } {
  const list = types
    .trim()
    .replace(/^constructor\s*\(/, '')
    .replace(/\)\s*$/, '')
    .replace(/\b(memory|calldata|storage|payable)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s+\[/g, '[')
    .trim();
  let params: readonly AbiParameter[];
  try {
    params = list ? parseAbiParameters(list) : [];
  } catch {
    return { error: `The constructor types "${types.slice(0, 120)}" are not Solidity parameter types (e.g. uint256 supply, string name)` };
  }
  let valuesList: unknown;
  try {
    valuesList = JSON.parse(json);
  } catch {
    return { error: 'The constructor values must be a JSON array, e.g. [1000, "My token", "0x…"]' };
  }
  if (!Array.isArray(valuesList)) return { error: 'The constructor values must be a JSON array, e.g. [1000, "My token", "0x…"]' };
  if (valuesList.length !== params.length)
    return { error: `The constructor takes ${params.length} value${params.length === 1 ? '' : 's'}; ${valuesList.length} given` };
  try {
    return {
      hex: encodeAbiParameters(
        params,
        valuesList.map((v, i) => abiValue(params[i]!, v)),
      ),
    };
  } catch (e) {
    return { error: `The constructor values do not encode: ${(e as Error).message.split('\n')[0]!.slice(0, 200)}` };
  }
}
