import type { CodeComparison, Instruction } from '../../core/diagnosis.js';
import { strip0x } from '../../core/hex.js';
import { cborTailRange } from '../cborTail.js';

/** Instruction names by opcode (the ones solc emits); anything else shows as its hex. */
const OPCODES: Record<number, string> = {
  0x00: 'STOP',
  0x01: 'ADD',
  0x02: 'MUL',
  0x03: 'SUB',
  0x04: 'DIV',
  0x05: 'SDIV',
  0x06: 'MOD',
  0x07: 'SMOD',
  0x08: 'ADDMOD',
  0x09: 'MULMOD',
  0x0a: 'EXP',
  0x0b: 'SIGNEXTEND',
  0x10: 'LT',
  0x11: 'GT',
  0x12: 'SLT',
  0x13: 'SGT',
  0x14: 'EQ',
  0x15: 'ISZERO',
  0x16: 'AND',
  0x17: 'OR',
  0x18: 'XOR',
  0x19: 'NOT',
  0x1a: 'BYTE',
  0x1b: 'SHL',
  0x1c: 'SHR',
  0x1d: 'SAR',
  0x20: 'KECCAK256',
  0x30: 'ADDRESS',
  0x31: 'BALANCE',
  0x32: 'ORIGIN',
  0x33: 'CALLER',
  0x34: 'CALLVALUE',
  0x35: 'CALLDATALOAD',
  0x36: 'CALLDATASIZE',
  0x37: 'CALLDATACOPY',
  0x38: 'CODESIZE',
  0x39: 'CODECOPY',
  0x3a: 'GASPRICE',
  0x3b: 'EXTCODESIZE',
  0x3c: 'EXTCODECOPY',
  0x3d: 'RETURNDATASIZE',
  0x3e: 'RETURNDATACOPY',
  0x3f: 'EXTCODEHASH',
  0x40: 'BLOCKHASH',
  0x41: 'COINBASE',
  0x42: 'TIMESTAMP',
  0x43: 'NUMBER',
  0x44: 'PREVRANDAO',
  0x45: 'GASLIMIT',
  0x46: 'CHAINID',
  0x47: 'SELFBALANCE',
  0x48: 'BASEFEE',
  0x49: 'BLOBHASH',
  0x4a: 'BLOBBASEFEE',
  0x50: 'POP',
  0x51: 'MLOAD',
  0x52: 'MSTORE',
  0x53: 'MSTORE8',
  0x54: 'SLOAD',
  0x55: 'SSTORE',
  0x56: 'JUMP',
  0x57: 'JUMPI',
  0x58: 'PC',
  0x59: 'MSIZE',
  0x5a: 'GAS',
  0x5b: 'JUMPDEST',
  0x5c: 'TLOAD',
  0x5d: 'TSTORE',
  0x5e: 'MCOPY',
  0x5f: 'PUSH0',
  0xa0: 'LOG0',
  0xa1: 'LOG1',
  0xa2: 'LOG2',
  0xa3: 'LOG3',
  0xa4: 'LOG4',
  0xf0: 'CREATE',
  0xf1: 'CALL',
  0xf2: 'CALLCODE',
  0xf3: 'RETURN',
  0xf4: 'DELEGATECALL',
  0xf5: 'CREATE2',
  0xfa: 'STATICCALL',
  0xfd: 'REVERT',
  0xfe: 'INVALID',
  0xff: 'SELFDESTRUCT',
};
for (let i = 1; i <= 32; i++) OPCODES[0x5f + i] = `PUSH${i}`;
for (let i = 1; i <= 16; i++) {
  OPCODES[0x7f + i] = `DUP${i}`;
  OPCODES[0x8f + i] = `SWAP${i}`;
}

/** The instructions of `code` (hex without 0x) from byte `from` to byte `to`. */
export function disassemble(code: string, from = 0, to = code.length / 2): Instruction[] {
  const out: Instruction[] = [];
  let at = 0;
  while (at < to && at * 2 < code.length) {
    const opcode = parseInt(code.slice(at * 2, at * 2 + 2), 16);
    const name = OPCODES[opcode] ?? `0x${opcode.toString(16).padStart(2, '0')}`;
    const width = opcode >= 0x60 && opcode <= 0x7f ? opcode - 0x5f : 0;
    if (at >= from) out.push({ offset: at, text: width ? `${name} 0x${code.slice(at * 2 + 2, (at + 1 + width) * 2)}` : name });
    at += 1 + width;
  }
  return out;
}

/** Compares compiled runtime code (immutables zeroed, placeholders in place) with the deployed runtime code. */
export function compareCodes(compiledCode: string, deployedCode: string): CodeComparison {
  const compiled = strip0x(compiledCode).toLowerCase();
  const deployed = strip0x(deployedCode).toLowerCase();
  let first: number | null = null;
  let differing = 0;
  const longest = Math.max(compiled.length, deployed.length) / 2;
  for (let i = 0; i < longest; i++) {
    if (compiled.slice(i * 2, i * 2 + 2) !== deployed.slice(i * 2, i * 2 + 2)) {
      differing++;
      first ??= i;
    }
  }
  const compiledTail = cborTailRange(compiled);
  const deployedTail = cborTailRange(deployed);
  const onlyMetadata =
    first !== null &&
    compiled.length === deployed.length &&
    compiledTail !== null &&
    deployedTail !== null &&
    compiledTail.start === deployedTail.start &&
    first >= compiledTail.start;
  const around = (code: string): Instruction[] => {
    if (first === null) return [];
    const all = disassemble(code, Math.max(0, first - 12), first + 12);
    const at = all.findIndex((i) => i.offset >= first!);
    const index = at === -1 ? all.length : at;
    return all.slice(Math.max(0, index - 3), index + 4);
  };
  return {
    deployedLength: deployed.length / 2,
    compiledLength: compiled.length / 2,
    firstDifference: first,
    deployedAround: around(deployed),
    compiledAround: around(compiled),
    onlyMetadata,
    differingBytes: differing,
  };
}
