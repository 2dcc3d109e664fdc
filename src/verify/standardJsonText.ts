/**
 * Standard JSON input as clients send it: Etherscan wraps it in one extra pair of braces
 * (`{{...}}`) in getsourcecode's SourceCode, and clients send it back that way. The one place
 * that reads the text, checks what a submission may contain, and writes the wrapping.
 */
import { SolproofError } from '../core/errors.js';
import { isRecord } from '../core/json.js';
import type { SolcInput, SolcSource } from '../core/solcInput.js';
import { solidityOutline } from '../core/solidityOutline.js';

/** Bounds on one input: more than any real project has, few enough to keep a compile bounded. */
export const MAX_SOURCES = 2000;
export const MAX_CONTRACT_DECLARATIONS = 5000;

/** The text without Etherscan's `{{...}}` wrapping (a JSON object cannot start with `{{`, so it is unambiguous). */
export function unwrapStandardJson(text: string): string {
  const body = text.trim();
  return body.startsWith('{{') && body.endsWith('}}') ? body.slice(1, -1) : body;
}

/** `{{...}}`: Etherscan's wrapping of a standard JSON input in getsourcecode's SourceCode. */
export function wrapStandardJson(inputText: string): string {
  return `{${inputText}}`;
}

/**
 * Parses a user's standard JSON input text, wrapped or not, and checks it with
 * checkStandardJsonInput. A key given twice counts once, with its last value, as in solc.
 * Throws SolproofError `invalid_standard_json`.
 */
export function parseStandardJsonText(text: string): SolcInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unwrapStandardJson(text));
  } catch (e) {
    throw new SolproofError('invalid_standard_json', { problem: 'not_json', document: 'input', parserMessage: (e as Error).message });
  }
  return checkStandardJsonInput(parsed);
}

/**
 * Checks a parsed standard JSON input: Solidity only, inline `content` for every source, at
 * most MAX_SOURCES sources and MAX_CONTRACT_DECLARATIONS contracts, well-formed
 * `settings.libraries`. `urls` are refused: a path or URL there would make the server read
 * files or fetch from the network. Returns the input as given (a copy); throws SolproofError
 * `invalid_standard_json`.
 */
export function checkStandardJsonInput(parsed: unknown): SolcInput {
  if (!isRecord(parsed)) throw new SolproofError('invalid_standard_json', { problem: 'not_an_object', document: 'input' });
  const language = parsed['language'];
  if (language !== 'Solidity') {
    // Other languages can emit raw bytes (Yul's `verbatim`) and so reproduce any deployed code.
    throw new SolproofError('invalid_standard_json', { problem: 'not_solidity', language: JSON.stringify(language ?? null).slice(0, 40) });
  }
  const sources = parsed['sources'];
  if (!isRecord(sources) || Object.keys(sources).length === 0) {
    throw new SolproofError('invalid_standard_json', { problem: 'no_sources' });
  }
  if (Object.keys(sources).length > MAX_SOURCES) {
    throw new SolproofError('invalid_standard_json', { problem: 'too_many_sources', max: MAX_SOURCES });
  }
  const cleanSources: Record<string, SolcSource> = {};
  for (const [path, source] of Object.entries(sources)) {
    if (!isRecord(source)) throw new SolproofError('invalid_standard_json', { problem: 'source_not_an_object', path });
    if ('urls' in source) {
      throw new SolproofError('invalid_standard_json', { problem: 'source_urls', path });
    }
    if (typeof source['content'] !== 'string') {
      throw new SolproofError('invalid_standard_json', { problem: 'source_without_content', path });
    }
    cleanSources[path] = { ...(source as SolcSource) };
  }
  const settings = parsed['settings'] ?? {};
  if (!isRecord(settings)) throw new SolproofError('invalid_standard_json', { problem: 'settings_not_an_object' });
  const libraries = settings['libraries'];
  if (libraries !== undefined && !isLibrariesShape(libraries)) {
    throw new SolproofError('invalid_standard_json', { problem: 'libraries_shape' });
  }
  let declarations = 0;
  for (const source of Object.values(cleanSources)) {
    for (const item of solidityOutline(source.content ?? '')) {
      if (item.kind === 'declaration' && ++declarations > MAX_CONTRACT_DECLARATIONS) {
        throw new SolproofError('invalid_standard_json', { problem: 'too_many_declarations', max: MAX_CONTRACT_DECLARATIONS });
      }
    }
  }
  return { ...parsed, language, sources: cleanSources, settings: structuredClone(settings) };
}

function isLibrariesShape(v: unknown): v is Record<string, Record<string, string>> {
  return isRecord(v) && Object.values(v).every((file) => isRecord(file) && Object.values(file).every((a) => typeof a === 'string'));
}
