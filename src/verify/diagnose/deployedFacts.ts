import { strip0x } from '../../core/hex.js';
import { tryDecodeAuxdata } from '../auxdata.js';
import { cborTailRange } from '../cborTail.js';

/** The metadata hash kind the deployed auxdata carries; `none` when it has auxdata without a hash, `absent` without auxdata. */
export type DeployedHashKind = 'ipfs' | 'bzzr0' | 'bzzr1' | 'none' | 'absent';

/** What the deployed code says about how it was built, before anything is compiled. */
export interface DeployedFacts {
  /** `0.8.24` from the auxdata's `solc` key, or null when it has none (before 0.5.9, or no auxdata). */
  compilerRelease: string | null;
  hashKind: DeployedHashKind;
  /** Bytes of deployed runtime code. */
  runtimeLength: number;
}

/** Reads the deployed runtime code's CBOR auxdata: the compiler release and the hash kind. */
export function deployedFacts(runtimeCode: string): DeployedFacts {
  const code = strip0x(runtimeCode).toLowerCase();
  const range = cborTailRange(code);
  const decoded = range ? tryDecodeAuxdata(code.slice(range.start * 2, (range.start + range.length) * 2)) : null;
  const hashKind: DeployedHashKind = !decoded ? 'absent' : decoded.ipfs ? 'ipfs' : decoded.bzzr1 ? 'bzzr1' : decoded.bzzr0 ? 'bzzr0' : 'none';
  const release = decoded?.solc && /^\d+\.\d+\.\d+$/.test(decoded.solc) ? decoded.solc : null;
  return { compilerRelease: release, hashKind, runtimeLength: code.length / 2 };
}
