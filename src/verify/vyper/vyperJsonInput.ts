/**
 * Vyper's standard JSON input as clients send it (Etherscan's `vyper-json`, Sourcify's and
 * Blockscout's standard JSON): the one place that reads the text and checks what a Vyper
 * submission may contain.
 */
import { SolproofError } from '../../core/errors.js';
import { isRecord as isPlainObject } from '../../core/json.js';
import type { VyperInput } from '../../core/types.js';
import { MAX_SOURCES, unwrapStandardJson } from '../standardJsonText.js';

/**
 * Parses a Vyper standard JSON input text (Etherscan's `{{...}}` wrapping accepted) and checks
 * it with checkVyperJsonInput. Throws SolproofError `invalid_standard_json`.
 */
export function parseVyperJsonText(text: string): VyperInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unwrapStandardJson(text));
  } catch (e) {
    throw new SolproofError('invalid_standard_json', { problem: 'not_json', document: 'input', parserMessage: (e as Error).message });
  }
  return checkVyperJsonInput(parsed);
}

/**
 * Checks a parsed Vyper standard JSON input: `"language": "Vyper"` (Solidity sent as vyper-json
 * is refused, saying so), inline `content` for every source (`urls` would make the compiler
 * read files), at most MAX_SOURCES sources and interfaces together, interfaces as text, an ABI
 * or an EthPM manifest, `settings` an object. Returns the input as given (a copy); throws SolproofError
 * `invalid_standard_json`.
 */
export function checkVyperJsonInput(parsed: unknown): VyperInput {
  if (!isPlainObject(parsed)) throw new SolproofError('invalid_standard_json', { problem: 'not_an_object', document: 'input' });
  const language = parsed['language'];
  if (language !== 'Vyper') {
    throw new SolproofError('invalid_standard_json', { problem: 'not_vyper', language: JSON.stringify(language ?? null).slice(0, 40) });
  }
  const sources = parsed['sources'];
  if (!isPlainObject(sources) || Object.keys(sources).length === 0) {
    throw new SolproofError('invalid_standard_json', { problem: 'no_sources' });
  }
  const interfaces = parsed['interfaces'] ?? {};
  if (!isPlainObject(interfaces)) throw new SolproofError('invalid_standard_json', { problem: 'interface_shape', path: '' });
  if (Object.keys(sources).length + Object.keys(interfaces).length > MAX_SOURCES) {
    throw new SolproofError('invalid_standard_json', { problem: 'too_many_sources', max: MAX_SOURCES });
  }
  for (const [path, source] of Object.entries(sources)) {
    if (!isPlainObject(source)) throw new SolproofError('invalid_standard_json', { problem: 'source_not_an_object', path });
    if ('urls' in source) throw new SolproofError('invalid_standard_json', { problem: 'source_urls', path });
    if (typeof source['content'] !== 'string') throw new SolproofError('invalid_standard_json', { problem: 'source_without_content', path });
  }
  for (const [path, item] of Object.entries(interfaces)) {
    // Text (`content`), an ABI (`abi`, or a bare list, as Vyper still reads it), or an EthPM
    // manifest (`contractTypes`): never a place to read from.
    const ok =
      Array.isArray(item) ||
      (isPlainObject(item) &&
        !('urls' in item) &&
        (item['content'] === undefined || typeof item['content'] === 'string') &&
        (item['abi'] === undefined || Array.isArray(item['abi'])) &&
        (item['contractTypes'] === undefined || isPlainObject(item['contractTypes'])) &&
        ['content', 'abi', 'contractTypes'].some((key) => key in item));
    if (!ok) throw new SolproofError('invalid_standard_json', { problem: 'interface_shape', path });
  }
  const settings = parsed['settings'] ?? {};
  if (!isPlainObject(settings)) throw new SolproofError('invalid_standard_json', { problem: 'settings_not_an_object' });
  return structuredClone({ ...parsed, language, sources, settings }) as VyperInput;
}
