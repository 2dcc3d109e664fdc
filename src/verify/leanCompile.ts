import { type VersionNumbers, versionAtLeast } from '../core/compilerVersion.js';
import { solidityOutline } from '../core/solidityOutline.js';
import { tailAuxdata } from './auxdata.js';
import type { BuiltSolcInput } from './buildSolcInput.js';
import type { CompiledContract } from './compiledContract.js';
import { ipfsHashOfMetadata } from './metadataHash.js';
import type { SolcInput } from './solcTypes.js';

/**
 * Compiling without `evm.legacyAssembly`.
 *
 * The legacy assembly is how solc reports the auxdata it wrote (see matchContract), and it is
 * not free: 4 to 14% of a compile of an OpenZeppelin Governor or ERC-20, and six times the
 * output, which the worker parses and hands over (the contracts bench measures it). Most
 * contracts hold one auxdata, their own, at the end of their runtime code. That one needs no
 * report: its IPFS hash is the hash of the metadata solc returns, which pins every source, so
 * no source can hold it (a source holding the hash of a text that holds the source's hash).
 * Any place in the code that holds the value is solc's.
 *
 * So a compile leaves the assembly out when the input can only give that: a compiler that
 * writes an IPFS hash by default (0.6.0 on), the IPFS hash not switched off, and no source
 * that puts another contract's code into this one (`new C`, `type(C).creationCode`), whose
 * auxdata only the report locates. The code then proves the rest (provenOwnAuxdata); when it
 * does not, the contract is compiled again with the assembly.
 */

/** solc's CBOR key `ipfs` and the header of its 34-byte value: in every auxdata with an IPFS hash. */
const IPFS_AUXDATA_MARK = '64697066735822';

/** The input to compile without the legacy assembly, or null when the assembly is needed. */
export function leanInput(version: VersionNumbers | null, built: BuiltSolcInput): SolcInput | null {
  const { input, sourcePath, contractName } = built;
  if (!version || !versionAtLeast(version, '0.6.0')) return null;
  const metadata = input.settings.metadata;
  if (metadata?.bytecodeHash !== undefined && metadata.bytecodeHash !== 'ipfs') return null;
  if (metadata?.appendCBOR === false) return null;
  const selected = input.settings.outputSelection?.[sourcePath]?.[contractName];
  if (!selected?.includes('evm.legacyAssembly')) return null;
  for (const source of Object.values(input.sources)) {
    for (const item of solidityOutline(source.content ?? '')) {
      if (item.kind === 'creation') return null;
    }
  }
  const outputs = selected.filter((o) => o !== 'evm.legacyAssembly');
  return { ...input, settings: { ...input.settings, outputSelection: { [sourcePath]: { [contractName]: outputs } } } };
}

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}

/**
 * The contract with its one auxdata proven and located, from its code alone: the runtime code
 * ends with an auxdata whose IPFS hash is that of the compiled metadata, and the creation code
 * (which holds the runtime code) holds no other auxdata with an IPFS hash (as a created
 * contract's would). Null when that is not so: the legacy assembly must say.
 */
export function provenOwnAuxdata(compiled: CompiledContract): CompiledContract | null {
  const runtime = compiled.runtime.code;
  const creation = compiled.creation.code;
  const tail = tailAuxdata(runtime);
  const expected = ipfsHashOfMetadata(compiled.metadata);
  if (!tail || !expected || tail.decoded.ipfs !== expected) return null;
  const value = tail.position.value;
  // The creation code holds the runtime code, and whatever else the contract creates.
  if (occurrences(creation, IPFS_AUXDATA_MARK).length !== 1) return null;
  const inCreation = occurrences(creation, value);
  if (inCreation.length !== 1 || inCreation[0]! % 2 !== 0) return null;
  const creationPosition = { ...tail.position, offset: inCreation[0]! / 2 };
  return {
    ...compiled,
    creation: { ...compiled.creation, auxdata: { values: [value], positions: [creationPosition] } },
    runtime: { ...compiled.runtime, auxdata: { values: [value], positions: [tail.position] } },
  };
}
