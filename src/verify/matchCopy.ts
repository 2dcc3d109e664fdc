import { parseVersionNumbers } from '../core/compilerVersion.js';
import { knownAddress, strip0x } from '../core/hex.js';
import type { Address, Hex } from '../core/types.js';
import { parseVyperVersion } from '../core/vyperVersion.js';
import { swarmSourceOf, tailAuxdata } from './auxdata.js';
import type { CompiledContract } from './compiledContract.js';
import { type ContractVerdict, contractVerdict } from './contractVerdict.js';
import { matchCompiledContract } from './matchContract.js';
import type { ContractCreation } from './ports.js';
import type { Transformation, TransformationValues } from './transformations.js';
import { matchVyperContract } from './vyper/matchVyper.js';

export interface MatchCopyArgs {
  /** A compiled contract from the bytecode database. */
  compiled: CompiledContract;
  /** Long version without `v`. */
  compilerVersion: string;
  /** The compilation's language: `Vyper` is matched as Vyper code is; anything else as solc's. */
  language?: string;
  address: Address;
  /** `eth_getCode` at the address. */
  runtimeCode: Hex;
  creation: ContractCreation | null;
}

/** How a deployed contract matched a stored compilation, and what the matcher read from it. */
export interface CopyMatch extends ContractVerdict {
  creationCompared: boolean;
  /** Hex without 0x, as the matched creation code proved them; null when no creation matched. */
  constructorArguments: string | null;
  /** Fully qualified `path:Name` to address: the libraries the deployed code calls. */
  libraries: Record<string, Address>;
  transformations: { runtime: Transformation[]; creation: Transformation[] };
  transformationValues: { runtime: TransformationValues; creation: TransformationValues };
  swarmSource: string;
}

/**
 * Decides whether the code at an address is a copy of a compiled contract, without
 * compiling: the same matcher as for a submission (every byte compared; immutables,
 * libraries, call protection and auxdata as docs/matching.md describes), with one more rule a
 * submission does not need: a library's call protection must be the address itself. The
 * caller still has to check that every library address holds that library. Null when it is
 * not a copy.
 */
export async function matchCopy(args: MatchCopyArgs): Promise<CopyMatch | null> {
  const runtimeCode = strip0x(args.runtimeCode).toLowerCase();
  if (runtimeCode === '' || args.compiled.runtime.code === '') return null;
  const vyperVersion = args.language === 'Vyper' ? parseVyperVersion(args.compilerVersion) : null;
  if (args.language === 'Vyper' && !vyperVersion) return null;
  const { runtime, creation } = vyperVersion
    ? matchVyperContract({ compiled: args.compiled, version: vyperVersion, runtimeCode, creation: args.creation })
    : await matchCompiledContract({
        compiled: args.compiled,
        version: parseVersionNumbers(args.compilerVersion),
        runtimeCode,
        creation: args.creation,
      });
  if (!runtime) return null;
  const protection = runtime.values.callProtection;
  if (protection !== undefined && protection.toLowerCase() !== args.address.toLowerCase()) return null;
  const libraries: Record<string, Address> = {};
  for (const match of [creation, runtime]) {
    for (const [id, address] of Object.entries(match?.values.libraries ?? {})) libraries[id] = knownAddress(address);
  }
  return {
    ...contractVerdict(runtime, creation),
    creationCompared: args.creation !== null,
    constructorArguments: creation ? creation.constructorArguments : null,
    libraries,
    transformations: { runtime: runtime.transformations, creation: creation?.transformations ?? [] },
    transformationValues: { runtime: runtime.values, creation: creation?.values ?? {} },
    swarmSource: swarmSourceOf(tailAuxdata(runtimeCode)?.decoded ?? null),
  };
}
