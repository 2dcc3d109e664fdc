/**
 * `POST /v2/verify/metadata/{chainId}/{address}`'s body (`{sources, metadata,
 * creationTransactionHash?}`: Solidity's metadata.json and the files it names) read as the
 * standard JSON request `POST /v2/verify/...` takes: the metadata's settings without its
 * compilation target, its libraries in the input's shape, the target as the contract, the
 * compiler it names. The files are found by path, else by their keccak256.
 */

import { isRecord } from '../core/json.js';
import { keccakOfText } from '../core/keccak.js';
import { SOURCIFY_TEXT } from '../texts/index.js';

export type MetadataRequest = { ok: true; request: Record<string, unknown> } | { ok: false; message: string };

export function readMetadataRequest(body: unknown): MetadataRequest {
  if (!isRecord(body)) return { ok: false, message: SOURCIFY_TEXT.invalidJson };
  const { sources, metadata, creationTransactionHash } = body;
  if (!isRecord(metadata)) return { ok: false, message: SOURCIFY_TEXT.missingField('metadata') };
  if (!isRecord(sources) || !Object.values(sources).every((s) => typeof s === 'string')) {
    return { ok: false, message: SOURCIFY_TEXT.invalidField('sources', 'expected an object of file paths to their contents') };
  }
  const settings = isRecord(metadata.settings) ? metadata.settings : {};
  const target = isRecord(settings.compilationTarget) ? Object.entries(settings.compilationTarget) : [];
  if (target.length !== 1 || typeof target[0]![1] !== 'string') {
    return { ok: false, message: SOURCIFY_TEXT.invalidField('metadata', 'settings.compilationTarget must name one contract') };
  }
  const compiler = isRecord(metadata.compiler) ? metadata.compiler.version : undefined;
  if (typeof compiler !== 'string') return { ok: false, message: SOURCIFY_TEXT.invalidField('metadata', 'compiler.version is missing') };
  const named = isRecord(metadata.sources) ? metadata.sources : {};

  const byHash = new Map(Object.values(sources as Record<string, string>).map((content) => [keccakOfText(content), content]));
  const inputSources: Record<string, { content: string }> = {};
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(named)) {
    const given = (sources as Record<string, string>)[path];
    const hash = isRecord(entry) && typeof entry.keccak256 === 'string' ? entry.keccak256.toLowerCase() : null;
    const content = isRecord(entry) && typeof entry.content === 'string' ? entry.content : (given ?? (hash ? byHash.get(hash as `0x${string}`) : undefined));
    if (content === undefined) missing.push(path);
    else inputSources[path] = { content };
  }
  if (missing.length > 0) return { ok: false, message: SOURCIFY_TEXT.missingSources(missing) };

  const { compilationTarget: _target, libraries, ...rest } = settings;
  const inputLibraries: Record<string, Record<string, string>> = {};
  if (isRecord(libraries)) {
    for (const [name, address] of Object.entries(libraries)) {
      const colon = name.lastIndexOf(':');
      const file = colon > 0 ? name.slice(0, colon) : '';
      inputLibraries[file] = { ...inputLibraries[file], [colon > 0 ? name.slice(colon + 1) : name]: String(address) };
    }
  }
  return {
    ok: true,
    request: {
      stdJsonInput: {
        language: metadata.language,
        sources: inputSources,
        settings: { ...rest, ...(isRecord(libraries) ? { libraries: inputLibraries } : {}) },
      },
      compilerVersion: compiler,
      contractIdentifier: `${target[0]![0]}:${target[0]![1]}`,
      creationTransactionHash,
    },
  };
}
