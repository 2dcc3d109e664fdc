/**
 * The source paths a compiled contract's metadata lists: every file its compilation read
 * (the contract's own and all it imports, directly or not). solc leaves files of the input that
 * the contract never imports out of the metadata, so the metadata hash, and a full match, prove
 * nothing about them. Null when the metadata is absent or unreadable (compilers before 0.4.7):
 * then nothing tells the files apart.
 */
export function metadataSourcePaths(metadata: string): Set<string> | null {
  if (metadata === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return null;
  }
  const sources = (parsed as { sources?: unknown } | null)?.sources;
  if (typeof sources !== 'object' || sources === null || Array.isArray(sources)) return null;
  return new Set(Object.keys(sources));
}
