import type { VersionNumbers } from '../core/compilerVersion.js';
import { versionAtLeast } from '../core/compilerVersion.js';
import { strip0x } from '../core/hex.js';
import { type AuxdataPosition, hasContentHash, tailAuxdata, tryDecodeAuxdata } from './auxdata.js';
import type { CompiledAuxdata, CompiledContract } from './compiledContract.js';
import { type AuxdataSource, type CodeMatch, type CreationCodeMatch, matchCreationCode, matchRuntimeCode } from './matchBytecode.js';
import type { ContractCreation } from './ports.js';
import { constructorInputs } from './transformations.js';

export type CodePart = 'runtime' | 'creation';

export interface MatchContractArgs {
  compiled: CompiledContract;
  /** The compiler's version numbers (the version facts decide how auxdata is found). */
  version: VersionNumbers | null;
  /** `eth_getCode` at the address. */
  runtimeCode: string;
  creation: ContractCreation | null;
  /**
   * Finds the positions of several auxdata in one compiled code (a second compile with edited
   * sources). Without it, only a code whose one auxdata is its tail, or whose positions are
   * already known, can be matched partially.
   */
  locateAuxdata?: (part: CodePart) => Promise<AuxdataPosition[]>;
}

export interface ContractMatch {
  runtime: CodeMatch | null;
  creation: CreationCodeMatch | null;
  /** The compiled auxdata, with the positions found while matching (worth keeping for next time). */
  auxdata: Record<CodePart, CompiledAuxdata>;
}

/**
 * Matches a compiled contract against the code at an address and its creation, with the
 * documented fix-ups (call protection, immutables, libraries, auxdata): the one matching core
 * for a fresh compile and for a compilation from the bytecode database.
 */
export async function matchCompiledContract(args: MatchContractArgs): Promise<ContractMatch> {
  const { compiled } = args;
  const onchainRuntime = strip0x(args.runtimeCode).toLowerCase();
  const runtimeSource = auxdataSource(compiled.runtime.code, compiled.runtime.auxdata, args.version, () => args.locateAuxdata?.('runtime'));
  const creationSource = auxdataSource(compiled.creation.code, compiled.creation.auxdata, args.version, () => args.locateAuxdata?.('creation'));
  const runtime = await matchRuntimeCode({
    compiled: compiled.runtime.code,
    onchain: onchainRuntime,
    immutableReferences: compiled.runtime.immutableReferences,
    linkReferences: compiled.runtime.linkReferences,
    auxdata: runtimeSource,
  });
  let creation: CreationCodeMatch | null = null;
  if (args.creation) {
    creation = await matchCreationCode({
      compiled: compiled.creation.code,
      onchain: strip0x(args.creation.creationCode).toLowerCase(),
      linkReferences: compiled.creation.linkReferences,
      auxdata: creationSource,
      constructorInputs: constructorInputs(compiled.abi),
    });
  }
  return { runtime, creation, auxdata: { runtime: runtimeSource.located(), creation: creationSource.located() } };
}

/**
 * How to find the auxdata of a compiled code, by era: none before 0.4.7; the tail only up to
 * 0.4.11 (its legacy assembly lists no auxdata); from solc's report otherwise, with the tail
 * for a single auxdata, known positions, or `locate` when there are several. Metadata is
 * proven only by auxdata solc itself reports, never by bytes found in the code.
 */
function auxdataSource(
  code: string,
  stored: CompiledAuxdata,
  version: VersionNumbers | null,
  locate: () => Promise<AuxdataPosition[]> | undefined,
): AuxdataSource & { located(): CompiledAuxdata } {
  let found: AuxdataPosition[] | undefined = stored.positions;
  const located = (): CompiledAuxdata => (found ? { values: stored.values, positions: found } : { values: stored.values });
  if (!versionAtLeast(version, '0.4.7')) return { proveMetadata: false, positions: async () => [], located };
  if (!versionAtLeast(version, '0.4.12')) {
    // These compilers always end the code with their auxdata (there is no way to switch it off
    // or to emit raw bytes after it), but do not list it in the legacy assembly.
    const tail = tailAuxdata(code);
    return { proveMetadata: hasContentHash(tail?.decoded ?? null), positions: async () => (tail ? [tail.position] : []), located };
  }
  const values = stored.values;
  if (values === null) {
    // Without solc's own report the code's tail could be any bytes the sources emit (data, or
    // raw bytes from a Yul `verbatim`): it proves nothing and locates nothing.
    return { proveMetadata: false, positions: async () => [], located };
  }
  let pending: Promise<AuxdataPosition[]> | undefined;
  return {
    proveMetadata: values.length > 0 && values.every((v) => hasContentHash(tryDecodeAuxdata(v))),
    positions: () =>
      (pending ??= (async () => {
        if (found) return found;
        if (values.length === 0) return [];
        const tail = tailAuxdata(code);
        if (values.length === 1 && tail && tail.position.value === values[0]) return (found = [tail.position]);
        const positions = await locate();
        if (positions) found = positions;
        return positions ?? [];
      })()),
    located,
  };
}
