import type { DeployedFacts, DeployedHashKind } from '../../core/diagnosis.js';
import { strip0x } from '../../core/hex.js';
import { tryDecodeAuxdata } from '../auxdata.js';
import { cborTailRange } from '../cborTail.js';

/** Reads the deployed runtime code's CBOR auxdata: the compiler release and the hash kind. */
export function deployedFacts(runtimeCode: string): DeployedFacts {
  const code = strip0x(runtimeCode).toLowerCase();
  const range = cborTailRange(code);
  const decoded = range ? tryDecodeAuxdata(code.slice(range.start * 2, (range.start + range.length) * 2)) : null;
  const hashKind: DeployedHashKind = !decoded ? 'absent' : decoded.ipfs ? 'ipfs' : decoded.bzzr1 ? 'bzzr1' : decoded.bzzr0 ? 'bzzr0' : 'none';
  const release = decoded?.solc && /^\d+\.\d+\.\d+$/.test(decoded.solc) ? decoded.solc : null;
  return { compilerRelease: release, hashKind, runtimeLength: code.length / 2 };
}
