import { keccakOfText } from '../core/keccak.js';
import { vyperAuxdataOfInitCode } from './vyper/vyperAuxdata.js';

/** The start of the auxdata solc writes, by hash kind: `{ipfs: ...` and `{bzzr0|bzzr1: ...`. */
const AUXDATA_STARTS = ['a264697066735822', 'a165627a7a72305820', 'a265627a7a72305820', 'a265627a7a72315820'];

/**
 * A key to find the compilations a code may be a copy of: keccak256 of the runtime code with
 * every operand of PUSH20 (library addresses, call protection, address constants) and PUSH32
 * (immutables, word constants) zeroed, and every auxdata block solc writes (metadata hashes,
 * including a factory's embedded children) blanked. Compiled code (with link placeholders and
 * zeroed immutables) and every deployed copy of it share the key. It only finds candidates:
 * the matcher then compares every byte, masked regions included, as for a submission.
 * `code` is hex without 0x; data after the instructions is read as instructions too, the
 * same way for every copy.
 */
export function codeFingerprint(code: string): string {
  // The auxdata first: its hash bytes would otherwise be read as instructions and operands.
  const hex = blankAuxdata(code.toLowerCase());
  const out: string[] = [];
  let at = 0;
  while (at < hex.length) {
    const opcode = parseInt(hex.slice(at, at + 2), 16);
    out.push(hex.slice(at, at + 2));
    at += 2;
    if (opcode >= 0x60 && opcode <= 0x7f) {
      const width = (opcode - 0x5f) * 2;
      const operand = hex.slice(at, at + width);
      out.push(opcode === 0x73 || opcode === 0x7f ? '0'.repeat(operand.length) : operand);
      at += width;
    }
  }
  return keccakOfText(out.join(''));
}

/**
 * The fingerprint of a deployed code, knowing the init code that deployed it. A Vyper contract
 * (0.3.10 on) with immutables holds them after its runtime code; its init code's auxdata gives
 * the runtime code's size, and the fingerprint is that of the runtime code alone, as compiled.
 * Any other code's is codeFingerprint's. Both codes hex without 0x.
 */
export function deployedCodeFingerprint(runtimeCode: string, creationCode: string | null): string {
  const runtime = runtimeCode.toLowerCase();
  const sizes = creationCode ? vyperAuxdataOfInitCode(creationCode.toLowerCase())?.auxdata : undefined;
  if (sizes?.runtimeSize !== undefined && sizes.immutableSize && runtime.length === (sizes.runtimeSize + sizes.immutableSize) * 2) {
    return codeFingerprint(runtime.slice(0, sizes.runtimeSize * 2));
  }
  return codeFingerprint(runtime);
}

/** Every auxdata block: the CBOR map from one of its known starts to its two length bytes. */
function blankAuxdata(hex: string): string {
  let out = hex;
  for (const start of AUXDATA_STARTS) {
    for (let at = out.indexOf(start); at !== -1; at = out.indexOf(start, at + start.length)) {
      if (at % 2 !== 0) continue;
      // The map ends two bytes before the end of a length that counts it: look within solc's sizes.
      for (let length = 40; length <= 128; length++) {
        const end = at + length * 2;
        if (end + 4 > out.length) break;
        if (parseInt(out.slice(end, end + 4), 16) === length) {
          out = out.slice(0, at) + '0'.repeat(length * 2 + 4) + out.slice(end + 4);
          break;
        }
      }
    }
  }
  return out;
}
