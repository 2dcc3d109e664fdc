import type { AbiParameter } from 'viem';
import type { VersionNumbers } from '../../core/compilerVersion.js';
import { strip0x } from '../../core/hex.js';
import type { MatchKind } from '../../core/types.js';
import { vyperHasImmutables } from '../../core/vyperVersion.js';
import type { AuxdataPosition } from '../auxdata.js';
import type { CompiledContract } from '../compiledContract.js';
import type { CodeMatch, CreationCodeMatch } from '../matchBytecode.js';
import type { ContractCreation } from '../ports.js';
import { constructorArgumentsAreCanonical, constructorInputs, type Transformation, type TransformationValues } from '../transformations.js';
import { decodeVyperTail, isVyperShapedAuxdata, type LocatedVyperAuxdata, locateVyperAuxdata, type VyperAuxdata } from './vyperAuxdata.js';

export interface MatchVyperArgs {
  /** The compiled contract (Vyper has no link references and no immutable references). */
  compiled: Pick<CompiledContract, 'abi'> & { creation: { code: string }; runtime: { code: string } };
  /** The compiler's version numbers: they decide where the auxdata is and what it holds. */
  version: VersionNumbers;
  /** `eth_getCode` at the address. */
  runtimeCode: string;
  creation: ContractCreation | null;
}

export interface VyperContractMatch {
  runtime: CodeMatch | null;
  creation: CreationCodeMatch | null;
  auxdata: LocatedVyperAuxdata;
  /**
   * The integrity hashes (from 0.4.1): the compiled one, and the one in the deployed init code
   * (null when the creation is unknown or carries none). Equal, they prove that the deployed
   * contract was compiled from exactly these sources.
   */
  integrity: { compiled: string | null; onchain: string | null };
}

/**
 * Matches a compiled Vyper contract against the code at an address and its creation, in the
 * Verifier Alliance's words:
 *
 * - runtime: the deployed code is the compiled runtime code followed by the immutables the
 *   constructor wrote (`insert` `immutable`, id `0`; their size is in the init code's auxdata
 *   from 0.3.10; from 0.3.7 to 0.3.9 it is what follows the compiled code). Before 0.3.10 the
 *   runtime code ends with the auxdata, which may differ (`replace` `cborAuxdata`, id `1`).
 * - creation: the init code that ran starts with the compiled init code, its auxdata replaced
 *   where it differs (`replace` `cborAuxdata`), and the rest is one canonical ABI encoding of
 *   the constructor's inputs (`insert` `constructorArguments`).
 *
 * A Vyper runtime code carries no hash of its sources, so it matches partially on its own. From
 * 0.4.1 the init code's auxdata starts with the integrity hash, a sha256 of every source file
 * the compile read: an init code that matches with its auxdata unchanged proves the sources
 * byte for byte (a full creation match), and with them the runtime code that init code holds
 * and the immutables its constructor wrote (a full runtime match). A changed comment changes
 * only the hash: the auxdata is replaced and the match is partial.
 */
export function matchVyperContract(args: MatchVyperArgs): VyperContractMatch {
  const compiledCreation = strip0x(args.compiled.creation.code).toLowerCase();
  const compiledRuntime = strip0x(args.compiled.runtime.code).toLowerCase();
  const onchainRuntime = strip0x(args.runtimeCode).toLowerCase();
  const auxdata = locateVyperAuxdata(args.version, compiledCreation, compiledRuntime);
  let runtime = matchVyperRuntime(compiledRuntime, onchainRuntime, auxdata, args.version);
  const creation = args.creation
    ? matchVyperCreation(compiledCreation, strip0x(args.creation.creationCode).toLowerCase(), auxdata, constructorInputs(args.compiled.abi))
    : null;
  const onchainIntegrity = creation ? (onchainAuxdata(creation, auxdata)?.integrity ?? null) : null;
  if (runtime && creation?.kind === 'full') runtime = { ...runtime, kind: 'full' };
  return { runtime, creation, auxdata, integrity: { compiled: auxdata.decoded?.integrity ?? null, onchain: onchainIntegrity } };
}

/** The deployed init code's auxdata as the creation match read it: the compiled one, or the one it was replaced with. */
function onchainAuxdata(creation: CreationCodeMatch, auxdata: LocatedVyperAuxdata): VyperAuxdata | null {
  const replaced = creation.values.cborAuxdata?.['1'];
  if (replaced === undefined) return auxdata.decoded;
  return decodeVyperTail(strip0x(replaced), auxdata.era);
}

function matchVyperRuntime(compiled: string, onchain: string, auxdata: LocatedVyperAuxdata, version: VersionNumbers): CodeMatch | null {
  if (compiled === '' || onchain.length < compiled.length) return null;
  // From 0.3.10 the init code's auxdata gives the size of the immutables; before (0.3.7 to
  // 0.3.9) they are whatever follows the compiled code, the creation match proving them.
  let immutableBytes: number;
  if (auxdata.decoded?.immutableSize !== undefined) immutableBytes = auxdata.decoded.immutableSize;
  else if (vyperHasImmutables(version)) immutableBytes = (onchain.length - compiled.length) / 2;
  else immutableBytes = 0;
  if (onchain.length !== compiled.length + immutableBytes * 2) return null;
  const transformations: Transformation[] = [];
  const values: TransformationValues = {};
  const head = onchain.slice(0, compiled.length);
  if (head !== compiled) {
    const replaced = replaceVyperAuxdata(compiled, head, auxdata.runtime, auxdata);
    if (!replaced || replaced.code !== head) return null;
    transformations.push(replaced.transformation);
    values.cborAuxdata = replaced.values;
  }
  if (immutableBytes > 0) {
    transformations.push({ type: 'insert', reason: 'immutable', offset: compiled.length / 2, id: '0' });
    values.immutables = { '0': `0x${onchain.slice(compiled.length)}` };
  }
  return { kind: 'partial', transformations, values };
}

function matchVyperCreation(compiled: string, onchain: string, auxdata: LocatedVyperAuxdata, inputs: readonly AbiParameter[]): CreationCodeMatch | null {
  if (compiled === '' || onchain.length < compiled.length) return null;
  let kind: MatchKind;
  let code: string;
  const transformations: Transformation[] = [];
  const values: TransformationValues = {};
  if (onchain.startsWith(compiled)) {
    code = compiled;
    kind = auxdata.era === 'integrity' && auxdata.decoded?.integrity !== undefined ? 'full' : 'partial';
  } else {
    const replaced = replaceVyperAuxdata(compiled, onchain, auxdata.creation, auxdata);
    if (!replaced || !onchain.startsWith(replaced.code)) return null;
    code = replaced.code;
    kind = 'partial';
    transformations.push(replaced.transformation);
    values.cborAuxdata = replaced.values;
  }
  const constructorArguments = onchain.slice(code.length);
  if (!constructorArgumentsAreCanonical(constructorArguments, inputs)) return null;
  if (constructorArguments !== '') {
    transformations.push({ type: 'insert', reason: 'constructorArguments', offset: code.length / 2 });
    values.constructorArguments = `0x${constructorArguments}`;
  }
  return { kind, transformations, values, constructorArguments };
}

/**
 * The compiled code with its auxdata replaced by the deployed bytes at the same place, which
 * must be a Vyper auxdata of the same length and, when it decodes, describe the same code (its
 * sizes): the version, or the integrity hash, can differ. Null otherwise.
 */
function replaceVyperAuxdata(
  compiled: string,
  onchain: string,
  position: AuxdataPosition | null,
  auxdata: LocatedVyperAuxdata,
): { code: string; transformation: Transformation; values: Record<string, `0x${string}`> } | null {
  if (!position || !auxdata.decoded) return null;
  const from = position.offset * 2;
  const to = from + position.length * 2;
  if (to > onchain.length) return null;
  const found = onchain.slice(from, to);
  const decoded = decodeVyperTail(found, auxdata.era);
  if (decoded) {
    const compiledSizes = JSON.stringify([auxdata.decoded.runtimeSize, auxdata.decoded.dataSizes, auxdata.decoded.immutableSize]);
    if (JSON.stringify([decoded.runtimeSize, decoded.dataSizes, decoded.immutableSize]) !== compiledSizes) return null;
  } else if (!isVyperShapedAuxdata(found, auxdata.era)) {
    // Auxdata that names a version of another era (an array naming 0.3.9, which decodeVyperTail
    // does not take) is still metadata in its place, as Sourcify takes it: only bytes that
    // are no CBOR of the declared length are not.
    return null;
  }
  return {
    code: compiled.slice(0, from) + found + compiled.slice(to),
    transformation: { type: 'replace', reason: 'cborAuxdata', offset: position.offset, id: position.id },
    values: { [position.id]: `0x${found}` },
  };
}
