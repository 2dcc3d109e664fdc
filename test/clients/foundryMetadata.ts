/**
 * Foundry's reading of a getsourcecode record (foundry-block-explorers, `contract::Metadata`),
 * restated for tests that check single fields and edge cases (foundry.test.ts runs the real
 * forge and cast for the end-to-end flows). Throws where Foundry's parser would fail; returns
 * the values Foundry would see.
 */
export interface FoundryMetadata {
  sourceCode:
    | { kind: 'standard-json'; sources: Record<string, { content: string }>; settings: unknown }
    | { kind: 'sources'; sources: Record<string, { content: string }> }
    | { kind: 'text'; text: string };
  abi: unknown;
  compilerVersion: string;
  optimizationUsed: bigint;
  runs: bigint;
  constructorArguments: string;
  evmVersion: string;
  proxy: bigint;
  implementation: string | undefined;
}

const U64_MAX = (1n << 64n) - 1n;

/** `deserialize_stringified_u64`: decimal text, or 0x-hex; must fit in a u64. */
function stringifiedU64(field: string, value: unknown): bigint {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (typeof value !== 'string') throw new Error(`${field}: expected a numeric string, got ${JSON.stringify(value)}`);
  let n: bigint;
  if (/^[0-9]+$/.test(value)) n = BigInt(value);
  else if (/^0x[0-9a-fA-F]+$/.test(value)) n = BigInt(value);
  else throw new Error(`${field}: ${JSON.stringify(value)} is not a number`);
  if (n > U64_MAX) throw new Error(`${field}: ${value} does not fit in a u64`);
  return n;
}

/** `deserialize_stringified_bool_or_u64`: a u64 as above, or "true"/"false". */
function stringifiedBoolOrU64(field: string, value: unknown): bigint {
  if (value === 'true') return 1n;
  if (value === 'false') return 0n;
  return stringifiedU64(field, value);
}

/** Parses one record the way Foundry's `Metadata` deserializer does. */
export function parseFoundryMetadata(record: Record<string, unknown>): FoundryMetadata {
  for (const f of ['SourceCode', 'ABI', 'ContractName', 'CompilerVersion', 'OptimizationUsed', 'EVMVersion', 'Proxy']) {
    if (!(f in record)) throw new Error(`missing field ${f}`);
  }
  const str = (f: string): string => {
    const v = record[f];
    if (typeof v !== 'string') throw new Error(`${f}: expected a string, got ${JSON.stringify(v)}`);
    return v;
  };

  // deserialize_source_code: `{...}` text is JSON (double braces stripped once), else plain text.
  const text = str('SourceCode');
  let sourceCode: FoundryMetadata['sourceCode'];
  if (text.startsWith('{') && text.endsWith('}')) {
    const inner = text.startsWith('{{') && text.endsWith('}}') ? text.slice(1, -1) : text;
    const parsed = JSON.parse(inner) as Record<string, unknown>;
    if ('sources' in parsed) {
      sourceCode = { kind: 'standard-json', sources: parsed.sources as Record<string, { content: string }>, settings: parsed.settings };
    } else {
      sourceCode = { kind: 'sources', sources: parsed as Record<string, { content: string }> };
    }
  } else {
    sourceCode = { kind: 'text', text };
  }

  const compilerVersion = str('CompilerVersion');
  if (!/^v?\d+\.\d+\.\d+(\+commit\.[0-9a-f]{8})?$/.test(compilerVersion)) throw new Error(`CompilerVersion: bad semver ${compilerVersion}`);

  // alloy `Bytes`: hex, 0x optional, whole bytes.
  const args = record.ConstructorArguments ?? '';
  if (typeof args !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(args)) throw new Error(`ConstructorArguments: not hex bytes: ${JSON.stringify(args)}`);

  // deserialize_address_opt: "" is None, anything else must be an address.
  const impl = record.Implementation ?? '';
  if (typeof impl !== 'string' || (impl !== '' && !/^(0x)?[0-9a-fA-F]{40}$/.test(impl)))
    throw new Error(`Implementation: not an address: ${JSON.stringify(impl)}`);

  return {
    sourceCode,
    abi: JSON.parse(str('ABI')),
    compilerVersion,
    optimizationUsed: stringifiedBoolOrU64('OptimizationUsed', record.OptimizationUsed),
    runs: 'Runs' in record ? stringifiedU64('Runs', record.Runs) : 0n,
    constructorArguments: args,
    evmVersion: str('EVMVersion'),
    proxy: stringifiedBoolOrU64('Proxy', record.Proxy),
    implementation: impl === '' ? undefined : impl,
  };
}
