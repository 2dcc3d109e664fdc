/**
 * A build-info file holds the compiled output of every contract in the build: the one whose
 * runtime code is the code at the address can be picked for the user instead of asking. The
 * comparison leaves out what the deployment fills in or the build cannot know (immutables,
 * library addresses, the metadata hash): enough to choose, not to verify (the verification
 * that follows decides).
 */

interface CompiledRuntime {
  object?: unknown;
  immutableReferences?: Record<string, { start: number; length: number }[]>;
  linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>;
}

/** The code without its trailing CBOR metadata (its last two bytes give the length), as hex without 0x. */
function withoutMetadata(hex: string): string {
  if (hex.length < 4) return hex;
  const length = Number.parseInt(hex.slice(-4), 16);
  const cut = (length + 2) * 2;
  return Number.isFinite(length) && cut <= hex.length ? hex.slice(0, hex.length - cut) : hex;
}

/** `hex` with the given byte ranges zeroed. */
function masked(hex: string, ranges: { start: number; length: number }[]): string {
  let out = hex;
  for (const { start, length } of ranges) {
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length <= 0 || (start + length) * 2 > out.length) continue;
    out = out.slice(0, start * 2) + '0'.repeat(length * 2) + out.slice((start + length) * 2);
  }
  return out;
}

/**
 * The `path:Name` of the one contract in a build-info's `output` whose runtime code matches the
 * deployed `code`; null when none or several do, or the file carries no output.
 */
export function contractMatchingCode(output: unknown, code: string): string | null {
  const contracts = (output as { contracts?: Record<string, Record<string, { evm?: { deployedBytecode?: CompiledRuntime } }>> } | null)?.contracts;
  if (!contracts || typeof contracts !== 'object') return null;
  const deployed = code.replace(/^0x/i, '').toLowerCase();
  if (!deployed) return null;
  const found: string[] = [];
  for (const [path, byName] of Object.entries(contracts)) {
    if (!byName || typeof byName !== 'object') continue;
    for (const [name, contract] of Object.entries(byName)) {
      const runtime = contract?.evm?.deployedBytecode;
      if (typeof runtime?.object !== 'string' || runtime.object.length !== deployed.length) continue;
      const ranges = [
        ...Object.values(runtime.immutableReferences ?? {}).flat(),
        ...Object.values(runtime.linkReferences ?? {}).flatMap((libs) => Object.values(libs ?? {}).flat()),
      ];
      // Link placeholders are not hex: zeroed like the addresses the chain has there.
      const compiled = withoutMetadata(masked(runtime.object.toLowerCase(), ranges));
      if (compiled === withoutMetadata(masked(deployed, ranges))) found.push(`${path}:${name}`);
      if (found.length > 1) return null;
    }
  }
  return found.length === 1 ? found[0]! : null;
}
