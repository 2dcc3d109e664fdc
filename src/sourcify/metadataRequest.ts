/**
 * `POST /v2/verify/metadata/{chainId}/{address}`'s body (`{sources, metadata,
 * creationTransactionHash?}`: Solidity's metadata.json and the files it names) read as the
 * standard JSON request `POST /v2/verify/...` takes: the metadata's settings without its
 * compilation target, its libraries in the input's shape, the target as the contract, the
 * compiler it names. The files are found by path, else by their keccak256.
 */
import { keccakOfText } from '../core/keccak.js';
import { SOURCIFY_TEXT } from '../texts/index.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export type MetadataRequest = { ok: true; request: Record<string, unknown> } | { ok: false; message: string };

export function readMetadataRequest(body: unknown): MetadataRequest {
  if (!isObject(body)) return { ok: false, message: SOURCIFY_TEXT.invalidJson };
  const { sources, metadata, creationTransactionHash } = body;
  if (!isObject(metadata)) return { ok: false, message: SOURCIFY_TEXT.missingField('metadata') };
  if (!isObject(sources) || !Object.values(sources).every((s) => typeof s === 'string')) {
    return { ok: false, message: SOURCIFY_TEXT.invalidField('sources', 'expected an object of file paths to their contents') };
  }
  const settings = isObject(metadata.settings) ? metadata.settings : {};
  const target = isObject(settings.compilationTarget) ? Object.entries(settings.compilationTarget) : [];
  if (target.length !== 1 || typeof target[0]![1] !== 'string') {
    return { ok: false, message: SOURCIFY_TEXT.invalidField('metadata', 'settings.compilationTarget must name one contract') };
  }
  const compiler = isObject(metadata.compiler) ? metadata.compiler.version : undefined;
  if (typeof compiler !== 'string') return { ok: false, message: SOURCIFY_TEXT.invalidField('metadata', 'compiler.version is missing') };
  const named = isObject(metadata.sources) ? metadata.sources : {};

  const byHash = new Map(Object.values(sources as Record<string, string>).map((content) => [keccakOfText(content), content]));
  const inputSources: Record<string, { content: string }> = {};
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(named)) {
    const given = (sources as Record<string, string>)[path];
    const hash = isObject(entry) && typeof entry.keccak256 === 'string' ? entry.keccak256.toLowerCase() : null;
    const content = isObject(entry) && typeof entry.content === 'string' ? entry.content : (given ?? (hash ? byHash.get(hash as `0x${string}`) : undefined));
    if (content === undefined) missing.push(path);
    else inputSources[path] = { content };
  }
  if (missing.length > 0) return { ok: false, message: SOURCIFY_TEXT.missingSources(missing) };

  const { compilationTarget: _target, libraries, ...rest } = settings;
  const inputLibraries: Record<string, Record<string, string>> = {};
  if (isObject(libraries)) {
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
        settings: { ...rest, ...(isObject(libraries) ? { libraries: inputLibraries } : {}) },
      },
      compilerVersion: compiler,
      contractIdentifier: `${target[0]![0]}:${target[0]![1]}`,
      ...(creationTransactionHash !== undefined ? { creationTransactionHash } : {}),
    },
  };
}
